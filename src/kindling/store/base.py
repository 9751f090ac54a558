"""The store seam: the domain verbs every backend (SQLite now, PostgreSQL later) provides.

Retrieval and the engine see storage only through ``Store``. Search verbs take a ready MATCH
expression (built by ``store.fts``) and a ``BaseRank``: the part of the scoring model that must
be evaluated inside the database so that the top of the ranking is found without reading every
match into Python (see ``retrieval.scoring`` for the whole model).

Must not import anything from Kindling except ``model`` and ``errors``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

from kindling.model import (
    Capsule,
    CapsuleStatus,
    Observation,
    ObservationKind,
    Pin,
    Scope,
    Summary,
    SummaryDetails,
    TargetType,
)


@dataclass(frozen=True, slots=True)
class BaseRank:
    """Inputs of the score as the store evaluates it in SQL (``retrieval.scoring``):

    ``(w_fts*rel + w_recency*rec) * ((scope_mult * intent_mult) * conf_mult)`` with
    ``rel = s / (s + relevance_k)``, ``s = max(-bm25, match_floor)``,
    ``rec = half_life / (half_life + age)``, ``age = max(0, reference_ms - ts)`` and
    ``conf_mult = 1 - w_confidence + w_confidence * confidence`` (1 for observations).
    ``intent_mult`` is the best any hit can get: per-hit intents are applied by the caller.
    """

    w_fts: float
    w_recency: float
    relevance_k: float
    match_floor: float
    half_life_ms: float
    reference_ms: int
    scope_mult: float = 1.0
    intent_mult: float = 1.0
    w_confidence: float = 0.0


@dataclass(frozen=True, slots=True)
class CapsuleRef:
    """What the write path needs of a capsule, without reading its observation list."""

    id: str
    status: CapsuleStatus
    scope: Scope


@dataclass(frozen=True, slots=True)
class ObservationMatch:
    observation: Observation
    bm25: float  # FTS5's bm25(): lower is better; 0.0 for recency (empty query) results
    rowid: int


@dataclass(frozen=True, slots=True)
class SummaryMatch:
    summary: Summary
    bm25: float
    rowid: int
    scope: Scope  # the summary's capsule's scope
    intent: str  # the summary's capsule's intent


@dataclass(frozen=True, slots=True)
class Dataset:
    """Every entity in a scope, in export order: oldest first, ties by id."""

    observations: list[Observation]
    capsules: list[Capsule]
    summaries: list[Summary]
    pins: list[Pin]


@dataclass(frozen=True, slots=True)
class StoreStats:
    observations_by_kind: dict[str, int]
    redacted_observations: int
    capsules_by_status: dict[str, int]
    summaries: int
    pins: int
    schema_version: int


@dataclass(frozen=True, slots=True)
class TextMatches:
    """Ids of the entities whose stored text contains a given string."""

    observations: tuple[str, ...]
    summaries: tuple[str, ...]
    pins: tuple[str, ...]
    capsules: tuple[str, ...]

    @property
    def total(self) -> int:
        return len(self.observations) + len(self.summaries) + len(self.pins) + len(self.capsules)


class Store(Protocol):
    """Storage verbs. Every write is atomic; ``transaction()`` groups several into one."""

    def close(self) -> None: ...

    def transaction(self) -> AbstractContextManager[None]: ...

    # observations
    def insert_observation(self, obs: Observation, capsule_id: str | None) -> None: ...
    def get_observations(self, ids: Sequence[str]) -> dict[str, Observation]: ...
    def list_observations(
        self,
        *,
        kind: ObservationKind | None,
        scope: Scope,
        capsule_id: str | None,
        limit: int,
    ) -> list[Observation]: ...
    def redact_observation(self, obs_id: str) -> bool: ...
    def redact_summary(self, summary_id: str) -> bool: ...
    def delete_pin_purged(self, pin_id: str) -> bool: ...
    def clear_pin_reason(self, pin_id: str) -> bool: ...
    def redact_capsule_intent(self, capsule_id: str) -> bool: ...
    def summaries_citing(self, obs_ids: Sequence[str]) -> list[str]: ...
    def find_text(self, text: str) -> TextMatches: ...
    def finish_purge(self, *, wait_ms: int = 0) -> bool: ...
    def capsule_intents_of(self, obs_ids: Sequence[str]) -> dict[str, str]: ...
    def capsules_of(self, obs_id: str) -> list[str]: ...
    def link_observation(self, capsule_id: str, obs_id: str) -> bool: ...

    # capsules
    def insert_capsule(self, capsule: Capsule) -> None: ...
    def get_capsule(self, capsule_id: str) -> Capsule | None: ...
    def capsule_ref(self, capsule_id: str) -> CapsuleRef | None: ...
    def find_open_capsule(self, scope: Scope, *, session_id: str | None) -> CapsuleRef | None: ...
    def set_capsule_closed(self, capsule_id: str, closed_at: int) -> None: ...
    def list_capsules(
        self, *, status: CapsuleStatus | None, scope: Scope, limit: int
    ) -> list[Capsule]: ...

    # summaries
    def upsert_summary(self, summary: Summary) -> Summary: ...
    def get_summary(self, summary_id: str) -> Summary | None: ...
    def get_summaries(self, ids: Sequence[str]) -> dict[str, Summary]: ...
    def summary_for_capsule(self, capsule_id: str) -> Summary | None: ...
    def list_summaries(self, *, scope: Scope, limit: int) -> list[Summary]: ...

    # structured summaries (chat memories)
    def insert_summary_details(self, details: SummaryDetails) -> None: ...
    def get_summary_details(self, summary_ids: Sequence[str]) -> dict[str, SummaryDetails]: ...
    def supersede_active(
        self, repo_id: str, topic_id: str, *, keep_id: str, updated_at: int
    ) -> list[str]: ...

    # pins
    def insert_pin(self, pin: Pin) -> None: ...
    def get_pin(self, pin_id: str) -> Pin | None: ...
    def delete_pin(self, pin_id: str) -> bool: ...
    def list_pins(self, *, scope: Scope, active_at: int | None, limit: int) -> list[Pin]: ...
    def pins_for_target(self, target_type: TargetType, target_id: str) -> list[Pin]: ...

    # search
    def search_observations(
        self,
        match: str | None,
        scope: Scope,
        *,
        rank: BaseRank,
        exclude_ids: Sequence[str],
        include_redacted: bool,
        limit: int,
    ) -> list[ObservationMatch]: ...
    def search_summaries(
        self,
        match: str | None,
        scope: Scope,
        *,
        rank: BaseRank,
        exclude_ids: Sequence[str],
        limit: int,
    ) -> list[SummaryMatch]: ...
    def highlight(
        self, target_type: TargetType, match: str, rowids: Sequence[int]
    ) -> dict[int, str]: ...
    def newest_ts(self) -> int | None: ...

    def stats(self) -> StoreStats: ...
    def export_entities(self, scope: Scope, *, include_redacted: bool) -> Dataset: ...


def iter_chunks(items: Sequence[str], size: int = 500) -> Iterator[Sequence[str]]:
    """Split long id lists so that no statement exceeds SQLite's variable limit."""
    for start in range(0, len(items), size):
        yield items[start : start + size]

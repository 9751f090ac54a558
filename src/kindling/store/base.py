"""The store seam: the domain verbs every backend (SQLite now, PostgreSQL later) provides.

Retrieval and the engine see storage only through ``Store``. Search verbs take a parsed query
(``store.fts.QueryPlan``: an FTS5 MATCH string for SQLite, plain terms and phrases for other
backends) and return matches ordered by text relevance alone: best bm25 first, then newer, then
id. The score itself (relevance, recency, multipliers) is computed in one place,
``retrieval.scoring``; no backend evaluates it.

Must not import anything from Kindling except ``model``, ``errors`` and ``store.fts``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol, TypeVar

from kindling.model import (
    Capsule,
    CapsuleStatus,
    Observation,
    ObservationKind,
    Pin,
    Scope,
    Summary,
    TargetType,
)
from kindling.model.reports import RepoActivity as RepoActivity  # values of the wire
from kindling.model.reports import StoreStats as StoreStats
from kindling.store.fts import QueryPlan

if TYPE_CHECKING:  # annotations only: the chat memories' values load on first use
    from kindling.model import SummaryDetails


@dataclass(frozen=True, slots=True)
class CapsuleRef:
    """What the write path needs of a capsule, without reading its observation list."""

    id: str
    status: CapsuleStatus
    scope: Scope


@dataclass(frozen=True, slots=True)
class ObservationMatch:
    """An observation a search found, with its bm25 and rowid."""

    observation: Observation
    bm25: float  # FTS5's bm25(): lower is better; 0.0 for recency (empty query) results
    rowid: int
    context_only: bool = False  # matched through its neighbour or capsule intent, not its text
    # What the index holds besides the item's own text (text queries only): the neighbour's
    # excerpt, whether that neighbour is a person's prompt (a ``message`` with role "user"),
    # and the capsule intent. Retrieval weighs them as a partial signal (``retrieval.terms``).
    context: str = ""
    context_prompt: bool = False
    intent: str = ""


@dataclass(frozen=True, slots=True)
class SummaryMatch:
    """A summary a search found, with its bm25 and its capsule's scope and intent."""

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
class TextMatches:
    """Ids of the entities whose stored text contains a given string."""

    observations: tuple[str, ...]
    summaries: tuple[str, ...]
    pins: tuple[str, ...]
    capsules: tuple[str, ...]

    @property
    def total(self) -> int:
        return len(self.observations) + len(self.summaries) + len(self.pins) + len(self.capsules)


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a backend can do and where it lives, declared once by each store: callers read
    these fields instead of probing a store's attributes by name."""

    backend: Literal["sqlite", "postgresql"]
    thread_safe: bool  # one store object may serve many threads at once
    # The database file (hooks spool and keep session secrets beside it); None in memory or
    # on a server.
    local_path: str | None
    # What a completed forget still cannot remove from this backend ("" when nothing).
    purge_remains: str = ""


@dataclass(frozen=True, slots=True)
class PurgeState:
    """Whether the last forget's old text has left the storage (SQLite: the WAL file;
    PostgreSQL: the old row versions), and who holds it if not (may be empty: unknown)."""

    purged: bool
    holders: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Checkup:
    """What a ``Doctor``'s checks found: no problems means a sound database."""

    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(slots=True)
class Salvage:
    """Rows a ``Doctor`` copied into a new database, and rows it could not read, by table
    (-1: the table itself could not be read)."""

    copied: dict[str, int] = field(default_factory=dict)
    lost: dict[str, int] = field(default_factory=dict)


class Doctor(Protocol):
    """A backend's checks of its own storage (``kindling doctor``), on a database that may be
    too damaged to open as a store; ``store.backends.open_doctor`` gives a name's."""

    @property
    def indexes(self) -> tuple[str, ...]:
        """The text indexes ``rebuild_indexes`` rebuilds."""
        ...

    def check(self) -> Checkup: ...

    def rebuild_indexes(self) -> None:
        """Rebuild the text indexes from the tables (which are not touched)."""
        ...

    def salvage(self, out: str) -> Salvage:
        """Copy every row that can still be read into a new database at ``out``."""
        ...


T = TypeVar("T")


class Store(Protocol):
    """Storage verbs. Every write is atomic; ``transaction()`` groups several into one."""

    @property
    def capabilities(self) -> Capabilities: ...

    def purge_state(self) -> PurgeState: ...

    def close(self) -> None: ...

    def transaction(self) -> AbstractContextManager[None]: ...

    # observations
    def insert_observation(self, obs: Observation, capsule_id: str | None) -> None: ...
    def insert_observations(self, items: Sequence[tuple[Observation, str | None]]) -> None:
        """Insert many (observation, capsule id or None) at once, atomically."""
        ...

    def get_observations(self, ids: Sequence[str]) -> dict[str, Observation]: ...
    def observation_ids(self, ids: Sequence[str]) -> set[str]:
        """Which of ``ids`` name a stored observation (no row is read)."""
        ...

    def list_observations(
        self,
        *,
        kind: ObservationKind | None,
        scope: Scope,
        capsule_id: str | None,
        limit: int,
        before: tuple[int, str] | None = None,
    ) -> list[Observation]:
        """Newest first, ties by id; ``before`` = (ts, id) of the last row of the previous
        page (keyset pagination: only rows after it in that order); ignored with a capsule."""
        ...

    def list_repos(self, *, scope: Scope, limit: int) -> list[RepoActivity]:
        """The repositories with observations in ``scope``, the most recently active first."""
        ...

    def session_steps(
        self, scope: Scope, *, ts: int, obs_id: str | None, before: int, after: int
    ) -> tuple[list[Observation], list[Observation]]:
        """The observations in ``scope`` just before and just after a point in time, each list
        oldest first, at most ``before`` and ``after`` of them. The point is the observation
        ``obs_id`` (itself in neither list), or, when it is None, the end of the time ``ts``."""
        ...

    def forget_observation(self, obs_id: str) -> bool: ...
    def forget_summary(self, summary_id: str) -> bool: ...
    def delete_pin_purged(self, pin_id: str) -> bool: ...
    def clear_pin_reason(self, pin_id: str) -> bool: ...
    def forget_capsule_intent(self, capsule_id: str) -> bool: ...
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
    def find_open_session_capsule(self, session_id: str, user_id: str | None) -> CapsuleRef | None:
        """The open session capsule of one user's session (one at most: PostgreSQL's unique
        index, the engine's check on SQLite)."""
        ...

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

    # search: matches ordered by bm25 (best first), ties in a deterministic order of the
    # backend's choosing; at most ``limit``. ``plan`` None (or without a match) means the empty
    # query: newest first, then id.
    def search_observations(
        self,
        plan: QueryPlan | None,
        scope: Scope,
        *,
        exclude_ids: Sequence[str],
        include_redacted: bool,
        limit: int,
        until: int | None = None,
    ) -> list[ObservationMatch]:
        """Text matches best first (an empty query: newest first); ``until``: only what was
        recorded at or before that time."""
        ...

    def search_summaries(
        self,
        plan: QueryPlan | None,
        scope: Scope,
        *,
        exclude_ids: Sequence[str],
        limit: int,
        until: int | None = None,
    ) -> list[SummaryMatch]: ...
    def document_counts(
        self, words: Sequence[str], *, share: float, minimum: int
    ) -> tuple[int, dict[str, int]]:
        """``(threshold, {word: observations containing it})`` with ``threshold = max(minimum,
        share * observations)``; counts may stop at ``threshold + 1``."""
        ...

    def indexed_observations(self) -> int:
        """How many observations the search index has held (the ``N`` of term weights; an
        upper bound is fine: forgotten rows may still count)."""
        ...

    def newest_ts(self, scope: Scope) -> int | None:
        """The newest observation or summary time in ``scope``."""
        ...

    def stats(self) -> StoreStats: ...
    def export_entities(self, scope: Scope, *, include_redacted: bool) -> Dataset: ...


def iter_chunks(items: Sequence[T], size: int = 500) -> Iterator[Sequence[T]]:
    """Split long id lists so that no statement exceeds SQLite's variable limit."""
    for start in range(0, len(items), size):
        yield items[start : start + size]

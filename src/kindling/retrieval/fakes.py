"""In-memory fakes of the two seams retrieval reads through, for tests without a database.

``FakeTierStore`` implements ``orchestrator.TierStore`` (the five store reads the orchestrator
makes) over plain lists, with the SQLite store's filters and order; ``FakeProvider`` answers
every request with the hits it was given, minus the excluded ids, cut to the limit.

Must not import anything from Kindling except ``model``, ``store.base``, ``store.fts`` and
``retrieval``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kindling.model import SCOPE_FIELDS, Observation, Pin, Scope, Summary
from kindling.retrieval.provider import ProviderHit, ProviderRequest, ProviderResult
from kindling.store.base import CapsuleRef
from kindling.store.fts import build_query


def in_scope(filter_: Scope, scope: Scope) -> bool:
    """The store's scope filter: every field the filter sets is equal, the others are any."""
    return all(
        getattr(filter_, name) is None or getattr(filter_, name) == getattr(scope, name)
        for name, _ in SCOPE_FIELDS
    )


@dataclass
class FakeTierStore:
    """Pins, observations, summaries and open capsules held in lists."""

    observations: list[Observation] = field(default_factory=list)
    summaries: list[Summary] = field(default_factory=list)
    pins: list[Pin] = field(default_factory=list)
    # open capsules with the time each was opened
    open_capsules: list[tuple[CapsuleRef, int]] = field(default_factory=list)

    def list_pins(self, *, scope: Scope, active_at: int | None, limit: int) -> list[Pin]:
        found = [
            p
            for p in self.pins
            if in_scope(scope, p.scope)
            and (active_at is None or p.expires_at is None or p.expires_at > active_at)
        ]
        found.sort(key=lambda p: (-p.created_at, p.id))
        return found[:limit]

    def get_observations(self, ids: Sequence[str]) -> dict[str, Observation]:
        wanted = set(ids)
        return {o.id: o for o in self.observations if o.id in wanted}

    def get_summaries(self, ids: Sequence[str]) -> dict[str, Summary]:
        wanted = set(ids)
        return {s.id: s for s in self.summaries if s.id in wanted}

    def find_open_capsule(self, scope: Scope, *, session_id: str | None) -> CapsuleRef | None:
        found = [
            (ref, opened)
            for ref, opened in self.open_capsules
            if in_scope(scope, ref.scope)
            and (session_id is None or ref.scope.session_id == session_id)
        ]
        found.sort(key=lambda item: (-item[1], item[0].id))
        return found[0][0] if found else None

    def summary_for_capsule(self, capsule_id: str) -> Summary | None:
        return next((s for s in self.summaries if s.capsule_id == capsule_id), None)


@dataclass
class FakeProvider:
    """A ``RetrievalProvider`` that returns ``hits`` in the given order."""

    hits: list[ProviderHit] = field(default_factory=list)
    name: str = "fake"
    requests: list[ProviderRequest] = field(default_factory=list)

    def search(self, request: ProviderRequest) -> ProviderResult:
        self.requests.append(request)
        excluded = set(request.exclude_ids)
        kept = [h for h in self.hits if h.target_id not in excluded][: request.limit]
        return ProviderResult(hits=tuple(kept), plan=build_query(request.query or ""))

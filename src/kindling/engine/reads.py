"""The read verbs of ``Kindling``: one entity by id (``NotFoundError`` when there is none) and
the listings, newest first.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TypeVar
from urllib.parse import urlsplit

from kindling.engine.base import EngineBase
from kindling.errors import InvalidInputError, NotFoundError
from kindling.model import (
    CAPSULE_STATUSES,
    OBSERVATION_KINDS,
    Capsule,
    CapsuleStatus,
    Entity,
    Observation,
    ObservationKind,
    Pin,
    Scope,
    Summary,
    TargetType,
)
from kindling.model.sanitize import require_choice, require_limit, require_scope, require_ts
from kindling.store.base import RepoActivity, StoreStats

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.model.status import LocalStatus

T = TypeVar("T")


def require_cursor(before: object) -> tuple[int, str]:
    """A page cursor: (ts, id) of the last row already shown."""
    if (
        not isinstance(before, tuple)
        or len(before) != 2
        or isinstance(before[0], bool)
        or not isinstance(before[0], int)
        or not isinstance(before[1], str)
    ):
        raise InvalidInputError("before must be a (ts, id) pair: the last row of the page shown")
    require_ts(before[0], "before ts")
    return before[0], before[1]


def _found(value: T | None, what: str, entity_id: str) -> T:
    if value is None:
        raise NotFoundError(f"no {what} with id {entity_id!r}")
    return value


class ReadVerbs(EngineBase):
    """Getters and listings."""

    def get_observation(self, observation_id: str) -> Observation:
        found = self.store.get_observations([observation_id]).get(observation_id)
        return _found(found, "observation", observation_id)

    def get_observations(self, observation_ids: Sequence[str]) -> dict[str, Observation]:
        """The observations stored under ``observation_ids``, by id, in one read (ids that name
        nothing are left out)."""
        return self.store.get_observations(list(dict.fromkeys(observation_ids)))

    def get_capsule(self, capsule_id: str) -> Capsule:
        return _found(self.store.get_capsule(capsule_id), "capsule", capsule_id)

    def get_summary(self, summary_id: str) -> Summary:
        return _found(self.store.get_summary(summary_id), "summary", summary_id)

    def get_pin(self, pin_id: str) -> Pin:
        return _found(self.store.get_pin(pin_id), "pin", pin_id)

    def get(self, entity_id: str, target_type: TargetType) -> Entity:
        getter: Callable[[str], Entity] = (
            self.get_observation if target_type == "observation" else self.get_summary
        )
        return getter(entity_id)

    def list_observations(
        self,
        *,
        kind: ObservationKind | None = None,
        scope: Scope | None = None,
        capsule_id: str | None = None,
        limit: int = 50,
        before: tuple[int, str] | None = None,
    ) -> list[Observation]:
        """Newest first, ties by id (or in capsule order when ``capsule_id`` is given).
        ``before`` is the (ts, id) of the last observation of the previous page: the next
        page starts after it (keyset pagination, as fast on page 1000 as on page 1)."""
        if kind is not None:
            require_choice(kind, OBSERVATION_KINDS, "observation kind")
        cursor = None if before is None else require_cursor(before)
        return self.store.list_observations(
            kind=kind,
            scope=require_scope(scope),
            capsule_id=capsule_id,
            limit=require_limit(limit),
            before=cursor,
        )

    def list_repos(self, *, scope: Scope | None = None, limit: int = 50) -> list[RepoActivity]:
        """The repositories with observations in ``scope``: most recently active first."""
        return self.store.list_repos(scope=require_scope(scope), limit=require_limit(limit))

    def list_capsules(
        self,
        *,
        status: CapsuleStatus | None = None,
        scope: Scope | None = None,
        limit: int = 50,
    ) -> list[Capsule]:
        if status is not None:
            require_choice(status, CAPSULE_STATUSES, "capsule status")
        return self.store.list_capsules(
            status=status, scope=require_scope(scope), limit=require_limit(limit)
        )

    def list_summaries(self, *, scope: Scope | None = None, limit: int = 50) -> list[Summary]:
        return self.store.list_summaries(scope=require_scope(scope), limit=require_limit(limit))

    def list_pins(
        self, *, scope: Scope | None = None, active_at: int | None = None, limit: int = 50
    ) -> list[Pin]:
        """Newest first; with ``active_at`` only pins not yet expired at that time."""
        if active_at is not None:
            require_ts(active_at, "active_at")
        return self.store.list_pins(
            scope=require_scope(scope), active_at=active_at, limit=require_limit(limit)
        )

    def stats(self) -> StoreStats:
        """Whole-store counts."""
        return self.store.stats()

    def status(self, *, open_shown: int = 20) -> LocalStatus:
        """What ``kindling status`` shows: where the database is, its size and schema, the
        counts by type and kind, and the newest ``open_shown`` open capsules."""
        from kindling.model.status import LocalStatus
        from kindling.semantic.api import status as semantic_status  # not on the hooks' path

        stats = self.stats()
        open_caps = self.list_capsules(status="open", limit=open_shown)
        where = self.location or ":memory:"
        if "://" in where:  # a server database: its address without the credentials
            parts = urlsplit(where)
            where = f"{parts.scheme}://{parts.hostname or ''}{parts.path}"
        elif where != ":memory:":
            where = os.path.realpath(where)
        files = [] if "://" in where or where == ":memory:" else [where, where + "-wal"]
        return LocalStatus(
            database=where,
            size_bytes=sum(os.path.getsize(f) for f in files if os.path.exists(f)),
            stats=stats,
            open_capsules=tuple(open_caps),
            semantic=semantic_status(self.store).to_dict(),
        )

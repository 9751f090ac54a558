"""The observation reads, written once: by id, newest first in a scope, around a point in time.

Batch writes stay with each backend: they keep its search index current
(``store.sqlite.observations``, ``store.postgres.observations``).

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kindling.model import Observation, ObservationKind, Scope
from kindling.store.rows import LAST_ROWID, OBS_COLUMNS, observation_row, scope_where, steps_sql
from kindling.store.sql.dialect import UsesDatabase, read_by_ids


class ObservationReadsMixin(UsesDatabase):
    """``insert_observation``, ``get_observations``, ``list_observations`` and
    ``session_steps``."""

    if TYPE_CHECKING:

        def insert_observations(self, items: Sequence[tuple[Observation, str | None]]) -> None: ...

    def insert_observation(self, obs: Observation, capsule_id: str | None) -> None:
        self.insert_observations([(obs, capsule_id)])

    def get_observations(self, ids: Sequence[str]) -> dict[str, Observation]:
        rows = read_by_ids(self.db, f"SELECT {OBS_COLUMNS} FROM observations o", "o.id", ids)
        return {row[0]: observation_row(row) for row in rows}

    def list_observations(
        self,
        *,
        kind: ObservationKind | None,
        scope: Scope,
        capsule_id: str | None,
        limit: int,
        before: tuple[int, str] | None = None,
    ) -> list[Observation]:
        where, params = scope_where(scope, "o")
        if before is not None and capsule_id is None:  # keyset: the index range on ts
            where += " AND o.ts <= ? AND (o.ts < ? OR o.id > ?)"
            params.extend([before[0], before[0], before[1]])
        if kind is not None:
            where += " AND o.kind = ?"
            params.append(kind)
        if capsule_id is not None:
            rows = self.db.read(
                f"SELECT {OBS_COLUMNS} FROM capsule_observations co"
                " JOIN observations o ON o.id = co.observation_id"
                f" WHERE co.capsule_id = ? AND {where} ORDER BY co.seq LIMIT ?",
                [capsule_id, *params, limit],
            )
        else:
            rows = self.db.read(
                f"SELECT {OBS_COLUMNS} FROM observations o WHERE {where}"
                " ORDER BY o.ts DESC, o.id ASC LIMIT ?",
                [*params, limit],
            )
        return [observation_row(r) for r in rows]

    def session_steps(
        self, scope: Scope, *, ts: int, obs_id: str | None, before: int, after: int
    ) -> tuple[list[Observation], list[Observation]]:
        pivot = LAST_ROWID
        if obs_id is not None:
            found = self.db.read("SELECT rowid FROM observations WHERE id = ?", [obs_id])
            if not found:
                return [], []
            pivot = int(found[0][0])
        where, params = scope_where(scope, "o")
        earlier_sql, later_sql = steps_sql(where, "?")
        earlier = self.db.read(earlier_sql, [*params, ts, ts, pivot, before]) if before else []
        later = self.db.read(later_sql, [*params, ts, ts, pivot, after]) if after else []
        return [observation_row(r) for r in reversed(earlier)], [observation_row(r) for r in later]

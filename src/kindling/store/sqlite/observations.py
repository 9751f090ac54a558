"""The observation verbs of ``SqliteStore``: append (one or a batch) and read back.

Appends do not index: they mark the rows for ``Database.index_pending``, which indexes a
transaction's appends in one step (see ``connection``).

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from kindling.model import Observation, ObservationKind, Scope
from kindling.store.base import iter_chunks
from kindling.store.rows import (
    LAST_ROWID,
    OBS_COLUMNS,
    observation_row,
    observation_values,
    scope_where,
    steps_sql,
    store_error,
)
from kindling.store.sqlite.connection import Database


class ObservationsMixin:
    """``insert_observation(s)``, ``get_observations`` and ``list_observations``."""

    db: Database

    def insert_observation(self, obs: Observation, capsule_id: str | None) -> None:
        self.insert_observations([(obs, capsule_id)])

    def insert_observations(self, items: Sequence[tuple[Observation, str | None]]) -> None:
        """Insert observations (each with the capsule it joins, or None) and index them, in
        one transaction and a fixed number of statements whatever the batch size."""
        if not items:
            return
        db = self.db
        try:
            with db.transaction():
                conn = db.conn
                first = conn.execute(
                    "SELECT COALESCE(MAX(rowid), 0) + 1 FROM observations"
                ).fetchone()[0]
                conn.executemany(
                    "INSERT INTO observations (id, kind, content, provenance, ts, scope_ids,"
                    " redacted, session_id, repo_id, agent_id, user_id)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [observation_values(obs) for obs, _ in items],
                )
                links = [(cid, obs.id, cid) for obs, cid in items if cid is not None]
                if links:
                    conn.executemany(
                        "INSERT INTO capsule_observations (capsule_id, observation_id, seq)"
                        " SELECT ?, ?, COALESCE(MAX(seq) + 1, 0) FROM capsule_observations"
                        " WHERE capsule_id = ?",
                        links,
                    )
                db.appended(int(first))
        except sqlite3.DatabaseError as exc:
            raise store_error(exc, db.path) from exc

    def get_observations(self, ids: Sequence[str]) -> dict[str, Observation]:
        found: dict[str, Observation] = {}
        for chunk in iter_chunks(list(ids)):
            marks = ",".join("?" * len(chunk))
            for row in self.db.read(
                f"SELECT {OBS_COLUMNS} FROM observations o WHERE o.id IN ({marks})", chunk
            ):
                found[row[0]] = observation_row(row)
        return found

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

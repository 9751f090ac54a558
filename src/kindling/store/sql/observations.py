"""The observation verbs, written once: appends and capsule links, and the reads (by id, newest
first in a scope, around a point in time).

A write ends by telling the backend's index what changed (``index_appended``,
``index_linked``): SQLite indexes a transaction's appends at its end, PostgreSQL rebuilds the
documents at once (``store.sqlite.observations``, ``store.postgres.observations``).

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kindling.model import Observation, ObservationKind, Scope
from kindling.store.rows import (
    OBS_COLUMNS,
    observation_row,
    observation_values,
    scope_where,
)
from kindling.store.sql.dialect import SqlDatabase, UsesDatabase, read_by_ids

_OBS_COLUMNS = (
    "id",
    "kind",
    "content",
    "provenance",
    "ts",
    "scope_ids",
    "redacted",
    "session_id",
    "repo_id",
    "agent_id",
    "user_id",
)


def append_links(db: SqlDatabase, links: Sequence[tuple[str, str]]) -> int:
    """Link (capsule, observation) pairs in order, each capsule's seq continuing from its
    largest, in one statement (a chunk on SQLite); an existing link is left as it is. The
    caller holds the capsules' locks. Returns the links added."""
    if not links:
        return 0
    added = 0
    step = db.dialect.rows_per_statement(4) or len(links)
    for start in range(0, len(links), step):
        rows: list[tuple[str, str, int, int]] = []
        taken: dict[str, int] = {}  # links to each capsule earlier in this statement
        for n, (capsule_id, obs_id) in enumerate(links[start : start + step]):
            rows.append((capsule_id, obs_id, taken.get(capsule_id, 0), n))
            taken[capsule_id] = taken.get(capsule_id, 0) + 1
        source, params = db.dialect.rows_source(rows, ("TEXT", "TEXT", "INTEGER", "INTEGER"), "u")
        # A statement reads the table as it was before its own inserts, so its earlier links
        # to a capsule come in as an offset. ORDER BY: rows in batch order, every seq read
        # before the first insert (PostgreSQL would otherwise step over the new index entries
        # on every read). ``WHERE TRUE``: SQLite's parser needs a WHERE before ON CONFLICT.
        added += db.write(
            "INSERT INTO capsule_observations (capsule_id, observation_id, seq)"
            " SELECT u.column1, u.column2, u.column3 + COALESCE((SELECT MAX(x.seq) + 1"
            " FROM capsule_observations x WHERE x.capsule_id = u.column1), 0)"
            f" FROM {source} WHERE TRUE ORDER BY u.column4 ON CONFLICT DO NOTHING",
            params,
        )
    return added


# The pivot of a timeline that is not an observation (a summary): after every row of its time.
LAST_ROWID = 2**62


def _steps_sql(where: str) -> tuple[str, str]:
    """The two statements of ``Store.session_steps`` over the scope condition ``where``
    (parameters: its values, then ts, ts, rowid, limit): the rows before the pivot, newest
    first, and the rows after it, oldest first. Time order is ``(ts, rowid)``: the order the
    rows were written in when times tie."""
    before = (
        f"SELECT {OBS_COLUMNS} FROM observations o WHERE {where} AND (o.ts < ?"
        f" OR (o.ts = ? AND o.rowid < ?)) ORDER BY o.ts DESC, o.rowid DESC LIMIT ?"
    )
    after = (
        f"SELECT {OBS_COLUMNS} FROM observations o WHERE {where} AND (o.ts > ?"
        f" OR (o.ts = ? AND o.rowid > ?)) ORDER BY o.ts, o.rowid LIMIT ?"
    )
    return before, after


class ObservationsMixin(UsesDatabase):
    """``insert_observation(s)``, ``link_observation``, ``get_observations``,
    ``list_observations`` and ``session_steps``."""

    if TYPE_CHECKING:

        def index_appended(self, obs_ids: Sequence[str]) -> None: ...
        def index_linked(self, capsule_id: str, obs_id: str) -> None: ...

    def insert_observation(self, obs: Observation, capsule_id: str | None) -> None:
        self.insert_observations([(obs, capsule_id)])

    def insert_observations(self, items: Sequence[tuple[Observation, str | None]]) -> None:
        """Insert observations (each with the capsule it joins, or None) and index them, in
        one transaction. A duplicate id (in the store or the batch) is a ``ConflictError`` and
        writes nothing."""
        if not items:
            return
        db = self.db
        with db.transaction():
            links = [(cid, obs.id) for obs, cid in items if cid is not None]
            # The capsules' row locks keep each capsule's seq unique under concurrent appends.
            db.lock_rows("capsules", [cid for cid, _ in links])
            db.insert_rows("observations", _OBS_COLUMNS, [observation_values(o) for o, _ in items])
            append_links(db, links)
            self.index_appended([obs.id for obs, _ in items])

    def link_observation(self, capsule_id: str, obs_id: str) -> bool:
        """Append an existing observation to a capsule; False if it was already there. An
        observation first linked now takes this capsule's intent into its document."""
        db = self.db
        with db.transaction():
            db.lock_rows("capsules", [capsule_id])
            if append_links(db, [(capsule_id, obs_id)]) <= 0:
                return False
            self.index_linked(capsule_id, obs_id)
        return True

    def get_observations(self, ids: Sequence[str]) -> dict[str, Observation]:
        rows = read_by_ids(self.db, f"SELECT {OBS_COLUMNS} FROM observations o", "o.id", ids)
        return {row[0]: observation_row(row) for row in rows}

    def observation_ids(self, ids: Sequence[str]) -> set[str]:
        return {
            row[0] for row in read_by_ids(self.db, "SELECT o.id FROM observations o", "o.id", ids)
        }

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
        earlier_sql, later_sql = _steps_sql(where)
        earlier = self.db.read(earlier_sql, [*params, ts, ts, pivot, before]) if before else []
        later = self.db.read(later_sql, [*params, ts, ts, pivot, after]) if after else []
        return [observation_row(r) for r in reversed(earlier)], [observation_row(r) for r in later]

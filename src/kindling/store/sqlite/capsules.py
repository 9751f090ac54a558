"""The capsule verbs of ``SqliteStore``: capsules, and which observations belong to which.

``read_capsules`` is the one query that builds ``Capsule`` values (with their observation
lists); the bundle export uses it too.

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from kindling.model import Capsule, CapsuleStatus, Scope
from kindling.store.base import CapsuleRef, iter_chunks
from kindling.store.rows import (
    CAPSULE_COLUMNS,
    CAPSULE_REF_COLUMNS,
    row_scope,
    scope_json,
    scope_values,
    scope_where,
    store_error,
)
from kindling.store.sqlite import index
from kindling.store.sqlite.connection import Database


def read_capsules(db: Database, where: str, params: Sequence[Any], tail: str = "") -> list[Capsule]:
    """The capsules ``WHERE <where> <tail>`` (alias ``c``), each with its observation ids in
    capsule order and its summary id."""
    rows = db.read(
        f"SELECT {CAPSULE_COLUMNS}, (SELECT s.id FROM summaries s"
        f" WHERE s.capsule_id = c.id) FROM capsules c WHERE {where} {tail}",
        params,
    )
    capsules = []
    for row in rows:
        obs_ids = tuple(
            r[0]
            for r in db.read(
                "SELECT observation_id FROM capsule_observations WHERE capsule_id = ? ORDER BY seq",
                (row[0],),
            )
        )
        capsules.append(
            Capsule(
                id=row[0],
                type=row[1],
                intent=row[2],
                status=row[3],
                opened_at=row[4],
                closed_at=row[5],
                scope=row_scope(row, 6),
                observation_ids=obs_ids,
                summary_id=row[10],
            )
        )
    return capsules


class CapsulesMixin:
    """Capsule verbs of the ``Store`` protocol, and capsule membership of observations."""

    db: Database

    def insert_capsule(self, capsule: Capsule) -> None:
        self.db.write(
            "INSERT INTO capsules (id, type, intent, status, opened_at, closed_at, scope_ids,"
            " session_id, repo_id, agent_id, user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                capsule.id,
                capsule.type,
                capsule.intent,
                capsule.status,
                capsule.opened_at,
                capsule.closed_at,
                scope_json(capsule.scope),
                *scope_values(capsule.scope),
            ),
        )

    def get_capsule(self, capsule_id: str) -> Capsule | None:
        found = read_capsules(self.db, "c.id = ?", (capsule_id,))
        return found[0] if found else None

    def capsule_ref(self, capsule_id: str) -> CapsuleRef | None:
        rows = self.db.read(
            f"SELECT {CAPSULE_REF_COLUMNS} FROM capsules c WHERE c.id = ?",
            (capsule_id,),
        )
        return CapsuleRef(rows[0][0], rows[0][1], row_scope(rows[0], 2)) if rows else None

    def find_open_capsule(self, scope: Scope, *, session_id: str | None) -> CapsuleRef | None:
        """The newest open capsule in scope (of ``session_id``'s session capsules, if given);
        a reference only: appends call this, and must not read the capsule's whole list."""
        where, params = scope_where(scope, "c")
        if session_id is not None:
            where += " AND c.session_id = ? AND c.type = 'session'"
            params.append(session_id)
        rows = self.db.read(
            f"SELECT {CAPSULE_REF_COLUMNS} FROM capsules c WHERE c.status = 'open' AND {where}"
            " ORDER BY c.opened_at DESC, c.id LIMIT 1",
            params,
        )
        return CapsuleRef(rows[0][0], rows[0][1], row_scope(rows[0], 2)) if rows else None

    def set_capsule_closed(self, capsule_id: str, closed_at: int) -> None:
        self.db.write(
            "UPDATE capsules SET status = 'closed', closed_at = ? WHERE id = ?",
            (closed_at, capsule_id),
        )

    def list_capsules(
        self, *, status: CapsuleStatus | None, scope: Scope, limit: int
    ) -> list[Capsule]:
        where, params = scope_where(scope, "c")
        if status is not None:
            where += " AND c.status = ?"
            params.append(status)
        return read_capsules(
            self.db, where, [*params, limit], "ORDER BY c.opened_at DESC, c.id LIMIT ?"
        )

    def capsule_intents_of(self, obs_ids: Sequence[str]) -> dict[str, str]:
        """observation id -> intent of the capsule it belongs to (the first, by id)."""
        found: dict[str, str] = {}
        for chunk in iter_chunks(list(obs_ids)):
            marks = ",".join("?" * len(chunk))
            for obs_id, intent in self.db.read(
                "SELECT co.observation_id, c.intent FROM capsule_observations co"
                " JOIN capsules c ON c.id = co.capsule_id"
                f" WHERE co.observation_id IN ({marks}) ORDER BY c.id DESC",
                chunk,
            ):
                found[obs_id] = intent
        return found

    def capsules_of(self, obs_id: str) -> list[str]:
        """Ids of the capsules an observation belongs to, oldest capsule first."""
        rows = self.db.read(
            "SELECT co.capsule_id FROM capsule_observations co"
            " JOIN capsules c ON c.id = co.capsule_id"
            " WHERE co.observation_id = ? ORDER BY c.opened_at, c.id",
            (obs_id,),
        )
        return [r[0] for r in rows]

    def link_observation(self, capsule_id: str, obs_id: str) -> bool:
        """Append an existing observation to a capsule; False if it was already there. An
        observation indexed without a capsule takes this one's intent as context."""
        db = self.db
        try:
            with db.transaction():
                cur = db.conn.execute(
                    "INSERT OR IGNORE INTO capsule_observations (capsule_id, observation_id, seq)"
                    " SELECT ?, ?, COALESCE(MAX(seq) + 1, 0) FROM capsule_observations"
                    " WHERE capsule_id = ?",
                    (capsule_id, obs_id, capsule_id),
                )
                if cur.rowcount <= 0:
                    return False
                # An observation appended in this transaction is not indexed yet: it has no
                # context row, and indexing it at commit will find this link.
                row = db.conn.execute(
                    "SELECT x.rowid FROM observation_context x JOIN observations o"
                    " ON o.rowid = x.rowid WHERE o.id = ? AND x.intent = ''",
                    (obs_id,),
                ).fetchone()
                if row is not None:
                    with index.reindexing(db.conn, [row[0]]):
                        db.conn.execute(
                            "UPDATE observation_context SET intent ="
                            " (SELECT intent FROM capsules WHERE id = ?) WHERE rowid = ?",
                            (capsule_id, row[0]),
                        )
        except sqlite3.DatabaseError as exc:
            raise store_error(exc, db.path) from exc
        return True

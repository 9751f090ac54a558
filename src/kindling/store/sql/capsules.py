"""The capsule verbs, written once: capsules, and which observations belong to which.

``read_capsules`` is the one query that builds ``Capsule`` values (with their observation
lists); the export uses it too.

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kindling.model import Capsule, CapsuleStatus, Scope
from kindling.store.base import CapsuleRef
from kindling.store.rows import (
    CAPSULE_COLUMNS,
    CAPSULE_REF_COLUMNS,
    capsule_row,
    row_scope,
    scope_json,
    scope_values,
    scope_where,
)
from kindling.store.sql.dialect import SqlDatabase, UsesDatabase


def read_capsules(
    db: SqlDatabase, where: str, params: Sequence[Any], tail: str = ""
) -> list[Capsule]:
    """The capsules ``WHERE <where> <tail>`` (alias ``c``), each with its observation ids in
    capsule order and its summary id: two queries whatever the number of capsules."""
    rows = db.read(
        f"SELECT {CAPSULE_COLUMNS}, (SELECT s.id FROM summaries s"
        f" WHERE s.capsule_id = c.id) FROM capsules c WHERE {where} {tail}",
        params,
    )
    members: dict[str, list[str]] = {row[0]: [] for row in rows}
    for condition, ids in db.dialect.in_ids("capsule_id", list(members)):
        for capsule_id, obs_id in db.read(
            "SELECT capsule_id, observation_id FROM capsule_observations"
            f" WHERE {condition} ORDER BY capsule_id, seq",
            ids,
        ):
            members[capsule_id].append(obs_id)
    return [capsule_row(row, members[row[0]]) for row in rows]


def _ref(rows: list[Any]) -> CapsuleRef | None:
    return CapsuleRef(rows[0][0], rows[0][1], row_scope(rows[0], 2)) if rows else None


class CapsulesMixin(UsesDatabase):
    """Capsule verbs of the ``Store`` protocol, and capsule membership of observations."""

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
        return _ref(
            self.db.read(
                f"SELECT {CAPSULE_REF_COLUMNS} FROM capsules c WHERE c.id = ?", (capsule_id,)
            )
        )

    def find_open_capsule(self, scope: Scope, *, session_id: str | None) -> CapsuleRef | None:
        """The newest open capsule in scope (of ``session_id``'s session capsules, if given);
        a reference only: appends call this, and must not read the capsule's whole list."""
        where, params = scope_where(scope, "c")
        if session_id is not None:
            where += " AND c.session_id = ? AND c.type = 'session'"
            params.append(session_id)
        return _ref(
            self.db.read(
                f"SELECT {CAPSULE_REF_COLUMNS} FROM capsules c WHERE c.status = 'open'"
                f" AND {where} ORDER BY c.opened_at DESC, c.id LIMIT 1",
                params,
            )
        )

    def find_open_session_capsule(self, session_id: str, user_id: str | None) -> CapsuleRef | None:
        """The open session capsule of ``user_id``'s session ``session_id`` (a session is one
        user's: another user's open capsule under the same session id is not this one)."""
        return _ref(
            self.db.read(
                f"SELECT {CAPSULE_REF_COLUMNS} FROM capsules c WHERE c.status = 'open'"
                " AND c.type = 'session' AND c.session_id = ?"
                " AND COALESCE(c.user_id, '') = ? ORDER BY c.opened_at DESC, c.id LIMIT 1",
                (session_id, user_id or ""),
            )
        )

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
        for condition, ids in self.db.dialect.in_ids("co.observation_id", obs_ids):
            for obs_id, intent in self.db.read(
                "SELECT co.observation_id, c.intent FROM capsule_observations co"
                f" JOIN capsules c ON c.id = co.capsule_id WHERE {condition} ORDER BY c.id DESC",
                ids,
            ):
                found[obs_id] = intent  # the smallest capsule id comes last
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

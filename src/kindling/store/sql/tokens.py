"""API tokens and team grants (``store.tokens.TokenStore``), written once.

Must not import anything from Kindling except ``store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kindling.store.sql.dialect import MAX_PARAMS, UsesDatabase

if TYPE_CHECKING:  # the server's; opening a store for a hook never loads it
    from kindling.store.tokens import ApiToken

_COLUMNS = "id, user_id, team, created_at, revoked_at"
_ENTITY_TABLES = ("observations", "capsules", "summaries", "pins")  # ids: the server's view


class TokensMixin(UsesDatabase):
    """Token and grant verbs of ``TokenStore``."""

    def insert_token(self, token: ApiToken, token_hash: str) -> None:
        self.db.write(
            "INSERT INTO api_tokens (id, token_hash, user_id, team, created_at, revoked_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (token.id, token_hash, token.user_id, token.team, token.created_at, token.revoked_at),
        )

    def token_by_hash(self, token_hash: str) -> ApiToken | None:
        from kindling.store.tokens import ApiToken

        rows = self.db.read(
            f"SELECT {_COLUMNS} FROM api_tokens WHERE token_hash = ?", (token_hash,)
        )
        return ApiToken(*rows[0]) if rows else None

    def list_tokens(self) -> list[ApiToken]:
        from kindling.store.tokens import ApiToken

        rows = self.db.read(f"SELECT {_COLUMNS} FROM api_tokens ORDER BY created_at, id")
        return [ApiToken(*r) for r in rows]

    def revoke_token(self, token_id: str, revoked_at: int) -> bool:
        return (
            self.db.write(
                "UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                (revoked_at, token_id),
            )
            > 0
        )

    def grant_repo(self, team: str, repo_id: str, granted_at: int) -> bool:
        return (
            self.db.write(
                "INSERT INTO team_repos (team, repo_id, granted_at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (team, repo_id, granted_at),
            )
            > 0
        )

    def team_repos(self, team: str) -> list[str]:
        rows = self.db.read(
            "SELECT repo_id FROM team_repos WHERE team = ? ORDER BY repo_id", (team,)
        )
        return [r[0] for r in rows]

    def repo_is_granted(self, repo_id: str) -> bool:
        return bool(self.db.read("SELECT 1 FROM team_repos WHERE repo_id = ? LIMIT 1", (repo_id,)))

    def id_aliases(self, owner: str) -> dict[str, str]:
        rows = self.db.read("SELECT wire_id, stored_id FROM id_aliases WHERE owner = ?", (owner,))
        return dict(rows)

    def taken_ids(self, ids: Sequence[str]) -> set[str]:
        # one statement per chunk: the four tables' lists together stay under MAX_PARAMS
        taken: set[str] = set()
        step = MAX_PARAMS // len(_ENTITY_TABLES)
        for start in range(0, len(ids), step):
            ((condition, params),) = self.db.dialect.in_ids("id", ids[start : start + step])
            sql = " UNION ".join(f"SELECT id FROM {t} WHERE {condition}" for t in _ENTITY_TABLES)
            taken.update(r[0] for r in self.db.read(sql, params * len(_ENTITY_TABLES)))
        return taken

    def add_id_alias(self, owner: str, wire_id: str, stored_id: str, created_at: int) -> str:
        with self.db.transaction():
            self.db.write(
                "INSERT INTO id_aliases (owner, wire_id, stored_id, created_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (owner, wire_id, stored_id, created_at),
            )
            rows = self.db.read(
                "SELECT stored_id FROM id_aliases WHERE owner = ? AND wire_id = ?",
                (owner, wire_id),
            )
        return str(rows[0][0]) if rows else ""

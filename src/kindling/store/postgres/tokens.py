"""PostgreSQL storage of API tokens and team grants (``store.tokens.TokenStore``), mixed into
``PostgresStore``.

Must not import anything from Kindling except ``store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kindling.store.tokens import ApiToken

_COLUMNS = "id, user_id, team, created_at, revoked_at"


class PgTokensMixin:
    if TYPE_CHECKING:

        def write(self, sql: str, params: Sequence[Any] = ()) -> int: ...
        def read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...

    def insert_token(self, token: ApiToken, token_hash: str) -> None:
        self.write(
            "INSERT INTO api_tokens (id, token_hash, user_id, team, created_at, revoked_at)"
            " VALUES (%s, %s, %s, %s, %s, %s)",
            (token.id, token_hash, token.user_id, token.team, token.created_at, token.revoked_at),
        )

    def token_by_hash(self, token_hash: str) -> ApiToken | None:
        rows = self.read(f"SELECT {_COLUMNS} FROM api_tokens WHERE token_hash = %s", (token_hash,))
        return ApiToken(*rows[0]) if rows else None

    def list_tokens(self) -> list[ApiToken]:
        return [
            ApiToken(*r)
            for r in self.read(f"SELECT {_COLUMNS} FROM api_tokens ORDER BY created_at, id")
        ]

    def revoke_token(self, token_id: str, revoked_at: int) -> bool:
        return (
            self.write(
                "UPDATE api_tokens SET revoked_at = %s WHERE id = %s AND revoked_at IS NULL",
                (revoked_at, token_id),
            )
            > 0
        )

    def grant_repo(self, team: str, repo_id: str, granted_at: int) -> bool:
        return (
            self.write(
                "INSERT INTO team_repos (team, repo_id, granted_at) VALUES (%s, %s, %s)"
                " ON CONFLICT DO NOTHING",
                (team, repo_id, granted_at),
            )
            > 0
        )

    def team_repos(self, team: str) -> list[str]:
        return [
            r[0]
            for r in self.read(
                "SELECT repo_id FROM team_repos WHERE team = %s ORDER BY repo_id", (team,)
            )
        ]

    def repo_is_granted(self, repo_id: str) -> bool:
        return bool(self.read("SELECT 1 FROM team_repos WHERE repo_id = %s LIMIT 1", (repo_id,)))

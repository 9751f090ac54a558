"""API tokens of ``kindling serve``: what a backend stores, and the pure rules around it.

A token is shown once, at creation; the store keeps only its SHA-256 (tokens are 256 random
bits, so a fast hash is enough: there is nothing to brute-force). A token names its user and,
optionally, a team; a team sees the repositories granted to it (``team_repos``). An owner
(a team, or a personal token's user) may have ids stored under other ids (``id_aliases``,
``http.idspace``).

Must not import anything from Kindling except ``errors`` and ``model``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from kindling.model.reports import ApiToken as ApiToken  # a value of the wire

TOKEN_PREFIX = "kdt_"


def new_token() -> tuple[str, str, str]:
    """(id, secret token, its hash)."""
    import secrets  # on first use: only the server makes tokens

    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    return secrets.token_hex(6), token, hash_token(token)


def hash_token(token: str) -> str:
    import hashlib  # on first use: opening a store must not pay for it

    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@runtime_checkable
class TokenStore(Protocol):
    """The token verbs a backend offers to ``kindling serve`` and ``kindling token``."""

    def insert_token(self, token: ApiToken, token_hash: str) -> None: ...
    def token_by_hash(self, token_hash: str) -> ApiToken | None: ...
    def list_tokens(self) -> list[ApiToken]: ...
    def revoke_token(self, token_id: str, revoked_at: int) -> bool: ...
    def grant_repo(self, team: str, repo_id: str, granted_at: int) -> bool: ...
    def team_repos(self, team: str) -> list[str]: ...
    def repo_is_granted(self, repo_id: str) -> bool:
        """Is the repository granted to any team (then personal tokens may not write it)?"""
        ...

    def id_aliases(self, owner: str) -> dict[str, str]:
        """The ids ``owner`` chose that are stored under another id: wire id -> stored id."""
        ...

    def taken_ids(self, ids: Sequence[str]) -> set[str]:
        """Which of ``ids`` an entity of any kind is stored under."""
        ...

    def add_id_alias(self, owner: str, wire_id: str, stored_id: str, created_at: int) -> str:
        """Record that ``owner``'s ``wire_id`` is stored as ``stored_id`` (unless it already
        has an alias, which is kept); the stored id it now has ("" if ``stored_id`` is
        another owner's)."""
        ...

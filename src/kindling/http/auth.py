"""Who is calling: a request carries ``Authorization: Bearer <token>``; the store keeps only
the token's SHA-256, and the team directory (``ServedMemory.team``, a ``TeamDirectory``) says
whose it is. What a principal may touch is the rule of ``model.access``, applied by its view
(``ServedMemory.view_for``); the rule's functions are re-exported here for the handlers.

Must not import the CLI or other adapters.
"""

from __future__ import annotations

from kindling.errors import UnauthorizedError
from kindling.memory import TeamDirectory
from kindling.model.access import (
    Principal,
    identity,
    may_touch,
    owns,
    read_scope,
    write_scope,
)
from kindling.store.tokens import hash_token

__all__ = [
    "Principal",
    "authenticate",
    "authenticate_hash",
    "identity",
    "may_touch",
    "owns",
    "read_scope",
    "token_hash",
    "write_scope",
]


def authenticate(team: TeamDirectory, header: str | None) -> Principal:
    if not header:
        raise UnauthorizedError("missing bearer token: send 'Authorization: Bearer <token>'")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise UnauthorizedError("the Authorization header must be 'Bearer <token>'")
    return authenticate_hash(team, token_hash(token))


def token_hash(token: str) -> str:
    """The SHA-256 under which the store keeps a bearer token (what ``authenticate_hash``
    takes)."""
    return hash_token(token.strip())


def authenticate_hash(team: TeamDirectory, token_hash: str) -> Principal:
    """The caller whose token has this SHA-256, checked as a bearer token is: the team page's
    sessions keep the hash, never the token, and check it again on every request (a revoked
    token's sessions end at once)."""
    return team.principal(token_hash)

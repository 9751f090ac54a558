"""Who is calling, and what they may touch (pure rules; the store only looks tokens up).

A request carries ``Authorization: Bearer <token>``; the store keeps only the token's SHA-256.
The token names a user and, optionally, a team:

- Every write is stamped with the token's user (``scope.userId`` in a body is replaced).
- A team token works only in the repositories granted to its team: every write and every
  read must name one of them (403 otherwise). A read naming a session sees only the token
  user's own entities in that session, never a teammate's session.
- A token without a team is personal: all its reads and writes are confined to its user.
- An entity named by id (a capsule to close, an observation to forget, a pin to delete) must
  be the token user's own, or lie in a granted repository of a team token; otherwise it is
  reported as not found, so ids of other teams' entities are never confirmed.

Must not import the CLI or other adapters.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kindling.model import Scope
from kindling.store.tokens import TokenStore, hash_token


class HttpError(Exception):
    """An error of the HTTP layer itself (authentication, size limits, unknown routes)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def unauthorized(message: str) -> HttpError:
    return HttpError(401, "unauthorized", message)


def forbidden(message: str) -> HttpError:
    return HttpError(403, "forbidden", message)


@dataclass(frozen=True, slots=True)
class Principal:
    user_id: str
    team: str | None
    repos: frozenset[str]
    token_id: str


def authenticate(tokens: TokenStore, header: str | None) -> Principal:
    if not header:
        raise unauthorized("missing bearer token: send 'Authorization: Bearer <token>'")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise unauthorized("the Authorization header must be 'Bearer <token>'")
    found = tokens.token_by_hash(hash_token(token.strip()))
    if found is None or found.revoked_at is not None:
        raise unauthorized("unknown or revoked token; ask for one with 'kindling token create'")
    repos = frozenset(tokens.team_repos(found.team)) if found.team else frozenset()
    return Principal(found.user_id, found.team, repos, found.id)


def _granted(who: Principal, scope: Scope) -> None:
    if who.team is None:
        return
    if scope.repo_id is None:
        raise forbidden(f"team {who.team!r} tokens must name a repository (scope.repoId)")
    if scope.repo_id not in who.repos:
        raise forbidden(f"team {who.team!r} has no access to repository {scope.repo_id!r}")


def write_scope(who: Principal, scope: Scope) -> Scope:
    """The scope a write gets: the token's user, in a repository the token may write."""
    stamped = replace(scope, user_id=who.user_id)
    _granted(who, stamped)
    return stamped


def read_scope(who: Principal, scope: Scope) -> Scope:
    """The scope a read is confined to (see the module docstring)."""
    if who.team is None or scope.session_id is not None:
        scope = replace(scope, user_id=who.user_id)
    _granted(who, scope)
    return scope


def may_touch(who: Principal, scope: Scope) -> bool:
    """May the token act on an existing entity of this scope?"""
    if scope.user_id == who.user_id:
        return True
    return who.team is not None and scope.repo_id is not None and scope.repo_id in who.repos


def owns(who: Principal, scope: Scope) -> bool:
    return scope.user_id == who.user_id

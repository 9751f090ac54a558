"""Who is calling, and what they may touch (pure rules; the store only looks tokens up).

A request carries ``Authorization: Bearer <token>``; the store keeps only the token's SHA-256.
The token names a user and, optionally, a team. Who the caller is, is the pair (team, user),
never the user's name alone: ``Principal.user_id`` is ``team/user`` for a team token and the
bare name for a personal one (a token's user name may not contain ``/``, so the two never
meet), and that is what every write is stamped with and every ownership test compares.

- Every write is stamped with the token's identity (``scope.userId`` in a body is replaced).
- A team token works only in the repositories granted to its team: every write and every
  read must name one of them (403 otherwise). A read naming a session sees only the token
  user's own entities in that session, never a teammate's session.
- A token without a team is personal: all its reads are confined to its user, and it writes
  only outside team memory: a scope with no repository, or a repository no team is granted
  (403 otherwise), so it can never plant text that a team's reads return.
- An entity named by id (a capsule to close, an observation to forget, a pin to delete) must
  be the token user's own, or lie in a granted repository of a team token; otherwise it is
  reported as not found, so ids of other teams' entities are never confirmed.

Must not import the CLI or other adapters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

from kindling.errors import ForbiddenError, UnauthorizedError
from kindling.model import Scope
from kindling.model.reports import ApiToken
from kindling.store.tokens import hash_token


class TokenLookup(Protocol):
    """What authentication asks of the engine (``Kindling``'s token verbs)."""

    def token_by_hash(self, token_hash: str) -> ApiToken | None: ...
    def team_repos(self, team: str) -> list[str]: ...


@dataclass(frozen=True, slots=True)
class Principal:
    """The caller: ``user_id`` is its identity as stamped on entities (``identity``), ``name``
    the token's user name as given to ``kindling token create``."""

    user_id: str
    team: str | None
    repos: frozenset[str]
    token_id: str
    name: str = ""


def identity(user: str, team: str | None) -> str:
    """The identity stamped on a token's entities: (team, user) as one string, ``team/user``
    for a team token, ``user`` for a personal one (user names never contain ``/``)."""
    return user if team is None else f"{team}/{user}"


def authenticate(tokens: TokenLookup, header: str | None) -> Principal:
    if not header:
        raise UnauthorizedError("missing bearer token: send 'Authorization: Bearer <token>'")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise UnauthorizedError("the Authorization header must be 'Bearer <token>'")
    return authenticate_hash(tokens, token_hash(token))


def token_hash(token: str) -> str:
    """The SHA-256 under which the store keeps a bearer token (what ``authenticate_hash``
    takes)."""
    return hash_token(token.strip())


def authenticate_hash(tokens: TokenLookup, token_hash: str) -> Principal:
    """The caller whose token has this SHA-256 (what the store keeps), checked as a bearer
    token is: the team page's sessions keep the hash, never the token, and check it again on
    every request (a revoked token's sessions end at once)."""
    found = tokens.token_by_hash(token_hash)
    if found is None or found.revoked_at is not None:
        raise UnauthorizedError(
            "unknown or revoked token; ask for one with 'kindling token create'"
        )
    if "/" in found.user_id:
        raise UnauthorizedError(
            "this token's user name contains '/', which identities reserve; "
            "create a new token ('kindling token create --user NAME')"
        )
    repos = frozenset(tokens.team_repos(found.team)) if found.team else frozenset()
    return Principal(
        identity(found.user_id, found.team), found.team, repos, found.id, found.user_id
    )


def _granted(who: Principal, scope: Scope) -> None:
    if who.team is None:
        return
    if scope.repo_id is None:
        raise ForbiddenError(f"team {who.team!r} tokens must name a repository (scope.repoId)")
    if scope.repo_id not in who.repos:
        raise ForbiddenError(f"team {who.team!r} has no access to repository {scope.repo_id!r}")


def write_scope(who: Principal, scope: Scope, team_repo: Callable[[str], bool]) -> Scope:
    """The scope a write gets: the token's identity, in a repository the token may write.
    ``team_repo`` says whether a repository is granted to any team (``TokenStore``)."""
    stamped = replace(scope, user_id=who.user_id)
    _granted(who, stamped)
    if who.team is None and stamped.repo_id is not None and team_repo(stamped.repo_id):
        raise ForbiddenError(
            f"repository {stamped.repo_id!r} is team memory: a personal token writes only "
            "where no team is granted; ask for a team token"
        )
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

"""The team directory of ``kindling serve``: API tokens, teams and their grants, and who a
token's caller is (a ``Principal``), with the rule of what a principal may touch.

``Kindling.team`` is this directory over the engine's store; ``kindling token`` manages it and
the server authenticates with it. A principal's reads and writes go through
``Kindling.view_for(principal)`` (``engine.view``), which applies the rule below.

Who the caller is, is the pair (team, user), never the user's name alone: ``Principal.user_id``
is ``team/user`` for a team token and the bare name for a personal one (a token's user name may
not contain ``/``, so the two never meet), and that is what every write is stamped with and
every ownership test compares.

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

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from kindling.errors import (
    ForbiddenError,
    InvalidInputError,
    NotFoundError,
    StoreError,
    UnauthorizedError,
)
from kindling.model import Scope
from kindling.model.reports import ApiToken
from kindling.model.sanitize import require_text
from kindling.store.base import Store
from kindling.store.tokens import TokenStore, new_token


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


class TeamDirectory:
    """Tokens, teams and principals of one store: create, list and revoke tokens; grant
    repositories to teams; find the principal of a token; the owners' id aliases
    (``http.idspace``)."""

    def __init__(self, store: Store, clock: Callable[[], int]) -> None:
        self._store, self._clock = store, clock

    def _tokens(self) -> TokenStore:
        store = self._store
        if not isinstance(store, TokenStore):  # a declared capability (``store.tokens``)
            raise StoreError("this store keeps no API tokens")
        return store

    def create_token(self, *, user: str, team: str | None = None) -> tuple[ApiToken, str]:
        """A new token for ``user`` (of ``team``): its record, and the token itself, which is
        shown this once (the store keeps only its hash)."""
        name = require_text(user, "user")
        if "/" in name:  # identities are team/user (``identity``)
            raise InvalidInputError("a token's user may not contain '/'")
        group = None if team is None else require_text(team, "team")
        token_id, token, digest = new_token()
        record = ApiToken(token_id, name, group, self._clock(), None)
        self._tokens().insert_token(record, digest)
        return record, token

    def list_tokens(self) -> list[ApiToken]:
        """Every token's record (never the tokens themselves)."""
        return self._tokens().list_tokens()

    def revoke_token(self, token_id: str) -> None:
        """Revoke an active token: the server refuses it from the next request on."""
        if not self._tokens().revoke_token(token_id, self._clock()):
            raise NotFoundError(f"no active token with id {token_id!r}; see 'kindling token list'")

    def grant_repo(self, *, team: str, repo: str) -> None:
        """Let ``team``'s tokens read and write repository ``repo``."""
        self._tokens().grant_repo(
            require_text(team, "team"), require_text(repo, "repo"), self._clock()
        )

    def token_by_hash(self, token_hash: str) -> ApiToken | None:
        return self._tokens().token_by_hash(token_hash)

    def team_repos(self, team: str) -> list[str]:
        return self._tokens().team_repos(team)

    def repo_is_granted(self, repo_id: str) -> bool:
        """Is the repository granted to any team (then personal tokens may not write it)?"""
        return self._tokens().repo_is_granted(repo_id)

    def principal(self, token_hash: str) -> Principal:
        """The caller whose token has this SHA-256 (what the store keeps): an unknown or
        revoked token is ``UnauthorizedError``."""
        found = self.token_by_hash(token_hash)
        if found is None or found.revoked_at is not None:
            raise UnauthorizedError(
                "unknown or revoked token; ask for one with 'kindling token create'"
            )
        if "/" in found.user_id:
            raise UnauthorizedError(
                "this token's user name contains '/', which identities reserve; "
                "create a new token ('kindling token create --user NAME')"
            )
        repos = frozenset(self.team_repos(found.team)) if found.team else frozenset()
        return Principal(
            identity(found.user_id, found.team), found.team, repos, found.id, found.user_id
        )

    # the owners' id aliases (``http.idspace``)

    def id_aliases(self, owner: str) -> dict[str, str]:
        """The ids ``owner`` chose that the server stores under others (``http.idspace``)."""
        return self._tokens().id_aliases(owner)

    def taken_ids(self, ids: Sequence[str]) -> set[str]:
        """Which of ``ids`` an entity of any kind is stored under (``http.idspace``)."""
        return self._tokens().taken_ids(ids)

    def add_id_alias(self, owner: str, wire_id: str, stored_id: str) -> str:
        """Record ``owner``'s alias (the one it has already wins); its stored id now."""
        return self._tokens().add_id_alias(owner, wire_id, stored_id, self._clock())

"""Who a caller of ``kindling serve`` is (a ``Principal``) and the rule of what it may touch:
pure values and functions, which the engine's views apply (``engine.view``) and the server's
handlers read (``http``), so neither has to import the other.

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

Must not import anything from Kindling except ``errors`` and ``model``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from kindling.errors import ForbiddenError, NotFoundError
from kindling.model.checks import MAX_EVIDENCE_REFS, distinct_ids
from kindling.model.entities import Scope

E = TypeVar("E")
# what a write with an id already taken gets (the store's own words, without its details)
TAKEN = "an entity with that id already exists"


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
    ``team_repo`` says whether a repository is granted to any team (the team directory's
    ``repo_is_granted``)."""
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


def found(getter: Callable[[str], E], entity_id: object) -> E | None:
    """The entity ``getter`` (a memory's getter) finds, or None (a non-string id too)."""
    if not isinstance(entity_id, str):
        return None
    try:
        return getter(entity_id)
    except NotFoundError:
        return None


def distinct_refs(refs: Any) -> Any:
    """Evidence refs as the library will take them, each distinct id once (at most
    ``MAX_EVIDENCE_REFS``, else its 400), so that nothing after this walks the repeats;
    anything but a list of strings as it is (the library refuses it in its own words)."""
    if not isinstance(refs, list | tuple) or not set(map(type, refs)) <= {str}:
        return refs
    return list(distinct_ids(refs, "evidence_refs", "evidence ref", MAX_EVIDENCE_REFS))

"""The team directory of ``kindling serve``: API tokens, teams and their grants, and the
``Principal`` (``model.access``) of a token.

``Kindling.team`` is this directory over the engine's store; ``kindling token`` manages it and
the server authenticates with it. A principal's reads and writes go through
``Kindling.view_for(principal)`` (``engine.view``), which applies the rule of ``model.access``.

Who a principal is and the rule itself are pure (``model.access``); this module adds what
needs the store.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from kindling.errors import InvalidInputError, NotFoundError, StoreError, UnauthorizedError
from kindling.model.access import Principal, identity
from kindling.model.reports import ApiToken
from kindling.model.sanitize import require_text
from kindling.store.base import Store
from kindling.store.tokens import TokenStore, new_token

if TYPE_CHECKING:
    from kindling import memory


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


_IS_DIRECTORY: type[memory.TeamDirectory] = TeamDirectory  # mypy: the protocol's every verb

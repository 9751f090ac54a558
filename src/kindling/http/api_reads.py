"""The read endpoints: retrieve, listings, lookups by id, disclosure, status, export and the
chat memories' search. Each parses its query or body, makes one call on the view of the
token's principal (``ServedMemory.view_for``: its read scope and access rule), and renders
``to_dict`` JSON.

Must not import the CLI or other adapters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from kindling import __version__
from kindling.errors import InvalidInputError, NotFoundError
from kindling.http.access import AccessRules, found
from kindling.http.auth import Principal
from kindling.http.idspace import IdView, owned_ids
from kindling.http.params import (
    GETTERS,
    MAX_QUERY_CHARS,
    cursor_of,
    fields,
    limit_of,
    query_scope,
    scope_of,
    whole_number,
)
from kindling.model import AnyEntity, Scope, wire

KEYWORD = {"capsule": "capsule_id"}  # a query parameter's name -> the verb's keyword


class ReadHandlers(AccessRules):
    """The read handlers of ``Api``."""

    @owned_ids
    def retrieve(self, who: Principal, ids: IdView, body: Mapping[str, Any]) -> dict[str, Any]:
        args = fields(
            body,
            {
                "query",
                "scope",
                "token_budget",
                "max_candidates",
                "include_redacted",
                "intent",
                "now",
            },
        )
        query = args.get("query")
        if isinstance(query, str) and len(query) > MAX_QUERY_CHARS:
            raise InvalidInputError(
                f"query is {len(query)} characters; at most {MAX_QUERY_CHARS} (a question, "
                "not a document)"
            )
        args["scope"] = scope_of(args.get("scope"))
        return self._view(who).retrieve(**args).to_dict()

    def _listing(
        self,
        who: Principal,
        params: Mapping[str, str],
        verb: str,
        **named: Callable[[Mapping[str, str]], Any],
    ) -> list[dict[str, Any]]:
        """The view's ``list_*`` ``verb`` over the query: its scope, ``limit``, and its own
        ``named`` parameters (each read from the query by its function; the library checks
        values)."""
        args = fields(params, {"session", "repo", "agent", "limit", *named})
        own = {KEYWORD.get(name, name): read(args) for name, read in named.items()}
        call: Callable[..., Sequence[Any]] = getattr(self._view(who), verb)
        found = call(scope=query_scope(who, args), limit=limit_of(args), **own)
        return [entity.to_dict() for entity in found]

    @owned_ids
    def list_summaries(
        self, who: Principal, ids: IdView, params: Mapping[str, str]
    ) -> list[dict[str, Any]]:
        return self._listing(who, params, "list_summaries")

    @owned_ids
    def list_observations(
        self, who: Principal, ids: IdView, params: Mapping[str, str]
    ) -> list[dict[str, Any]]:
        def before(args: Mapping[str, str]) -> tuple[int, str] | None:
            cursor = cursor_of(args.get("before"))
            return None if cursor is None else (cursor[0], ids.stored(cursor[1]))

        return self._listing(
            who,
            params,
            "list_observations",
            kind=lambda a: a.get("kind"),
            capsule=lambda a: ids.stored(a.get("capsule")),
            before=before,
        )

    def list_repos(self, who: Principal, params: Mapping[str, str]) -> list[dict[str, Any]]:
        """The repositories in scope (a team token naming none: its team's, ``MemoryView``)."""
        args = fields(params, {"session", "repo", "agent", "limit"})
        where = Scope(
            session_id=args.get("session"), repo_id=args.get("repo"), agent_id=args.get("agent")
        )
        found = self._view(who).list_repos(scope=where, limit=limit_of(args))
        return [r.to_dict() for r in found]

    @owned_ids
    def list_capsules(
        self, who: Principal, ids: IdView, params: Mapping[str, str]
    ) -> list[dict[str, Any]]:
        return self._listing(who, params, "list_capsules", status=lambda a: a.get("status"))

    @owned_ids
    def list_pins(
        self, who: Principal, ids: IdView, params: Mapping[str, str]
    ) -> list[dict[str, Any]]:
        def active_at(args: Mapping[str, str]) -> int | None:
            return whole_number(args, "active_at")

        return self._listing(who, params, "list_pins", active_at=active_at)

    @owned_ids
    def get_entity(self, who: Principal, ids: IdView, kind: str, entity_id: str) -> dict[str, Any]:
        """One entity by id; another team's id is as unknown as an id nobody has."""
        getter, name = GETTERS[kind]
        entity: AnyEntity | None = found(getattr(self._view(who), getter), ids.stored(entity_id))
        if entity is None:
            raise NotFoundError(f"no {name} with id {entity_id!r}")
        return entity.to_dict()

    @owned_ids
    def describe(self, who: Principal, ids: IdView, entity_id: str) -> dict[str, Any]:
        """``kindling show --json`` of one id, its links narrowed to what the token sees."""
        return self._view(who).describe(ids.stored(entity_id)).to_dict()

    @owned_ids
    def timeline(
        self, who: Principal, ids: IdView, anchor_id: str, params: Mapping[str, str]
    ) -> dict[str, Any]:
        """``Memory.timeline`` of what the token sees: another team's anchor is unknown,
        and its steps are left out."""
        args = fields(params, {"before", "after"})
        counts = {k: n for k in args if (n := whole_number(args, k)) is not None}
        return self._view(who).timeline(ids.stored(anchor_id), **counts).to_dict()

    @owned_ids
    def get_items(self, who: Principal, ids: IdView, body: Mapping[str, Any]) -> dict[str, Any]:
        """``Memory.get_items``: ids the token may not see are ``missing``, like unknown
        ones."""
        args = fields(body, {"ids", "token_budget"}, {"ids"})
        wanted = ids.stored_all(args.pop("ids"))
        return self._view(who).get_items(wanted, **args).to_dict()

    @owned_ids
    def status(self, who: Principal, ids: IdView) -> dict[str, Any]:
        """The server's facts and the token user's open capsules (``MemoryView.status``), the
        version this process's; the client adds the server's address."""
        facts = replace(self._view(who).status(), version=__version__).to_json()
        del facts["server"]
        return facts

    @owned_ids
    def export(self, who: Principal, ids: IdView, params: Mapping[str, str]) -> dict[str, Any]:
        args = fields(params, {"session", "repo", "agent", "include_redacted", "exported_at"})
        scope = query_scope(who, args)
        redacted = args.get("include_redacted", "false")
        if redacted not in ("true", "false"):
            raise InvalidInputError("include_redacted must be true or false")
        return self._view(who).export_bundle(
            scope=scope,
            include_redacted=redacted == "true",
            exported_at=whole_number(args, "exported_at"),
        )

    @owned_ids
    def search_memories(
        self, who: Principal, ids: IdView, body: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        """``Memory.search_memories`` among the memories the token may read."""
        args = fields(body, {"workspace", "query", "limit"}, {"workspace", "query"})
        workspace = args.pop("workspace")
        query = args.pop("query")
        if not isinstance(workspace, str):
            raise InvalidInputError("workspace must be a string")
        if isinstance(query, str) and len(query) > MAX_QUERY_CHARS:
            raise InvalidInputError(f"query is over {MAX_QUERY_CHARS} characters")
        # a granted repository, or one's own
        found_ = self._view(who).search_memories(workspace, query, **args)
        return [wire.match_to_dict(m) for m in found_]

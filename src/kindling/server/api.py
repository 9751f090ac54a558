"""The endpoints: parse the JSON body once, make one library call, render ``to_dict`` JSON.

Bodies use the library's keyword names (``capsule_id``, ``token_budget``...) and scopes their
wire form (``{"repoId": ...}``). An unknown key is a 400, except ``user_id``/``userId``, which
are ignored: the user always comes from the token (``auth``). Every handler runs in a worker
thread (``Api.run``); on SQLite, one at a time.

Must not import the CLI or other adapters.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from functools import partial
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from kindling import __version__
from kindling.bundle import export_bundle, import_bundle, parse_bundle
from kindling.engine import Kindling
from kindling.errors import ConflictError, InvalidInputError, NotFoundError
from kindling.forgetting import ForgetReport
from kindling.lookup import describe
from kindling.model import AnyEntity, Scope
from kindling.server.access import AccessRules
from kindling.server.auth import (
    HttpError,
    Principal,
    authenticate,
    forbidden,
    may_touch,
    owns,
    read_scope,
)
from kindling.store.tokens import TokenStore

T = TypeVar("T")
IGNORED = frozenset({"user_id", "userId"})
# retrieve's query: a question, not a document (an 800 KB query took 3.3 s); the remote hook
# cuts a prompt to this (hooks.remote.MAX_QUERY_CHARS)
MAX_QUERY_CHARS = 10_000
OPEN_SHOWN = 20  # open capsules in the status answer (as `kindling status` shows locally)
# GET /v1/{kind}/{id}: the engine's getter of each kind, and the kind's name in messages
GETTERS = {
    "observations": ("get_observation", "observation"),
    "capsules": ("get_capsule", "capsule"),
    "summaries": ("get_summary", "summary"),
    "pins": ("get_pin", "pin"),
}


def fields(
    body: Mapping[str, Any], allowed: set[str], required: frozenset[str] | set[str] = frozenset()
) -> dict[str, Any]:
    """The body's keys, checked: unknown keys and missing required ones are 400s."""
    unknown = sorted(set(body) - allowed - IGNORED)
    if unknown:
        raise InvalidInputError(f"unknown field(s) {unknown}; allowed: {sorted(allowed)}")
    missing = sorted(required - set(body))
    if missing:
        raise InvalidInputError(f"missing field(s) {missing}")
    return {k: v for k, v in body.items() if k in allowed}


def scope_of(value: Any) -> Scope:
    if isinstance(value, Mapping):
        value = {k: v for k, v in value.items() if k not in IGNORED}
    return Scope.from_dict(value)


def query_scope(who: Principal, args: Mapping[str, str]) -> Scope:
    """The read scope of the query parameters ``session``, ``repo``, ``agent`` (never a user:
    ``read_scope`` decides it)."""
    return read_scope(
        who,
        Scope(session_id=args.get("session"), repo_id=args.get("repo"), agent_id=args.get("agent")),
    )


def whole_number(args: Mapping[str, str], name: str) -> int | None:
    """A query parameter that must be digits (at most 18: any more is out of every range);
    the library checks its range."""
    value = args.get(name)
    if value is None:
        return None
    if not (value.isascii() and value.isdigit() and len(value) <= 18):
        raise InvalidInputError(f"{name} must be a whole number, got {value[:40]!r}")
    return int(value)


def cursor_of(value: str | None) -> tuple[int, str] | None:
    """``before=<ts>:<id>``, the last observation of the page shown (keyset pagination)."""
    if value is None:
        return None
    ts, sep, last_id = value.partition(":")
    if not sep or not (ts.isascii() and ts.isdigit() and len(ts) <= 18) or not last_id:
        raise InvalidInputError(f"before must be <ts>:<id>, got {value[:40]!r}")
    return int(ts), last_id


def limit_of(args: Mapping[str, str]) -> int:
    limit = whole_number(args, "limit")
    return 50 if limit is None else limit


class Api(AccessRules):
    """The handlers, bound to one ``Kindling`` (the store is shared by every request)."""

    def __init__(self, kd: Kindling) -> None:
        self.kd = kd
        self.tokens: TokenStore = kd.store  # type: ignore[assignment]  # both stores are
        # PostgreSQL's store is safe across threads; SQLite's one connection is not.
        self._lock: AbstractContextManager[Any] = (
            nullcontext() if kd.store.capabilities.thread_safe else threading.Lock()
        )

    async def run(self, call: Callable[[], T]) -> T:
        def locked() -> T:
            with self._lock:
                return call()

        return await run_in_threadpool(locked)

    async def who(self, request: Request) -> Principal:
        header = request.headers.get("authorization")
        return await self.run(lambda: authenticate(self.tokens, header))

    # ------------------------------------------------------------------ capture verbs

    def append_observation(self, who: Principal, body: Mapping[str, Any]) -> dict[str, Any]:
        args = fields(
            body,
            {"kind", "content", "scope", "provenance", "ts", "capsule_id", "id"},
            {"kind", "content"},
        )
        capsule_id = args.get("capsule_id")
        if capsule_id is not None:
            self._capsule_owned(who, capsule_id)
        if "scope" in args or capsule_id is None:
            args["scope"] = self._write_scope(who, scope_of(args.get("scope")))
            session = args["scope"].session_id
            if capsule_id is None and session is not None:
                joined = self.kd.store.find_open_capsule(Scope(), session_id=session)
                if joined is not None and not owns(who, joined.scope):
                    raise forbidden(f"session {session!r} belongs to another user")
        return self.kd.append_observation(**args).to_dict()

    def open_capsule(self, who: Principal, body: Mapping[str, Any]) -> dict[str, Any]:
        args = fields(body, {"intent", "scope", "type", "id", "opened_at"}, {"intent"})
        args["scope"] = self._write_scope(who, scope_of(args.get("scope")))
        session = args["scope"].session_id
        if session is not None and args.get("type", "session") == "session":
            joined = self.kd.store.find_open_capsule(Scope(), session_id=session)
            if joined is not None and not may_touch(who, joined.scope):
                raise forbidden(f"session {session!r} belongs to another user")
        return self.kd.open_capsule(**args).to_dict()

    def close_capsule(
        self, who: Principal, capsule_id: str, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        args = fields(body, {"summary", "confidence", "evidence_refs", "closed_at"})
        self._evidence_visible(who, args.get("evidence_refs"))
        return self.kd.close_capsule(self._capsule_owned(who, capsule_id), **args).to_dict()

    def add_summary(self, who: Principal, body: Mapping[str, Any]) -> dict[str, Any]:
        args = fields(
            body,
            {"capsule_id", "content", "confidence", "evidence_refs", "created_at"},
            {"capsule_id", "content"},
        )
        capsule = self._capsule_owned(who, args.pop("capsule_id"))
        self._evidence_visible(who, args.get("evidence_refs"))
        return self.kd.add_summary(capsule, **args).to_dict()

    def pin(self, who: Principal, body: Mapping[str, Any]) -> dict[str, Any]:
        args = fields(
            body,
            {"target_type", "target_id", "reason", "expires_at", "ttl_ms", "scope"},
            {"target_type", "target_id"},
        )
        target = self._target_scope(who, args["target_type"], args["target_id"])
        args["scope"] = self._write_scope(
            who, scope_of(args["scope"]) if "scope" in args else target
        )
        return self.kd.pin(args.pop("target_type"), args.pop("target_id"), **args).to_dict()

    def unpin(self, who: Principal, pin_id: str) -> dict[str, Any]:
        pin = self.kd.store.get_pin(pin_id)
        if pin is None or not may_touch(who, pin.scope):
            raise NotFoundError(f"no pin with id {pin_id!r}")
        self.kd.unpin(pin.id)
        return {"deleted": pin.id}

    def forget(self, who: Principal, body: Mapping[str, Any]) -> dict[str, Any]:
        """Forget an observation, summary or pin by id (``id``; ``observation_id`` also
        accepted), with its derived copies, or every copy of a text (``match``); ``dry_run``
        only reports what would go. Both among the entities the token may touch; the answer
        is the library's forget report."""
        args = fields(body, {"id", "observation_id", "match", "dry_run"})
        dry_run = args.pop("dry_run", None)
        entity_id = next(iter(args.values()), None)  # or the text to match
        if len(args) != 1 or not isinstance(entity_id, str):
            raise InvalidInputError("give exactly one of id, observation_id or match, a string")
        if "match" in args:
            if not isinstance(dry_run, bool | None):
                raise InvalidInputError("dry_run must be true or false")
            return _for_clients(
                self.kd.forget_matching(
                    entity_id, dry_run=bool(dry_run), visible=self._visible(who)
                )
            )
        if not isinstance(dry_run, bool | None):
            raise InvalidInputError("dry_run must be true or false")
        # one the token may not touch is as unknown as a missing id, and so are derived copies
        return _for_clients(
            self.kd.forget(entity_id, dry_run=bool(dry_run), visible=self._visible(who))
        )

    # ------------------------------------------------------------------ reads

    def retrieve(self, who: Principal, body: Mapping[str, Any]) -> dict[str, Any]:
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
        args["scope"] = read_scope(who, scope_of(args.get("scope")))
        return self.kd.retrieve(**args).to_dict()

    def _listing(
        self,
        who: Principal,
        params: Mapping[str, str],
        call: Callable[..., Sequence[Any]],
        **named: Callable[[Mapping[str, str]], Any],
    ) -> list[dict[str, Any]]:
        """A ``list_*`` verb over the query: its scope, ``limit``, and its own ``named``
        parameters (each read from the query by its function; the library checks values)."""
        args = fields(params, {"session", "repo", "agent", "limit", *named})
        own = {name: read(args) for name, read in named.items()}
        found = call(scope=query_scope(who, args), limit=limit_of(args), **own)
        return [entity.to_dict() for entity in found]

    def list_summaries(self, who: Principal, params: Mapping[str, str]) -> list[dict[str, Any]]:
        return self._listing(who, params, self.kd.list_summaries)

    def list_observations(self, who: Principal, params: Mapping[str, str]) -> list[dict[str, Any]]:
        return self._listing(
            who,
            params,
            self.kd.list_observations,
            kind=lambda a: a.get("kind"),
            before=lambda a: cursor_of(a.get("before")),
        )

    def list_capsules(self, who: Principal, params: Mapping[str, str]) -> list[dict[str, Any]]:
        return self._listing(who, params, self.kd.list_capsules, status=lambda a: a.get("status"))

    def list_pins(self, who: Principal, params: Mapping[str, str]) -> list[dict[str, Any]]:
        def active_at(args: Mapping[str, str]) -> int | None:
            return whole_number(args, "active_at")

        return self._listing(who, params, self.kd.list_pins, active_at=active_at)

    def get_entity(self, who: Principal, kind: str, entity_id: str) -> dict[str, Any]:
        """One entity by id; another team's id is as unknown as an id nobody has."""
        getter, name = GETTERS[kind]
        try:
            entity: AnyEntity = getattr(self.kd, getter)(entity_id)
        except NotFoundError:
            entity = None  # type: ignore[assignment]
        if entity is None or not self._visible(who)(entity):
            raise NotFoundError(f"no {name} with id {entity_id!r}")
        return entity.to_dict()

    def describe(self, who: Principal, entity_id: str) -> dict[str, Any]:
        """``kindling show --json`` of one id, its links narrowed to what the token sees."""
        return describe(self.kd, entity_id, visible=self._visible(who)).to_dict()

    def timeline(self, who: Principal, anchor_id: str, params: Mapping[str, str]) -> dict[str, Any]:
        """``Kindling.timeline`` of what the token sees: another team's anchor is unknown,
        and its steps are left out."""
        args = fields(params, {"before", "after"})
        counts = {k: n for k in args if (n := whole_number(args, k)) is not None}
        return self.kd.timeline(anchor_id, visible=self._visible(who), **counts).to_dict()

    def get_items(self, who: Principal, body: Mapping[str, Any]) -> dict[str, Any]:
        """``Kindling.get_items``: ids the token may not see are ``missing``, like unknown
        ones."""
        args = fields(body, {"ids", "token_budget"}, {"ids"})
        return self.kd.get_items(args.pop("ids"), visible=self._visible(who), **args).to_dict()

    def status(self, who: Principal) -> dict[str, Any]:
        mine = self.kd.list_capsules(
            status="open", scope=Scope(user_id=who.user_id), limit=OPEN_SHOWN
        )
        return {
            "version": __version__,
            "backend": self.kd.store.capabilities.backend,
            "schemaVersion": self.kd.stats().schema_version,
            "user": who.name,
            "team": who.team,
            "repos": sorted(who.repos),
            "openCapsules": [c.to_dict() for c in mine],
        }

    def export(self, who: Principal, params: Mapping[str, str]) -> dict[str, Any]:
        args = fields(params, {"session", "repo", "agent", "include_redacted"})
        scope = query_scope(who, args)
        redacted = args.get("include_redacted", "false")
        if redacted not in ("true", "false"):
            raise InvalidInputError("include_redacted must be true or false")
        return export_bundle(self.kd, scope=scope, include_redacted=redacted == "true")

    def import_(self, who: Principal, body: Mapping[str, Any], dry_run: bool) -> dict[str, Any]:
        """Import a bundle under the write rule: every entity is stamped with the token's
        identity and must land in a repository it may write (``_write_scope``), and nothing in
        it may reach an entity the token may not touch (``_import_checks``)."""
        bundle = parse_bundle(body)
        self._import_checks(who, bundle)
        stamp, visible = partial(self._write_scope, who), self._visible(who)
        pins = [p for p in bundle.pins if self._pin_target_known(bundle, p, visible)]
        unpinned = tuple(
            f"pin {p.id} targets unknown {p.target_type} {p.target_id}"
            for p in bundle.pins
            if p not in pins
        )
        bundle = replace(
            bundle,
            scope=replace(bundle.scope, user_id=who.user_id),
            observations=tuple(replace(o, scope=stamp(o.scope)) for o in bundle.observations),
            capsules=tuple(replace(c, scope=stamp(c.scope)) for c in bundle.capsules),
            pins=tuple(replace(p, scope=stamp(p.scope)) for p in pins),
        )
        try:
            report = import_bundle(self.kd, bundle, dry_run=dry_run, visible=visible)
        except ConflictError:
            # Another request imported the same entities meanwhile (both saw them missing):
            # once more, and they are found, so importing stays idempotent under races.
            report = import_bundle(self.kd, bundle, dry_run=dry_run, visible=visible)
        return replace(report, skipped=report.skipped + unpinned).to_dict()


__all__ = ["GETTERS", "Api", "HttpError"]


def _for_clients(report: ForgetReport) -> dict[str, Any]:
    """A forget report as a token sees it: the connections that hold old snapshots are the
    server's business (their pids, roles and addresses are not shown to other teams)."""
    return replace(report, holders=()).to_dict()

"""The endpoints: parse the JSON body once, make one library call, render ``to_dict`` JSON.

Bodies use the library's keyword names (``capsule_id``, ``token_budget``...) and scopes their
wire form (``{"repoId": ...}``). An unknown key is a 400, except ``user_id``/``userId``, which
are ignored: the user always comes from the token (``auth``). Every handler runs in a worker
thread (``Api.run``); on SQLite, one at a time. Every handler works in its owner's view of ids
(``idspace.owned_ids``): the ids a body or path names are mapped in, the answer mapped back.

Must not import the CLI or other adapters.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from functools import partial
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from kindling.engine import Kindling
from kindling.errors import ConflictError, InvalidInputError, NotFoundError
from kindling.http.access import distinct_refs, found
from kindling.http.api_reads import ReadHandlers
from kindling.http.auth import Principal, authenticate, may_touch
from kindling.http.idspace import IdSpace, IdView, owned_ids
from kindling.http.params import GETTERS, IGNORED, cursor_of, fields, scope_of
from kindling.model import Scope, wire
from kindling.model.bundle import Bundle, parse_bundle
from kindling.model.reports import ForgetReport

T = TypeVar("T")
MAX_BATCH = 10_000  # observations in one append_many request
MAX_FINISH_WAIT_MS = 2_000  # a checkpoint's wait holds the (SQLite) server's one lock


class Api(ReadHandlers):
    """The handlers, bound to one ``Kindling`` (the store is shared by every request)."""

    def __init__(self, kd: Kindling) -> None:
        self.kd = kd
        self.tokens = kd  # the token lookups of authentication (``auth.TokenLookup``)
        self.idspace = IdSpace(kd)  # each owner's view of the ids its clients choose
        self._lock: AbstractContextManager[Any] = (
            nullcontext() if kd.thread_safe else threading.Lock()
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

    @owned_ids
    def append_observation(
        self, who: Principal, ids: IdView, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        args = fields(
            body,
            {"kind", "content", "scope", "provenance", "ts", "capsule_id", "id"},
            {"kind", "content"},
        )
        if "capsule_id" in args:
            args["capsule_id"] = ids.stored(args["capsule_id"])
        capsule_id = args.get("capsule_id")
        if capsule_id is not None:
            self._capsule_owned(who, capsule_id)
        if "scope" in args or capsule_id is None:
            # stamped with the token's user: a session joins that user's open capsule only
            args["scope"] = self._write_scope(who, scope_of(args.get("scope")))
        if "id" in args:
            args["id"] = ids.new_id("observation", args["id"])
        with ids.saving():
            return self.kd.append_observation(**args).to_dict()

    @owned_ids
    def append_many(
        self, who: Principal, ids: IdView, body: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        """``Kindling.append_many``: every item checked as ``append_observation`` checks one
        (the error names its index), then one transaction."""
        items = fields(body, {"observations"}, {"observations"})["observations"]
        if not isinstance(items, list) or not 0 < len(items) <= MAX_BATCH:
            raise InvalidInputError(f"observations must be a list of 1 to {MAX_BATCH} objects")
        ids.look_up(item.get("id") for item in items if isinstance(item, Mapping))
        checked = []
        for index, item in enumerate(items):
            try:
                if not isinstance(item, Mapping):
                    raise InvalidInputError("each observation must be a JSON object")
                new = wire.new_observation(item)
                new = replace(new, capsule_id=ids.stored(new.capsule_id))
                if new.capsule_id is not None:
                    self._capsule_owned(who, new.capsule_id)
                if new.scope is not None or new.capsule_id is None:
                    new = replace(new, scope=self._write_scope(who, new.scope or Scope()))
                new = replace(new, id=ids.new_id("observation", new.id))
            except InvalidInputError as exc:
                raise InvalidInputError(f"observation {index}: {exc.message}") from None
            checked.append(new)
        with ids.saving():
            return [o.to_dict() for o in self.kd.append_many(checked)]

    @owned_ids
    def open_capsule(self, who: Principal, ids: IdView, body: Mapping[str, Any]) -> dict[str, Any]:
        args = fields(body, {"intent", "scope", "type", "id", "opened_at"}, {"intent"})
        # a session is its user's: only the token user's own open capsule of it is a 409
        args["scope"] = self._write_scope(who, scope_of(args.get("scope")))
        if "id" in args:
            args["id"] = ids.new_id("capsule", args["id"])
        with ids.saving():
            return self.kd.open_capsule(**args).to_dict()

    @owned_ids
    def close_capsule(
        self, who: Principal, ids: IdView, capsule_id: str, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        args = fields(body, {"summary", "confidence", "evidence_refs", "closed_at"})
        if "evidence_refs" in args:
            args["evidence_refs"] = ids.stored_all(distinct_refs(args["evidence_refs"]))
        self._evidence_visible(who, args.get("evidence_refs"))
        capsule = self._capsule_owned(who, ids.stored(capsule_id))
        return self.kd.close_capsule(capsule, **args).to_dict()

    @owned_ids
    def add_summary(self, who: Principal, ids: IdView, body: Mapping[str, Any]) -> dict[str, Any]:
        args = fields(
            body,
            {"capsule_id", "content", "confidence", "evidence_refs", "created_at"},
            {"capsule_id", "content"},
        )
        if "evidence_refs" in args:
            args["evidence_refs"] = ids.stored_all(distinct_refs(args["evidence_refs"]))
        capsule = self._capsule_owned(who, ids.stored(args.pop("capsule_id")))
        self._evidence_visible(who, args.get("evidence_refs"))
        return self.kd.add_summary(capsule, **args).to_dict()

    @owned_ids
    def pin(self, who: Principal, ids: IdView, body: Mapping[str, Any]) -> dict[str, Any]:
        args = fields(
            body,
            {"target_type", "target_id", "reason", "expires_at", "ttl_ms", "scope", "created_at"},
            {"target_type", "target_id"},
        )
        args["target_id"] = ids.stored(args["target_id"])
        target = self._target_scope(who, args["target_type"], args["target_id"])
        args["scope"] = self._write_scope(
            who, scope_of(args["scope"]) if "scope" in args else target
        )
        return self.kd.pin(args.pop("target_type"), args.pop("target_id"), **args).to_dict()

    @owned_ids
    def unpin(self, who: Principal, ids: IdView, pin_id: str) -> dict[str, Any]:
        pin = found(self.kd.get_pin, ids.stored(pin_id))
        if pin is None or not may_touch(who, pin.scope):
            raise NotFoundError(f"no pin with id {pin_id!r}")
        self.kd.unpin(pin.id)
        return {"deleted": pin.id}

    @owned_ids
    def forget(self, who: Principal, ids: IdView, body: Mapping[str, Any]) -> dict[str, Any]:
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
            self.kd.forget(ids.stored(entity_id), dry_run=bool(dry_run), visible=self._visible(who))
        )

    def finish_forget(self, who: Principal, body: Mapping[str, Any]) -> dict[str, Any]:
        """``Kindling.finish_forget``: empty the WAL now (no data changes; any token)."""
        wait = fields(body, {"wait_ms"}).get("wait_ms", MAX_FINISH_WAIT_MS)
        if (
            isinstance(wait, bool)
            or not isinstance(wait, int)
            or not 0 <= wait <= MAX_FINISH_WAIT_MS
        ):
            raise InvalidInputError(
                f"wait_ms must be a whole number from 0 to {MAX_FINISH_WAIT_MS}"
            )
        return _for_clients(self.kd.finish_forget(wait_ms=wait))

    @owned_ids
    def add_memory(self, who: Principal, ids: IdView, body: Mapping[str, Any]) -> dict[str, Any]:
        """``Kindling.add_memory`` in the workspace (a repository, under the write rule),
        stamped with the token's identity."""
        args = fields(
            body, {"workspace", "content", "fields", "created_at"}, {"workspace", "content"}
        )
        workspace = args.pop("workspace")
        if not isinstance(workspace, str):
            raise InvalidInputError("workspace must be a string")
        where = self._write_scope(who, Scope(repo_id=workspace))
        raw = args.pop("fields", None)
        memory_fields = None if raw is None else wire.memory_fields(raw)
        memory = self.kd.add_memory(
            workspace,
            args.pop("content"),
            memory_fields,
            user_id=where.user_id,
            **args,
        )
        return wire.memory_to_dict(memory)

    @owned_ids
    def import_(
        self, who: Principal, ids: IdView, params: Mapping[str, str], body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Import a bundle under the write rule: every entity is stamped with the token's
        identity and must land in a repository it may write (``_write_scope``), and nothing in
        it may reach an entity the token may not touch (``_import_checks``). Its ids are the
        owner's (``IdView.bundle``): one only another team holds is imported as a new one.
        ``dry_run=true`` in the query only reports."""
        flag = params.get("dry_run", "false")
        if flag not in ("true", "false"):
            raise InvalidInputError("dry_run must be true or false")
        dry_run = flag == "true"
        bundle = parse_bundle(body)
        try:
            return self._import(who, ids, bundle, dry_run)
        except ConflictError:
            # Another request imported the same entities meanwhile (both saw them missing):
            # once more, and they are found, so importing stays idempotent under races.
            ids.reload()
            return self._import(who, ids, bundle, dry_run)

    def _import(self, who: Principal, ids: IdView, bundle: Bundle, dry_run: bool) -> dict[str, Any]:
        bundle = ids.bundle(bundle)
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
        with ids.saving(write=not dry_run):
            report = self.kd.import_bundle(bundle, dry_run=dry_run, visible=visible)
        skipped = tuple(ids.text(line) for line in report.skipped + unpinned)
        return replace(report, skipped=skipped).to_dict()


__all__ = ["GETTERS", "IGNORED", "Api", "cursor_of"]


def _for_clients(report: ForgetReport) -> dict[str, Any]:
    """A forget report as a token sees it: the connections that hold old snapshots are the
    server's business (their pids, roles and addresses are not shown to other teams)."""
    return replace(report, holders=()).to_dict()

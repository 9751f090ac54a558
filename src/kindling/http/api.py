"""The endpoints: parse the JSON body once, make one library call, render ``to_dict`` JSON.

Bodies use the library's keyword names (``capsule_id``, ``token_budget``...) and scopes their
wire form (``{"repoId": ...}``). An unknown key is a 400, except ``user_id``/``userId``, which
are ignored: the user always comes from the token (``auth``). Every handler runs in a worker
thread (``Api.run``); on SQLite, one at a time. Every handler reads and writes through the
view of its token's principal (``ServedMemory.view_for``: the access rule, applied by every verb)
and works in its owner's view of ids (``idspace.owned_ids``): the ids a body or path names are
mapped in, the answer mapped back.

Must not import the CLI or other adapters.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from kindling.errors import ConflictError, InvalidInputError
from kindling.http.access import distinct_refs
from kindling.http.api_reads import ReadHandlers
from kindling.http.auth import Principal, authenticate
from kindling.http.idspace import IdSpace, IdView, owned_ids
from kindling.http.params import GETTERS, IGNORED, cursor_of, fields, scope_of
from kindling.memory import ServedMemory
from kindling.model import wire
from kindling.model.bundle import Bundle, parse_bundle

T = TypeVar("T")
MAX_BATCH = 10_000  # observations in one append_many request
MAX_FINISH_WAIT_MS = 2_000  # a checkpoint's wait holds the (SQLite) server's one lock


class Api(ReadHandlers):
    """The handlers, bound to one ``ServedMemory`` (the store is shared by every request)."""

    def __init__(self, kd: ServedMemory) -> None:
        self.kd = kd
        self.tokens = kd.team  # the team directory authentication asks (``auth``)
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
        if "scope" in args:
            args["scope"] = scope_of(args["scope"])
        if "id" in args:
            args["id"] = ids.new_id("observation", args["id"])
        with ids.saving():
            return self._view(who).append_observation(**args).to_dict()

    @owned_ids
    def append_many(
        self, who: Principal, ids: IdView, body: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        """``Memory.append_many``: every item read as ``append_observation`` reads one (the
        error names its index), then the view's checks and one transaction."""
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
                new = replace(new, id=ids.new_id("observation", new.id))
            except InvalidInputError as exc:
                raise InvalidInputError(f"observation {index}: {exc.message}") from None
            checked.append(new)
        with ids.saving():
            return [o.to_dict() for o in self._view(who).append_many(checked)]

    @owned_ids
    def open_capsule(self, who: Principal, ids: IdView, body: Mapping[str, Any]) -> dict[str, Any]:
        args = fields(body, {"intent", "scope", "type", "id", "opened_at"}, {"intent"})
        args["scope"] = scope_of(args.get("scope"))
        if "id" in args:
            args["id"] = ids.new_id("capsule", args["id"])
        with ids.saving():
            return self._view(who).open_capsule(**args).to_dict()

    @owned_ids
    def close_capsule(
        self, who: Principal, ids: IdView, capsule_id: str, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        args = fields(body, {"summary", "confidence", "evidence_refs", "closed_at"})
        if "evidence_refs" in args:
            args["evidence_refs"] = ids.stored_all(distinct_refs(args["evidence_refs"]))
        return self._view(who).close_capsule(ids.stored(capsule_id), **args).to_dict()

    @owned_ids
    def add_summary(self, who: Principal, ids: IdView, body: Mapping[str, Any]) -> dict[str, Any]:
        args = fields(
            body,
            {"capsule_id", "content", "confidence", "evidence_refs", "created_at"},
            {"capsule_id", "content"},
        )
        if "evidence_refs" in args:
            args["evidence_refs"] = ids.stored_all(distinct_refs(args["evidence_refs"]))
        capsule = ids.stored(args.pop("capsule_id"))
        return self._view(who).add_summary(capsule, **args).to_dict()

    @owned_ids
    def pin(self, who: Principal, ids: IdView, body: Mapping[str, Any]) -> dict[str, Any]:
        args = fields(
            body,
            {"target_type", "target_id", "reason", "expires_at", "ttl_ms", "scope", "created_at"},
            {"target_type", "target_id"},
        )
        args["target_id"] = ids.stored(args["target_id"])
        if "scope" in args:
            args["scope"] = scope_of(args["scope"])
        pin = self._view(who).pin(args.pop("target_type"), args.pop("target_id"), **args)
        return pin.to_dict()

    @owned_ids
    def unpin(self, who: Principal, ids: IdView, pin_id: str) -> dict[str, Any]:
        stored = ids.stored(pin_id)
        self._view(who).unpin(stored)
        return {"deleted": stored}

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
            return self._view(who).forget_matching(entity_id, dry_run=bool(dry_run)).to_dict()
        if not isinstance(dry_run, bool | None):
            raise InvalidInputError("dry_run must be true or false")
        # one the token may not touch is as unknown as a missing id, and so are derived copies
        view = self._view(who)
        return view.forget(ids.stored(entity_id), dry_run=bool(dry_run)).to_dict()

    def finish_forget(self, who: Principal, body: Mapping[str, Any]) -> dict[str, Any]:
        """``Memory.finish_forget``: empty the WAL now (no data changes; any token)."""
        wait = fields(body, {"wait_ms"}).get("wait_ms", MAX_FINISH_WAIT_MS)
        if (
            isinstance(wait, bool)
            or not isinstance(wait, int)
            or not 0 <= wait <= MAX_FINISH_WAIT_MS
        ):
            raise InvalidInputError(
                f"wait_ms must be a whole number from 0 to {MAX_FINISH_WAIT_MS}"
            )
        return self._view(who).finish_forget(wait_ms=wait).to_dict()

    @owned_ids
    def add_memory(self, who: Principal, ids: IdView, body: Mapping[str, Any]) -> dict[str, Any]:
        """``Memory.add_memory`` in the workspace (a repository, under the write rule),
        stamped with the token's identity."""
        args = fields(
            body, {"workspace", "content", "fields", "created_at"}, {"workspace", "content"}
        )
        workspace = args.pop("workspace")
        if not isinstance(workspace, str):
            raise InvalidInputError("workspace must be a string")
        raw = args.pop("fields", None)
        memory_fields = None if raw is None else wire.memory_fields(raw)
        memory = self._view(who).add_memory(workspace, args.pop("content"), memory_fields, **args)
        return wire.memory_to_dict(memory)

    @owned_ids
    def import_(
        self, who: Principal, ids: IdView, params: Mapping[str, str], body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Import a bundle under the write rule (``MemoryView.import_bundle``): every entity is
        stamped with the token's identity and must land in a repository it may write, and
        nothing in it may reach an entity the token may not touch. Its ids are the
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
        with ids.saving(write=not dry_run):
            report = self._view(who).import_bundle(bundle, dry_run=dry_run)
        skipped = tuple(ids.text(line) for line in report.skipped)
        return replace(report, skipped=skipped).to_dict()


__all__ = ["GETTERS", "IGNORED", "Api", "cursor_of"]

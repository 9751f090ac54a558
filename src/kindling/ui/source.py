"""Where the pages get memory: one library call per action, answered in the API's wire JSON.

``MemorySource`` is ``kindling ui``: any ``kindling.memory.Memory``, a local database (where
its owner sees everything) or a ``kindling serve`` through ``client.RemoteKindling`` (where the
server applies the token's rules). Which repositories there are, whether a read must name one
and what the status says are that memory's answers (``list_repos``, ``status``), never worked
out here. ``TeamSource`` is the page of ``kindling serve``: every call goes through
``http.api.Api`` as the logged-in token, so the page sees and changes exactly what that token
may through the JSON API.

Must not import the CLI or other adapters than ``kindling.http``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

from starlette.concurrency import run_in_threadpool

from kindling.errors import InvalidInputError
from kindling.http.api import Api
from kindling.http.auth import Principal
from kindling.http.params import cursor_of
from kindling.memory import Memory
from kindling.model import Scope
from kindling.model.status import LocalStatus, ServerStatus

T = TypeVar("T")
Json = dict[str, Any]
HOOK_LOG_TAIL = 64 << 10  # the end of hooks.log read for its recent errors
MAX_REPOS = 1000


class Source(Protocol):
    """Every action of the page (all answers are JSON objects as the HTTP API sends them)."""

    who: str
    needs_repo: bool  # a team token: every read names one of its repositories

    async def run(self, call: Callable[[], T]) -> T: ...
    def repos(self) -> list[Json]: ...
    def observations(
        self, scope: Scope, before: str | None, limit: int, kind: str | None = None
    ) -> list[Json]: ...
    def capsules(self, scope: Scope, limit: int) -> list[Json]: ...
    def pins(self, scope: Scope, limit: int) -> list[Json]: ...
    def summaries(self, scope: Scope, limit: int) -> list[Json]: ...
    def search(self, query: str, scope: Scope, max_candidates: int) -> Json: ...
    def item(self, entity_id: str) -> Json: ...
    def pin(self, body: Json) -> Json: ...
    def unpin(self, pin_id: str) -> Json: ...
    def forget(self, body: Json) -> Json: ...
    def status(self) -> Json: ...


def _params(scope: Scope, limit: int, before: str | None = None) -> dict[str, str]:
    wire = {"repo": scope.repo_id, "session": scope.session_id, "before": before}
    return {k: v for k, v in wire.items() if v is not None} | {"limit": str(limit)}


def _forget_args(body: Json) -> Json:
    return {k: v for k, v in body.items() if k in ("id", "match", "dry_run")}


def who_of(status: LocalStatus | ServerStatus) -> tuple[str, bool]:
    """Who the page shows as its reader, and whether every read must name a repository, from
    a memory's ``status``: a server's names the token's user and team; a database's, nobody."""
    if isinstance(status, LocalStatus):
        return "local", False
    team = f" ({status.team})" if status.team else ""
    return f"{status.user}{team} at {status.server}", status.team is not None


class MemorySource:
    """Any ``Memory``, as the one who opened it sees it (``kindling ui``, local or remote).

    ``hooks_log`` is this machine's hook error log, shown on the status page. The verbs run
    one at a time, in a worker thread (a SQLite connection is not shared by two at once)."""

    def __init__(self, memory: Memory, *, hooks_log: Path | None = None) -> None:
        self.memory, self.hooks_log = memory, hooks_log
        self.who, self.needs_repo = who_of(memory.status())
        self._lock = threading.Lock()

    async def run(self, call: Callable[[], T]) -> T:
        def locked() -> T:
            with self._lock:
                return call()

        return await run_in_threadpool(locked)

    def repos(self) -> list[Json]:
        return [r.to_dict() for r in self.memory.list_repos(limit=MAX_REPOS)]

    def observations(
        self, scope: Scope, before: str | None, limit: int, kind: str | None = None
    ) -> list[Json]:
        found = self.memory.list_observations(
            scope=scope,
            limit=limit,
            before=cursor_of(before),
            kind=kind,  # type: ignore[arg-type]  # the library checks it
        )
        return [o.to_dict() for o in found]

    def capsules(self, scope: Scope, limit: int) -> list[Json]:
        return [c.to_dict() for c in self.memory.list_capsules(scope=scope, limit=limit)]

    def pins(self, scope: Scope, limit: int) -> list[Json]:
        return [p.to_dict() for p in self.memory.list_pins(scope=scope, limit=limit)]

    def summaries(self, scope: Scope, limit: int) -> list[Json]:
        return [s.to_dict() for s in self.memory.list_summaries(scope=scope, limit=limit)]

    def search(self, query: str, scope: Scope, max_candidates: int) -> Json:
        found = self.memory.retrieve(query, scope=scope, max_candidates=max_candidates)
        return found.to_dict()

    def item(self, entity_id: str) -> Json:
        return self.memory.describe(entity_id).to_dict()

    def pin(self, body: Json) -> Json:
        args = dict(body)
        return self.memory.pin(args.pop("target_type"), args.pop("target_id"), **args).to_dict()

    def unpin(self, pin_id: str) -> Json:
        self.memory.unpin(pin_id)
        return {"deleted": pin_id}

    def forget(self, body: Json) -> Json:
        args = _forget_args(body)
        dry = bool(args.get("dry_run"))
        if "match" in args:
            return self.memory.forget_matching(args["match"], dry_run=dry).to_dict()
        if "id" not in args:
            raise InvalidInputError("give an id or a text to match")
        return self.memory.forget(args["id"], dry_run=dry).to_dict()

    def status(self) -> Json:
        """The memory's ``status``; for a database, the newest observation's time too; and
        this machine's hook health."""
        found = self.memory.status()
        doc = found.to_json()
        if isinstance(found, LocalStatus):  # a database's counts: when did it last capture?
            newest = self.memory.list_observations(limit=1)
            doc["lastCapture"] = newest[0].ts if newest else None
        if self.hooks_log is not None:
            doc["hooks"] = hook_health(self.hooks_log)
        return doc


class TeamSource:
    """A token of ``kindling serve``: every call is the JSON API's handler as that token."""

    def __init__(self, api: Api, principal: Principal) -> None:
        self.api, self.principal = api, principal
        self.who = principal.user_id + (f" ({principal.team})" if principal.team else "")
        self.needs_repo = principal.team is not None

    async def run(self, call: Callable[[], T]) -> T:
        return await self.api.run(call)

    def repos(self) -> list[Json]:
        return self.api.list_repos(self.principal, {"limit": str(MAX_REPOS)})

    def observations(
        self, scope: Scope, before: str | None, limit: int, kind: str | None = None
    ) -> list[Json]:
        params = _params(scope, limit, before) | ({"kind": kind} if kind else {})
        return self.api.list_observations(self.principal, params)

    def capsules(self, scope: Scope, limit: int) -> list[Json]:
        return self.api.list_capsules(self.principal, _params(scope, limit))

    def pins(self, scope: Scope, limit: int) -> list[Json]:
        return self.api.list_pins(self.principal, _params(scope, limit))

    def summaries(self, scope: Scope, limit: int) -> list[Json]:
        return self.api.list_summaries(self.principal, _params(scope, limit))

    def search(self, query: str, scope: Scope, max_candidates: int) -> Json:
        body = {"query": query, "scope": scope.to_dict(), "max_candidates": max_candidates}
        return self.api.retrieve(self.principal, body)

    def item(self, entity_id: str) -> Json:
        return self.api.describe(self.principal, entity_id)

    def pin(self, body: Json) -> Json:
        return self.api.pin(self.principal, body)

    def unpin(self, pin_id: str) -> Json:
        return self.api.unpin(self.principal, pin_id)

    def forget(self, body: Json) -> Json:
        return self.api.forget(self.principal, _forget_args(body))

    def status(self) -> Json:
        return self.api.status(self.principal)


def hook_health(log: Path) -> Json:
    """The hooks' error log: how many lines its recent end holds, and the last few."""
    try:
        with log.open("rb") as f:
            f.seek(max(0, os.fstat(f.fileno()).st_size - HOOK_LOG_TAIL))
            tail = f.read().decode("utf-8", "replace").splitlines()
    except FileNotFoundError:
        return {"log": str(log), "errors": 0, "recent": []}
    except OSError as exc:
        return {"log": str(log), "errors": None, "recent": [f"cannot read: {exc.strerror}"]}
    lines = [line for line in tail if line.strip()]
    return {"log": str(log), "errors": len(lines), "recent": lines[-5:]}

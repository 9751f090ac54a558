"""Where the pages get memory: one library call per action, answered in the API's wire JSON.

``LocalSource`` is ``kindling ui``: the local database, everything in it visible. ``TeamSource``
is the page of ``kindling serve``: every call goes through ``http.api.Api`` as the logged-in
token, so the page sees and changes exactly what that token may through the JSON API.

Must not import the CLI or other adapters than ``kindling.http``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

from kindling.config import kindling_home
from kindling.engine import Kindling
from kindling.errors import InvalidInputError
from kindling.http.api import Api, cursor_of
from kindling.http.auth import Principal, read_scope
from kindling.lookup import describe
from kindling.model import Scope

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


class LocalSource:
    """The local database, as its owner sees it (``kindling ui``)."""

    who = "local"
    needs_repo = False

    def __init__(self, kd: Kindling, api: Api, db: Path | None) -> None:
        self.kd, self.api, self.db = kd, api, db

    async def run(self, call: Callable[[], T]) -> T:
        return await self.api.run(call)  # the API's worker thread and SQLite lock

    def repos(self) -> list[Json]:
        return [r.to_dict() for r in self.kd.list_repos(limit=MAX_REPOS)]

    def observations(
        self, scope: Scope, before: str | None, limit: int, kind: str | None = None
    ) -> list[Json]:
        found = self.kd.list_observations(
            scope=scope,
            limit=limit,
            before=cursor_of(before),
            kind=kind,  # type: ignore[arg-type]  # the library checks it
        )
        return [o.to_dict() for o in found]

    def capsules(self, scope: Scope, limit: int) -> list[Json]:
        return [c.to_dict() for c in self.kd.list_capsules(scope=scope, limit=limit)]

    def pins(self, scope: Scope, limit: int) -> list[Json]:
        return [p.to_dict() for p in self.kd.list_pins(scope=scope, limit=limit)]

    def summaries(self, scope: Scope, limit: int) -> list[Json]:
        return [s.to_dict() for s in self.kd.list_summaries(scope=scope, limit=limit)]

    def search(self, query: str, scope: Scope, max_candidates: int) -> Json:
        return self.kd.retrieve(query, scope=scope, max_candidates=max_candidates).to_dict()

    def item(self, entity_id: str) -> Json:
        return describe(self.kd, entity_id).to_dict()

    def pin(self, body: Json) -> Json:
        args = dict(body)
        return self.kd.pin(args.pop("target_type"), args.pop("target_id"), **args).to_dict()

    def unpin(self, pin_id: str) -> Json:
        self.kd.unpin(pin_id)
        return {"deleted": pin_id}

    def forget(self, body: Json) -> Json:
        args = _forget_args(body)
        dry = bool(args.get("dry_run"))
        if "match" in args:
            return self.kd.forget_matching(args["match"], dry_run=dry).to_dict()
        if "id" not in args:
            raise InvalidInputError("give an id or a text to match")
        return self.kd.forget(args["id"], dry_run=dry).to_dict()

    def status(self) -> Json:
        stats = self.kd.stats()
        newest = self.kd.list_observations(limit=1)
        db = self.db
        files = [] if db is None else [db, db.with_name(db.name + "-wal")]
        return {
            "database": None if db is None else str(db),
            "sizeBytes": sum(p.stat().st_size for p in files if p.exists()),
            "schemaVersion": stats.schema_version,
            "observationsByKind": dict(sorted(stats.observations_by_kind.items())),
            "redacted": stats.redacted_observations,
            "capsulesByStatus": dict(sorted(stats.capsules_by_status.items())),
            "summaries": stats.summaries,
            "pins": stats.pins,
            "lastCapture": newest[0].ts if newest else None,
            "hooks": hook_health(Path(kindling_home()) / "hooks.log"),
        }


class TeamSource:
    """A token of ``kindling serve``: every call is the JSON API's handler as that token."""

    def __init__(self, api: Api, principal: Principal) -> None:
        self.api, self.principal = api, principal
        self.who = principal.user_id + (f" ({principal.team})" if principal.team else "")
        self.needs_repo = principal.team is not None

    async def run(self, call: Callable[[], T]) -> T:
        return await self.api.run(call)

    def repos(self) -> list[Json]:
        """A team token's granted repositories; a personal token's own (the API's rules)."""
        who = self.principal
        if who.team is None:
            found = self.api.kd.list_repos(scope=Scope(user_id=who.user_id), limit=MAX_REPOS)
        else:
            found = [r for r in self.api.kd.list_repos(limit=MAX_REPOS) if r.repo_id in who.repos]
        return [r.to_dict() for r in found]

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


def scope_for(source: Source, scope: Scope) -> Scope:
    """The scope a read really gets (a team source narrows it as the API does)."""
    if isinstance(source, TeamSource):
        return read_scope(source.principal, scope)
    return scope


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

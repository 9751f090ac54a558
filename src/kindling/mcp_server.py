"""``kindling mcp``: Kindling's memory as Model Context Protocol tools over stdio.

Built on the official MCP Python SDK (``mcp`` 2.x, ``MCPServer``). Tools: ``retrieve``,
``remember``, ``pin``, ``unpin``, ``forget``, ``recent``, ``status``; each carries read-only /
destructive annotations and an ``outputSchema`` (``kindling.mcp_schemas``).

What the model reads is the structured content (Claude Code hands the model
``structuredContent``, not the text), so it is the compact, model-readable form: ids, kind, age,
score, snippet, pin reason; the scoring internals only with ``explain: true``. The text block
carries the same object serialized as JSON, as the MCP specification asks.

Bad calls are tool errors in one plain sentence (unknown arguments rejected, bad values named
with what is allowed, queries capped at ``MAX_QUERY_CHARS``, a ``KindlingError``'s code and
message kept). The default scope is the repository root of the working directory; ``repo``
overrides it (``"*"`` = every one). Each call opens the database (applying the spool) and
closes it, so the server holds no lock between calls and shares no connection between threads.

Adapter: no SQL, no ranking; one ``Kindling`` call per tool. Must not be imported by the core.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from kindling import Kindling, KindlingError, Scope, __version__
from kindling.config import repo_root
from kindling.mcp_schemas import OUTPUT_SCHEMAS, age, plain_error
from kindling.model import Observation, Summary

ALL_REPOS = "*"
SNIPPET_CHARS = 300
MAX_QUERY_CHARS = 2000  # a question, not a document: a 5 MB query once took 15 s
MAX_TTL_MINUTES = 100 * 365 * 24 * 60  # a century; beyond it a pin is simply permanent

INSTRUCTIONS = """Kindling is this project's local memory: what earlier sessions ran, changed,
learned and decided. Call `retrieve` with a question before re-investigating something that
may have been solved before; `remember` a decision or finding worth keeping; `pin` what must
stay visible. Results carry ids, kinds, ages, scores and snippets; treat them as notes, not as
truth."""

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
ADDITIVE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)
KINDS = Literal["message", "error", "command", "file_diff", "tool_call"]

RepoArg = Annotated[
    str | None,
    Field(
        description="Repository to use: a path (its git root is used) or a stored repo id; "
        "'*' for every repository. Default: the server's repository."
    ),
]


def _line(text: str, limit: int = SNIPPET_CHARS) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _result(data: dict[str, Any]) -> CallToolResult:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def _fail(exc: KindlingError) -> ToolError:
    return ToolError(f"{exc.code}: {exc.message}")


def _entity_brief(entity: Observation | Summary, now: int) -> dict[str, Any]:
    if isinstance(entity, Observation):
        brief: dict[str, Any] = {"id": entity.id, "kind": entity.kind, "age": age(entity.ts, now)}
        if entity.scope.session_id:
            brief["session"] = entity.scope.session_id
        path = entity.provenance.get("path")
        if isinstance(path, str) and path:
            brief["path"] = path
        return brief
    return {"id": entity.id, "kind": "summary", "age": age(entity.created_at, now)}


class KindlingTools:
    """The tools, bound to one database path and one default repository."""

    def __init__(
        self, db: Path, default_repo: str, opener: Callable[[], Kindling] | None = None
    ) -> None:
        self.db = db
        self.default_repo = default_repo
        # The CLI passes its own opener: a postgresql:// database, or remote mode (every tool
        # then asks the server).
        self._open = opener or (lambda: Kindling.open(self.db))

    @contextmanager
    def _kd(self) -> Iterator[Kindling]:
        try:
            with self._open() as kd:
                yield kd
        except KindlingError as exc:
            raise _fail(exc) from None

    def scope(self, repo: str | None, session_id: str | None = None) -> Scope:
        try:
            if repo == ALL_REPOS:
                return Scope(session_id=session_id)
            where = self.default_repo if repo is None else repo
            if Path(where).expanduser().is_dir():
                where = repo_root(str(Path(where).expanduser()))
            return Scope(repo_id=where, session_id=session_id)
        except KindlingError as exc:
            raise _fail(exc) from None

    # ------------------------------------------------------------------ tools

    def retrieve(
        self,
        query: Annotated[
            str,
            Field(description="What you want to know, in plain words.", max_length=MAX_QUERY_CHARS),
        ],
        repo: RepoArg = None,
        session_id: Annotated[str | None, Field(description="Only this session.")] = None,
        token_budget: Annotated[
            int | None, Field(description="Cap on result tokens (4 chars a token).", ge=0)
        ] = 2000,
        max_candidates: Annotated[int, Field(ge=1, le=100)] = 10,
        explain: Annotated[
            bool, Field(description="Add each result's scoring factors (for debugging).")
        ] = False,
    ) -> CallToolResult:
        """Search Kindling's memory: active pins, the current session summary, then the
        observations and summaries that best match the query, best first, each with id,
        kind, age, score and snippet. An empty query lists recent work."""
        scope = self.scope(repo, session_id)
        with self._kd() as kd:
            try:
                result = kd.retrieve(
                    query, scope=scope, token_budget=token_budget, max_candidates=max_candidates
                )
            except KindlingError as exc:
                raise _fail(exc) from None
            now = kd.clock()
        pins = [
            {
                "pinId": p.pin.id,
                **_entity_brief(p.target, now),
                "reason": p.pin.reason,
                "snippet": _line(p.target.content),
            }
            for p in result.pins
        ]
        summary = result.current_summary
        results = []
        for c in result.relevant():  # the shared "nothing relevant" cut
            item = {
                **_entity_brief(c.entity, now),
                "score": round(c.score, 3),
                "snippet": _line(c.match_context or c.entity.content),
            }
            if explain:
                item["explanation"] = c.explanation.to_dict()
            results.append(item)
        prov = result.provenance
        return _result(
            {
                "pins": pins,
                "currentSummary": None
                if summary is None
                else {**_entity_brief(summary, now), "snippet": _line(summary.content)},
                "results": results,
                "more": prov.total_candidates > prov.returned_candidates,
            }
        )

    def remember(
        self,
        content: Annotated[str, Field(description="The fact, decision or finding to keep.")],
        kind: Annotated[
            KINDS, Field(description="message for notes and decisions; error for a failure.")
        ] = "message",
        pin: Annotated[bool, Field(description="Also pin it so it is always retrieved.")] = False,
        reason: Annotated[str | None, Field(description="Why it is pinned.")] = None,
        repo: RepoArg = None,
    ) -> CallToolResult:
        """Store a note (an observation) for this repository, optionally pinned."""
        scope = self.scope(repo)
        with self._kd() as kd:
            try:
                with kd.batch():
                    obs = kd.append_observation(
                        kind=kind, content=content, scope=scope, provenance={"source": "mcp"}
                    )
                    pinned = kd.pin("observation", obs.id, reason=reason) if pin else None
            except KindlingError as exc:
                raise _fail(exc) from None
        return _result({"id": obs.id, "kind": obs.kind, "pinId": pinned.id if pinned else None})

    def pin(
        self,
        target_id: Annotated[str, Field(description="Id of an observation or summary.")],
        target_type: Literal["observation", "summary"] = "observation",
        reason: str | None = None,
        ttl_minutes: Annotated[
            int | None, Field(description="Expire after this long.", ge=1, le=MAX_TTL_MINUTES)
        ] = None,
    ) -> CallToolResult:
        """Pin an observation or summary so retrieval always shows it (until unpinned)."""
        with self._kd() as kd:
            try:
                ttl = ttl_minutes * 60_000 if ttl_minutes else None
                made = kd.pin(target_type, target_id, reason=reason, ttl_ms=ttl)
            except KindlingError as exc:
                raise _fail(exc) from None
        return _result(
            {
                "pinId": made.id,
                "targetType": made.target_type,
                "targetId": made.target_id,
                "reason": made.reason,
                "expiresAt": made.expires_at,
            }
        )

    def unpin(self, pin_id: Annotated[str, Field(description="Id of the pin.")]) -> CallToolResult:
        """Remove a pin (the pinned observation or summary itself stays)."""
        with self._kd() as kd:
            try:
                kd.unpin(pin_id)
            except KindlingError as exc:
                raise _fail(exc) from None
        return _result({"unpinned": pin_id})

    def forget(
        self,
        observation_id: Annotated[
            str | None, Field(description="Id of the observation, summary or pin to forget.")
        ] = None,
        match: Annotated[
            str | None,
            Field(
                description="Forget every observation, summary, pin reason and capsule intent "
                "containing this text (at least 3 characters) instead of one id.",
                max_length=MAX_QUERY_CHARS,
            ),
        ] = None,
        dry_run: Annotated[
            bool, Field(description="With match: only count what would be forgotten.")
        ] = False,
    ) -> CallToolResult:
        """Forget for good: the text becomes [redacted] everywhere it was copied (index,
        summaries, pin reasons) and leaves the database files. Give one id, or a match text.
        Cannot be undone; `complete` is false while another process still holds old pages."""
        if (observation_id is None) == (match is None):
            raise ToolError("Give exactly one of observation_id or match.")
        with self._kd() as kd:
            try:
                if match is not None:
                    report = kd.forget_matching(match, dry_run=dry_run)
                else:
                    report = kd.forget(observation_id or "")
            except KindlingError as exc:
                raise _fail(exc) from None
        return _result(report.to_dict())

    def recent(
        self,
        limit: Annotated[int, Field(ge=1, le=200)] = 10,
        kind: KINDS | None = None,
        repo: RepoArg = None,
    ) -> CallToolResult:
        """The newest observations in this repository, newest first."""
        scope = self.scope(repo)
        with self._kd() as kd:
            try:
                found = kd.list_observations(kind=kind, scope=scope, limit=limit)
            except KindlingError as exc:
                raise _fail(exc) from None
            now = kd.clock()
        items = [{**_entity_brief(o, now), "snippet": _line(o.content)} for o in found]
        return _result({"observations": items})

    def status(self) -> CallToolResult:
        """Where the database is, the default repository, and what the store holds."""
        with self._kd() as kd:
            here = self.scope(None)
            # Remote mode (remote.front.RemoteKindling) has the server's facts, not counts.
            server_status = getattr(kd, "server_status", None)
            if server_status is not None:
                facts = server_status()
                mine: dict[str, int] = {}
                with suppress(KindlingError):  # a team may not be granted the default repository
                    mine["openCapsulesInDefaultRepo"] = len(
                        kd.list_capsules(status="open", scope=here, limit=100)
                    )
                return _result(
                    {
                        "server": facts.url,
                        "defaultRepo": self.default_repo,
                        "version": __version__,
                        "serverVersion": facts.version,
                        "backend": facts.backend,
                        "schemaVersion": facts.schema_version,
                        "user": facts.user,
                        "team": facts.team,
                        "repos": list(facts.repos),
                        **mine,
                    }
                )
            open_here = kd.list_capsules(status="open", scope=here, limit=100)
            stats = kd.stats()
        return _result(
            {
                "db": str(self.db),
                "defaultRepo": self.default_repo,
                "version": __version__,
                "schemaVersion": stats.schema_version,
                "observationsByKind": stats.observations_by_kind,
                "redactedObservations": stats.redacted_observations,
                "capsulesByStatus": stats.capsules_by_status,
                "summaries": stats.summaries,
                "pins": stats.pins,
                "openCapsulesInDefaultRepo": len(open_here),
            }
        )


class _StrictTool(Tool):
    """A tool that rejects unknown arguments and explains a bad one in one plain sentence."""

    async def run(
        self, arguments: dict[str, Any], context: Any, convert_result: bool = False
    ) -> Any:
        known = self.parameters.get("properties", {})
        unknown = sorted(set(arguments) - set(known))
        if unknown:
            raise ToolError(
                f"{self.name} takes no argument {unknown[0]!r}; "
                f"it takes: {', '.join(known) or 'nothing'}."
            )
        try:
            self.fn_metadata.validate_arguments(arguments)
        except ValidationError as exc:
            raise ToolError(plain_error(exc.errors(), known)) from None
        try:
            return await super().run(arguments, context, convert_result)
        except ToolError as exc:  # the SDK prefixes our own message; keep it plain
            if isinstance(exc.__cause__, ToolError):
                raise ToolError(str(exc.__cause__)) from None
            raise


def _tool(fn: Callable[..., Any], name: str, title: str, annotations: ToolAnnotations) -> Tool:
    base = Tool.from_function(
        fn,
        name=name,
        title=title,
        description=inspect.cleandoc(fn.__doc__ or ""),
        annotations=annotations,
    )
    tool = _StrictTool(**dict(base))
    tool.parameters["additionalProperties"] = False
    tool.fn_metadata.output_schema = OUTPUT_SCHEMAS[name]
    return tool


def build_server(
    db: Path, cwd: str | None = None, opener: Callable[[], Kindling] | None = None
) -> MCPServer[Any]:
    t = KindlingTools(db, repo_root(cwd), opener)
    tools = [
        _tool(t.retrieve, "retrieve", "Search memory", READ_ONLY),
        _tool(t.remember, "remember", "Remember a note", ADDITIVE),
        _tool(t.pin, "pin", "Pin an observation or summary", ADDITIVE),
        _tool(t.unpin, "unpin", "Unpin", DESTRUCTIVE),
        _tool(t.forget, "forget", "Forget an observation", DESTRUCTIVE),
        _tool(t.recent, "recent", "Recent work", READ_ONLY),
        _tool(t.status, "status", "Memory status", READ_ONLY),
    ]
    return MCPServer(
        name="kindling",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        tools=tools,
    )


def serve(db: Path, opener: Callable[[], Kindling] | None = None) -> None:
    """Serve over stdio until the client hangs up."""
    build_server(db, opener=opener).run("stdio")

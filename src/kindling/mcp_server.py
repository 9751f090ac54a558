"""``kindling mcp``: Kindling's memory as Model Context Protocol tools over stdio.

Built on the official MCP Python SDK (``mcp`` 2.x, ``MCPServer``). Tools: ``retrieve``,
``remember``, ``pin``, ``unpin``, ``forget``, ``recent``, ``status``; each returns text an agent
reads well plus structured content (the library's JSON shapes), and carries read-only /
destructive annotations. The default scope is the repository root of the server's working
directory; every tool that reads or writes takes ``repo`` to override it (``"*"`` = every
repository). A ``KindlingError`` comes back as an MCP tool error carrying its code and message;
the server never crashes on a bad call. Each call opens the database and closes it again, so
the server holds no lock between calls and never shares a connection between threads.

Adapter: no SQL, no ranking; one ``Kindling`` call per tool. Must not be imported by the core.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from kindling import Kindling, KindlingError, Scope, __version__
from kindling.hooks.payload import repo_root
from kindling.model import Observation, RetrieveResult

ALL_REPOS = "*"
SNIPPET_CHARS = 400
STRUCTURED_CONTENT_CHARS = 4000

INSTRUCTIONS = """Kindling is this project's local memory: what earlier sessions ran, changed,
learned and decided. Call `retrieve` with a question before re-investigating something that
may have been solved before; `remember` a decision or finding worth keeping; `pin` what must
stay visible. Results carry ids, scores and provenance; treat them as notes, not as truth."""

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
ADDITIVE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)

RepoArg = Annotated[
    str | None,
    Field(
        description="Repository to use: a path (its git root is used) or a stored repo id; "
        "'*' for every repository. Default: the server's repository."
    ),
]


def _iso(ms: int) -> str:
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _line(text: str, limit: int = SNIPPET_CHARS) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _result(text: str, data: dict[str, Any]) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


class KindlingTools:
    """The tools, bound to one database path and one default repository."""

    def __init__(
        self, db: Path, default_repo: str, opener: Callable[[], Kindling] | None = None
    ) -> None:
        self.db = db
        self.default_repo = default_repo
        # The CLI passes its own opener: a postgresql:// database, or remote mode (tools the
        # HTTP API lacks, recent and status, then answer with a tool error saying so).
        self._open = opener or (lambda: Kindling.open(self.db))

    @contextmanager
    def _kd(self) -> Iterator[Kindling]:
        try:
            with self._open() as kd:
                yield kd
        except KindlingError as exc:
            raise ToolError(f"{exc.code}: {exc.message}") from None

    def scope(self, repo: str | None, session_id: str | None = None) -> Scope:
        try:
            if repo == ALL_REPOS:
                return Scope(session_id=session_id)
            where = self.default_repo if repo is None else repo
            if Path(where).expanduser().is_dir():
                where = repo_root(str(Path(where).expanduser()))
            return Scope(repo_id=where, session_id=session_id)
        except KindlingError as exc:
            raise ToolError(f"{exc.code}: {exc.message}") from None

    # ------------------------------------------------------------------ tools

    def retrieve(
        self,
        query: Annotated[str, Field(description="What you want to know, in plain words.")],
        repo: RepoArg = None,
        session_id: Annotated[str | None, Field(description="Only this session.")] = None,
        token_budget: Annotated[
            int | None, Field(description="Cap on candidate tokens (4 chars a token).", ge=0)
        ] = 2000,
        max_candidates: Annotated[int, Field(ge=1, le=100)] = 10,
    ) -> CallToolResult:
        """Search Kindling's memory: active pins, the current session summary, then the
        observations and summaries that best match the query, each with score, snippet and
        provenance (id, kind, time, session). An empty query lists recent work."""
        scope = self.scope(repo, session_id)
        with self._kd() as kd:
            try:
                result = kd.retrieve(
                    query, scope=scope, token_budget=token_budget, max_candidates=max_candidates
                )
            except KindlingError as exc:
                raise ToolError(f"{exc.code}: {exc.message}") from None
        return _result(render_retrieve(result), _trimmed(result.to_dict()))

    def remember(
        self,
        content: Annotated[str, Field(description="The fact, decision or finding to keep.")],
        kind: Annotated[
            Literal["message", "error", "command", "file_diff", "tool_call"],
            Field(description="message for notes and decisions; error for a failure."),
        ] = "message",
        pin: Annotated[bool, Field(description="Also pin it so it is always retrieved.")] = False,
        reason: Annotated[str | None, Field(description="Why it is pinned.")] = None,
        repo: RepoArg = None,
    ) -> CallToolResult:
        """Store a note in Kindling's memory for this repository (optionally pinned)."""
        scope = self.scope(repo)
        with self._kd() as kd:
            try:
                with kd.batch():
                    obs = kd.append_observation(
                        kind=kind, content=content, scope=scope, provenance={"source": "mcp"}
                    )
                    pinned = kd.pin("observation", obs.id, reason=reason) if pin else None
            except KindlingError as exc:
                raise ToolError(f"{exc.code}: {exc.message}") from None
        text = f"Remembered {obs.kind} {obs.id}" + (f", pinned as {pinned.id}" if pinned else "")
        data = {"observation": obs.to_dict(), "pin": pinned.to_dict() if pinned else None}
        return _result(text, data)

    def pin(
        self,
        target_id: Annotated[str, Field(description="Id of an observation or summary.")],
        target_type: Literal["observation", "summary"] = "observation",
        reason: str | None = None,
        ttl_minutes: Annotated[
            int | None, Field(description="Expire after this long.", ge=1)
        ] = None,
    ) -> CallToolResult:
        """Pin an observation or summary so retrieval always shows it (until unpinned)."""
        with self._kd() as kd:
            try:
                ttl = ttl_minutes * 60_000 if ttl_minutes else None
                made = kd.pin(target_type, target_id, reason=reason, ttl_ms=ttl)
            except KindlingError as exc:
                raise ToolError(f"{exc.code}: {exc.message}") from None
        return _result(f"Pinned {target_type} {target_id} as {made.id}", made.to_dict())

    def unpin(self, pin_id: Annotated[str, Field(description="Id of the pin.")]) -> CallToolResult:
        """Remove a pin (the pinned observation or summary itself stays)."""
        with self._kd() as kd:
            try:
                kd.unpin(pin_id)
            except KindlingError as exc:
                raise ToolError(f"{exc.code}: {exc.message}") from None
        return _result(f"Unpinned {pin_id}", {"unpinned": pin_id})

    def forget(
        self, observation_id: Annotated[str, Field(description="Id of the observation.")]
    ) -> CallToolResult:
        """Redact an observation for good: its content becomes [redacted] and it leaves the
        search index. Cannot be undone."""
        with self._kd() as kd:
            try:
                obs = kd.forget(observation_id)
            except KindlingError as exc:
                raise ToolError(f"{exc.code}: {exc.message}") from None
        return _result(f"Forgot observation {obs.id}", obs.to_dict())

    def recent(
        self,
        limit: Annotated[int, Field(ge=1, le=200)] = 10,
        kind: Literal["message", "error", "command", "file_diff", "tool_call"] | None = None,
        repo: RepoArg = None,
    ) -> CallToolResult:
        """The newest observations in this repository, newest first."""
        scope = self.scope(repo)
        with self._kd() as kd:
            try:
                found = kd.list_observations(kind=kind, scope=scope, limit=limit)
            except KindlingError as exc:
                raise ToolError(f"{exc.code}: {exc.message}") from None
        lines = [_obs_line(o) for o in found] or ["(nothing recorded yet)"]
        text = f"{len(found)} recent observation(s):\n" + "\n".join(lines)
        return _result(text, {"observations": [o.to_dict() for o in found]})

    def status(self) -> CallToolResult:
        """Where the database is, the default repository, and what the store holds."""
        with self._kd() as kd:
            stats = kd.stats()
            open_here = kd.list_capsules(status="open", scope=self.scope(None), limit=100)
        data = {
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
        total = sum(stats.observations_by_kind.values())
        text = (
            f"Kindling {__version__}, database {self.db} (schema v{stats.schema_version})\n"
            f"default repository: {self.default_repo}\n"
            f"{total} observations, {stats.summaries} summaries, {stats.pins} pins, "
            f"{sum(stats.capsules_by_status.values())} capsules"
        )
        return _result(text, data)


def _trim_content(entity: dict[str, Any]) -> None:
    content = entity.get("content")
    if isinstance(content, str) and len(content) > STRUCTURED_CONTENT_CHARS:
        entity["content"] = _line(content, STRUCTURED_CONTENT_CHARS)
        entity["contentTruncatedFromChars"] = len(content)


def _trimmed(data: dict[str, Any]) -> dict[str, Any]:
    """Bound every entity's content: one pinned 1 MiB log must not flood the agent's context
    (the full text stays one ``recent`` or CLI call away, by id)."""
    for pin in data["pins"]:
        _trim_content(pin["target"])
    if data["currentSummary"] is not None:
        _trim_content(data["currentSummary"])
    for candidate in data["candidates"]:
        _trim_content(candidate["entity"])
    return data


def _obs_line(o: Observation) -> str:
    session = f" session={o.scope.session_id}" if o.scope.session_id else ""
    return f"- [{o.kind}] {o.id} {_iso(o.ts)}{session}: {_line(o.content, 200)}"


def render_retrieve(result: RetrieveResult) -> str:
    """The three tiers as text: what each item is, why it is here, where it came from."""
    prov = result.provenance
    out: list[str] = []
    if result.pins:
        out.append("Pinned:")
        for p in result.pins:
            reason = f" ({p.pin.reason})" if p.pin.reason else ""
            out.append(f"- pin {p.pin.id}{reason} -> {p.pin.target_type} {p.target.id}")
            out.append(f"  {_line(p.target.content)}")
    if result.current_summary is not None:
        s = result.current_summary
        out.append(f"Current session summary {s.id} (confidence {s.confidence:.2f}):")
        out.append(f"  {_line(s.content)}")
    out.append(
        f"Candidates: {prov.returned_candidates} of {prov.total_candidates}"
        + (" (cut to the token budget)" if prov.truncated_due_to_token_budget else "")
        + f", query read as {prov.query_mode}"
        + (f": {prov.fts_query}" if prov.fts_query else "")
    )
    for i, c in enumerate(result.candidates, 1):
        e = c.explanation
        entity = c.entity
        if isinstance(entity, Observation):
            where = f"{entity.kind} {entity.id} {_iso(entity.ts)}"
            if entity.scope.session_id:
                where += f" session={entity.scope.session_id}"
        else:
            where = f"summary {entity.id} of capsule {entity.capsule_id} {_iso(entity.created_at)}"
        out.append(
            f"{i}. {where} | score {c.score:.3f} (relevance {e.relevance:.2f}, "
            f"recency {e.recency:.2f})"
        )
        out.append(f"   {_line(c.match_context or entity.content)}")
    if not result.candidates and not result.pins and result.current_summary is None:
        out.append("Nothing in memory matches.")
    return "\n".join(out)


def build_server(
    db: Path, cwd: str | None = None, opener: Callable[[], Kindling] | None = None
) -> MCPServer[Any]:
    tools = KindlingTools(db, repo_root(cwd), opener)
    server: MCPServer[Any] = MCPServer(
        name="kindling",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
    )
    server.add_tool(tools.retrieve, name="retrieve", title="Search memory", annotations=READ_ONLY)
    server.add_tool(tools.remember, name="remember", title="Remember a note", annotations=ADDITIVE)
    server.add_tool(tools.pin, name="pin", title="Pin a memory", annotations=ADDITIVE)
    server.add_tool(tools.unpin, name="unpin", title="Unpin", annotations=DESTRUCTIVE)
    server.add_tool(tools.forget, name="forget", title="Forget (redact)", annotations=DESTRUCTIVE)
    server.add_tool(tools.recent, name="recent", title="Recent work", annotations=READ_ONLY)
    server.add_tool(tools.status, name="status", title="Memory status", annotations=READ_ONLY)
    return server


def serve(db: Path, opener: Callable[[], Kindling] | None = None) -> None:
    """Serve over stdio until the client hangs up."""
    build_server(db, opener=opener).run("stdio")

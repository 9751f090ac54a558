"""The MCP server: the tools of ``tools`` registered with the official SDK (``mcp`` 2.x,
``MCPServer``), each strict about its arguments and carrying read-only / destructive
annotations and an ``outputSchema`` (``kindling.mcp.schemas``).

Adapter: must not be imported by the core.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import ToolAnnotations
from pydantic import ValidationError

from kindling import __version__
from kindling.config import repo_root
from kindling.mcp.schemas import OUTPUT_SCHEMAS, plain_error
from kindling.mcp.tools import KindlingTools
from kindling.memory import Memory

INSTRUCTIONS = """Kindling is this project's local memory: what earlier sessions ran, changed,
learned and decided. Call `retrieve` with a question before re-investigating something that
may have been solved before; open a hit with `timeline` (what happened around it) or `get`
(the whole item); `remember` a decision or finding worth keeping; `pin` what must stay visible.
Results carry ids, kinds, ages, scores and snippets; treat them as notes, not as truth."""

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
ADDITIVE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)


class StrictTool(Tool):
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


def make_tool(fn: Callable[..., Any], name: str, title: str, annotations: ToolAnnotations) -> Tool:
    base = Tool.from_function(
        fn,
        name=name,
        title=title,
        description=inspect.cleandoc(fn.__doc__ or ""),
        annotations=annotations,
    )
    tool = StrictTool(**dict(base))
    tool.parameters["additionalProperties"] = False
    tool.fn_metadata.output_schema = OUTPUT_SCHEMAS[name]
    return tool


def build_server(
    db: Path, cwd: str | None = None, opener: Callable[[], Memory] | None = None
) -> MCPServer[Any]:
    t = KindlingTools(db, repo_root(cwd), opener)
    tools = [
        make_tool(t.retrieve, "retrieve", "Search memory", READ_ONLY),
        make_tool(t.remember, "remember", "Remember a note", ADDITIVE),
        make_tool(t.pin, "pin", "Pin an observation or summary", ADDITIVE),
        make_tool(t.unpin, "unpin", "Unpin", DESTRUCTIVE),
        make_tool(t.forget, "forget", "Forget an observation", DESTRUCTIVE),
        make_tool(t.recent, "recent", "Recent work", READ_ONLY),
        make_tool(t.status, "status", "Memory status", READ_ONLY),
        make_tool(t.timeline, "timeline", "Steps around a hit", READ_ONLY),
        make_tool(t.get, "get", "Whole items by id", READ_ONLY),
    ]
    return MCPServer(
        name="kindling",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        tools=tools,
    )


def serve(db: Path, opener: Callable[[], Memory] | None = None) -> None:
    """Serve over stdio until the client hangs up; after ``kindling.mcp.front`` answered the
    handshake, from where it left off."""
    import kindling.mcp.handoff as handoff

    server = build_server(db, opener=opener)
    taken = handoff.HANDED_OFF
    if taken is None:
        server.run("stdio")
        return
    import sys

    import anyio
    from mcp.server.stdio import stdio_server

    replayed = handoff.ReplayedStdin(taken.replay(), sys.stdin.buffer)
    stdin = anyio.wrap_file(replayed)  # type: ignore[arg-type]  # readline and iteration
    stdout = anyio.wrap_file(handoff.FilteredStdout(sys.stdout.buffer))  # type: ignore[arg-type]

    async def run() -> None:
        low = server._lowlevel_server
        async with stdio_server(stdin, stdout) as (read, write):
            await low.run(read, write, low.create_initialization_options())

    anyio.run(run)

"""The compact, model-readable shapes every MCP tool answers with.

What the model reads is the structured content (Claude Code hands the model
``structuredContent``, not the text), so items are brief: id, kind, age, session, path and a
one-line snippet; the text block carries the same object serialized as JSON, as the MCP
specification asks. A ``KindlingError`` becomes a tool error with its code and message.

Adapter: must not be imported by the core.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent

from kindling.errors import KindlingError
from kindling.mcp.schemas import age
from kindling.model import Observation, Summary

SNIPPET_CHARS = 300


def line(text: str, limit: int = SNIPPET_CHARS) -> str:
    """``text`` on one line, at most ``limit`` characters (an ellipsis marks a cut)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def result(data: dict[str, Any]) -> CallToolResult:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def fail(exc: KindlingError) -> ToolError:
    return ToolError(f"{exc.code}: {exc.message}")


def brief(entity: Observation | Summary, now: int) -> dict[str, Any]:
    """id, kind, age, and where an observation happened (session, path) when known."""
    if isinstance(entity, Observation):
        out: dict[str, Any] = {"id": entity.id, "kind": entity.kind, "age": age(entity.ts, now)}
        if entity.scope.session_id:
            out["session"] = entity.scope.session_id
        path = entity.provenance.get("path")
        if isinstance(path, str) and path:
            out["path"] = path
        return out
    return {"id": entity.id, "kind": "summary", "age": age(entity.created_at, now)}

"""OpenCode: Kindling's MCP server in ``opencode.json``.

OpenCode reads MCP servers from ``"mcp"``: ``{"kindling": {"type": "local", "command":
["kindling", "mcp"], "enabled": true}}`` (the ``McpLocalConfig`` of ``opencode-ai`` 1.18's
config schema: ``command`` is one array, program and arguments). It rejects the
``mcpServers`` shape of ``.mcp.json``. Files: ``<repo>/opencode.json`` (project scope) or
``~/.config/opencode/opencode.json`` (user scope); the user's other keys stay.

OpenCode has no command hooks: it is extended by JavaScript plugins, so Kindling records
nothing from it by itself; its tools reach the memory over MCP. ``EVENTS`` is empty.

Must not import click, the CLI, the MCP server, the engine or a store; only the standard
library at module level.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from kindling.agents.base import FileChange, Scope

NAME = "opencode"
LABEL = "OpenCode"
FLAG = "--opencode"
EVENTS: dict[str, str] = {}
SCHEMA = "https://opencode.ai/config.json"


def canonical(data: dict[str, Any], event: str) -> dict[str, Any] | None:
    return None


def render(event: str, output: dict[str, Any]) -> dict[str, Any] | None:
    return None


def config_path(scope: Scope, cwd: str | None = None) -> Path:
    from pathlib import Path

    from kindling.config import repo_root

    if scope == "user":
        return Path.home() / ".config" / "opencode" / "opencode.json"
    return Path(repo_root(cwd)) / "opencode.json"


def install(scope: Scope, cwd: str | None = None, exe: str | None = None) -> list[FileChange]:
    from kindling.agents import base

    path = config_path(scope, cwd)
    data = base.load_json(path)
    result = base.copy(data)
    if not path.exists():
        result["$schema"] = SCHEMA
    words = base.exe_words(exe or base.kindling_executable())
    entry = {"type": "local", "command": [*words, "mcp"], "enabled": True}
    items = base.merge_mcp(result, "mcp", entry, path)
    return [base.save(path, data, result, items)]


def uninstall(scope: Scope, cwd: str | None = None) -> list[FileChange]:
    from kindling.agents import base

    path = config_path(scope, cwd)
    data = base.load_json(path)
    result = base.copy(data)
    items = base.remove_mcp(result, "mcp", path)
    return [base.save(path, data, result, items)]

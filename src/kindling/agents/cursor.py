"""Cursor: Kindling's MCP server in ``.cursor/mcp.json`` and its hooks in ``.cursor/hooks.json``;
Cursor's hook payloads become the canonical events.

Payloads (Cursor's hooks documentation, version 1 of ``hooks.json``): every input has
``conversation_id``, ``generation_id``, ``hook_event_name`` and ``workspace_roots``;
``beforeSubmitPrompt`` adds ``prompt``; ``afterShellExecution`` ``command``, ``cwd``,
``output``, ``duration``; ``afterFileEdit`` ``file_path`` and ``edits`` (``old_string``,
``new_string``); ``afterMCPExecution`` ``tool_name``, ``tool_input`` and ``result_json``
(JSON text); ``afterAgentResponse`` ``text``; ``stop`` ``status`` ("completed", "aborted",
"error"). The session is the conversation; the working directory its first workspace root.

Mapping: a shell command -> Bash, a file edit -> Edit (its edits in order), an MCP call ->
that tool, the agent's response -> Stop (its text is the summary so far), ``stop`` with status
"error" -> StopFailure. Cursor's own reads (``beforeReadFile``) are not recorded. Cursor has
no documented way for a hook to add context at session start, so Kindling prints nothing and
Cursor reaches the memory over MCP.

Checked with Cursor's own client code, its SDK's local agent (``@cursor/sdk``,
tests/test_cursor_sdk.py): it loads both files, starts `kindling mcp` and lists its tools, and
sends the payloads above (preCompact not exercised); it runs sessionStart, beforeSubmitPrompt,
the tool hooks, stop and sessionEnd itself, and afterAgentResponse when Cursor's backend asks.

Files: ``<repo>/.cursor/`` (project scope) or ``~/.cursor/`` (user scope): ``mcp.json``
(``mcpServers.kindling``) and ``hooks.json`` (``{"version": 1, "hooks": {EVENT: [{"command":
...}]}}``). The user's other keys and hooks stay. Cursor starts an MCP server with a few
variables (HOME, PATH, SHELL, TERM) and the server's ``env``, unlike the hooks, which get its
whole environment: the server's ``env`` forwards Kindling's variables (``config.SERVER_ENV``)
as ``${NAME:-}``, which Cursor expands to the variable or to "" (SDK 1.0.32), so `kindling mcp`
opens the store the hooks write to. ``config.setting`` reads "" and a placeholder a client left
unexpanded as unset.

Must not import click, the CLI, the MCP server, the engine or a store; only the standard
library at module level.
"""

from __future__ import annotations

import json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from kindling.agents.base import FileChange, Scope

NAME = "cursor"
LABEL = "Cursor"
FLAG = "--cursor"
# The hooks ``init --cursor`` installs, and the Cursor event each one maps to.
HOOKS = {
    "sessionStart": "SessionStart",
    "beforeSubmitPrompt": "UserPromptSubmit",
    "afterShellExecution": "PostToolUse",
    "afterFileEdit": "PostToolUse",
    "afterMCPExecution": "PostToolUse",
    "afterAgentResponse": "Stop",
    "stop": "StopFailure",
    "preCompact": "PreCompact",
    "sessionEnd": "SessionEnd",
}
EVENTS = HOOKS


def _json(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def canonical(data: dict[str, Any], event: str) -> dict[str, Any] | None:
    roots = data.get("workspace_roots")
    root = roots[0] if isinstance(roots, list) and roots and isinstance(roots[0], str) else None
    out: dict[str, Any] = {
        "session_id": data.get("conversation_id") or data.get("session_id"),
        "cwd": data.get("cwd") if isinstance(data.get("cwd"), str) else root,
        "transcript_path": data.get("transcript_path"),
    }
    if event == "beforeSubmitPrompt":
        out["prompt"] = data.get("prompt")
    elif event == "afterShellExecution":
        out["tool_name"] = "Bash"
        out["tool_input"] = {"command": data.get("command")}
        out["tool_response"] = {"stdout": data.get("output") or "", "stderr": ""}
    elif event == "afterFileEdit":
        edits = [e for e in data.get("edits") or [] if isinstance(e, dict)]
        out["tool_name"] = "Edit"
        out["tool_input"] = {
            "file_path": data.get("file_path"),
            "old_string": "\n".join(str(e.get("old_string") or "") for e in edits),
            "new_string": "\n".join(str(e.get("new_string") or "") for e in edits),
        }
        out["tool_response"] = {}
    elif event == "afterMCPExecution":
        tool_input = _json(data.get("tool_input"))
        out["tool_name"] = data.get("tool_name")
        out["tool_input"] = tool_input if isinstance(tool_input, dict) else {}
        out["tool_response"] = _json(data.get("result_json"))
    elif event == "afterAgentResponse":
        out["last_assistant_message"] = data.get("text")
    elif event == "stop":
        if data.get("status") != "error":
            return None  # a turn that ended well left its summary at afterAgentResponse
        out["error"] = "error"
    elif event == "preCompact":
        out["trigger"] = data.get("trigger")
    return out


def render(event: str, output: dict[str, Any]) -> dict[str, Any] | None:
    return None


def folder(scope: Scope, cwd: str | None = None) -> Path:
    from kindling.agents.base import base_dir

    return base_dir(scope, ".cursor", cwd)


def _ours(entry: Any, event: str) -> bool:
    from kindling.agents.base import is_hook_command

    return isinstance(entry, dict) and is_hook_command(entry.get("command"), NAME, event)


def _hooks(path: Path, exe: str | None, *, remove: bool) -> FileChange:
    from kindling.agents import base
    from kindling.errors import InvalidInputError

    data = base.load_json(path)
    hooks = base.object_at(data, "hooks", path) or {}
    if any(not isinstance(v, list) for v in hooks.values()):
        raise InvalidInputError(f'each "hooks" event in {path} must be a list; left untouched')
    result = base.copy(data)
    items: list[str] = []
    table: dict[str, Any] = result.setdefault("hooks", {})
    for event in HOOKS:
        entries = table.get(event, [])
        kept = [e for e in entries if not _ours(e, event)]
        if remove:
            if len(kept) != len(entries):
                items.append(event)
                if kept:
                    table[event] = kept
                else:
                    del table[event]
            continue
        want = {"command": base.hook_command(exe or "kindling", NAME, event)}
        if [e for e in entries if _ours(e, event)] != [want]:
            table[event] = [*kept, want]
            items.append(event)
    if remove and not table:
        del result["hooks"]
    if not remove:
        result.setdefault("version", 1)
    return base.save(path, data, result, items)


def _mcp(path: Path, exe: str | None, *, remove: bool) -> FileChange:
    from kindling.agents import base

    data = base.load_json(path)
    result = base.copy(data)
    if remove:
        items = base.remove_mcp(result, "mcpServers", path)
    else:
        from kindling.config import SERVER_ENV

        words = base.exe_words(exe or "kindling")
        ours = {name: f"${{{name}:-}}" for name in SERVER_ENV}  # the variable, or ""
        entry = {"command": words[0], "args": [*words[1:], "mcp"], "env": ours}
        items = base.merge_mcp(result, "mcpServers", entry, path)
    return base.save(path, data, result, items)


def install(scope: Scope, cwd: str | None = None, exe: str | None = None) -> list[FileChange]:
    from kindling.agents.base import kindling_executable

    exe = exe or kindling_executable()
    where = folder(scope, cwd)
    return [
        _mcp(where / "mcp.json", exe, remove=False),
        _hooks(where / "hooks.json", exe, remove=False),
    ]


def uninstall(scope: Scope, cwd: str | None = None) -> list[FileChange]:
    where = folder(scope, cwd)
    return [
        _mcp(where / "mcp.json", None, remove=True),
        _hooks(where / "hooks.json", None, remove=True),
    ]

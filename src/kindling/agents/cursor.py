"""Cursor: Kindling's MCP server in ``.cursor/mcp.json`` and its hooks in ``.cursor/hooks.json``;
Cursor's hook payloads become the canonical events.

Payloads (Cursor's hooks documentation, version 1 of ``hooks.json``): every input has
``conversation_id``, ``generation_id``, ``hook_event_name`` and ``workspace_roots``;
``beforeSubmitPrompt`` adds ``prompt``; ``afterShellExecution`` ``command``, ``cwd``,
``output``, ``duration``; ``afterFileEdit`` ``file_path`` and ``edits`` (``old_string``,
``new_string``); ``afterMCPExecution`` ``tool_name``, ``tool_input``, ``result_json`` (JSON
text) and ``mcp_server_name`` (SDK 1.0.32); ``afterAgentResponse`` ``text``; ``stop``
``status`` ("completed", "aborted", "error"). The session is the conversation; the working
directory its first workspace root.

Mapping: a shell command -> Bash, a file edit -> Edit (its edits in order), an MCP call ->
that tool (Kindling's own: ``mcp__kindling__<tool>``, which ``skip_tools`` leaves out), the
agent's response -> Stop (its text is the summary so far), ``stop`` with status "error" ->
StopFailure. Cursor's own reads (``beforeReadFile``) are not recorded. Cursor has no
documented way for a hook to add context at session start, so Kindling prints nothing and
Cursor reaches the memory over MCP.

Checked with Cursor's own client code, its SDK's local agent (``@cursor/sdk``,
tests/agents/test_cursor_sdk.py): it loads both files, starts `kindling mcp` and lists its tools,
and
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

Claude Code's hooks: Cursor also runs the hooks of ``.claude/settings.json`` (project and
user), with its own payloads (``cursor_version`` is set; ``hook_event_name`` is Cursor's:
``sessionStart``, ``beforeSubmitPrompt``, ``postToolUse`` (``tool_name`` "Shell", "Write",
..., ``tool_input``, ``tool_output`` as JSON text, ``tool_use_id``), ``stop``,
``sessionEnd``). ``kindling hook`` hands such a payload here (``visiting``): when
Kindling's Cursor hooks are installed where Cursor loads them (``records_itself``), they
record the event and the Claude Code hook records nothing (the two runs cannot share ids:
``afterShellExecution`` carries no ``tool_use_id``, and a prompt has no id at all); otherwise
the event is recorded as Cursor's, from ``postToolUse`` for the tools (the agent's answer is
not among them: Cursor sends ``afterAgentResponse`` to its own hooks only, so no summary), and
an event Kindling does not translate (``subagentStop``) is a line in ``hooks.log``.

Must not import click, the CLI, the MCP server, the engine or a store; only the standard
library at module level.
"""

from __future__ import annotations

import json

from kindling.agents.defaults import nothing_missed, nothing_pending, nothing_to_note
from kindling.agents.events import DEFAULT_AGENT

# The server name ``init`` gives Kindling in mcp.json. Cursor names the server of an MCP call
# (``mcp_server_name``) beside a bare ``tool_name``, and its matcher sees only "MCP:<tool>",
# which cannot tell Kindling's ``get`` from another server's: the hook starts, records nothing.
OWN_SERVER = "kindling"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from kindling.agents.base import FileChange, Scope

NAME = "cursor"
LABEL = "Cursor"
FLAG = "--cursor"
WRITES = ".cursor/mcp.json (mcpServers), .cursor/hooks.json"
# What the agent needs before its hooks run, said by `init` and `doctor` (None: nothing).
SETUP_NOTE: str | None = None
# The hooks ``init --cursor`` installs, and the canonical event each one maps to.
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
# Every Cursor event Kindling translates: also ``postToolUse``, which reaches Claude Code's
# hooks only (installed in Cursor's own file it would record each tool call twice).
EVENTS = {**HOOKS, "postToolUse": "PostToolUse"}
HOST = DEFAULT_AGENT  # Claude Code, whose hooks Cursor runs too, with its own payloads
SHELL_TOOL = "Shell"  # Cursor's name for Claude Code's Bash (its hook loader maps one to the other)


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
        name = data.get("tool_name")
        if data.get("mcp_server_name") == OWN_SERVER and isinstance(name, str):
            name = f"mcp__{OWN_SERVER}__{name}"  # Kindling's own tool: skip_tools leaves it out
        out["tool_name"] = name
        out["tool_input"] = tool_input if isinstance(tool_input, dict) else {}
        out["tool_response"] = _json(data.get("result_json"))
    elif event == "postToolUse":
        _tool(data, out)
    elif event == "afterAgentResponse":
        out["last_assistant_message"] = data.get("text")
    elif event == "stop":
        if data.get("status") != "error":
            return None  # a turn that ended well left its summary at afterAgentResponse
        out["error"] = "error"
    elif event == "preCompact":
        out["trigger"] = data.get("trigger")
    return out


def _tool(data: dict[str, Any], out: dict[str, Any]) -> None:
    """``postToolUse`` (what Claude Code's PostToolUse hooks get from Cursor) as PostToolUse,
    or PostToolUseFailure for a shell command that exited non-zero."""
    tool_input = _json(data.get("tool_input"))
    tool_input = tool_input if isinstance(tool_input, dict) else {}
    output = _json(data.get("tool_output"))
    out["tool_use_id"] = data.get("tool_use_id")
    if data.get("tool_name") != SHELL_TOOL:
        out["tool_name"] = data.get("tool_name")
        out["tool_input"] = tool_input
        out["tool_response"] = output
        return
    result = output if isinstance(output, dict) else {"output": output}
    text = result.get("output") if isinstance(result.get("output"), str) else ""
    code = result.get("exitCode")
    out["tool_name"] = "Bash"
    out["tool_input"] = {"command": tool_input.get("command")}
    if isinstance(code, int) and not isinstance(code, bool) and code != 0:
        out["hook_event_name"] = "PostToolUseFailure"
        out["error"] = f"Exit code {code}\n{text}"
    else:
        out["tool_response"] = {"stdout": text, "stderr": ""}


def visiting(host: str, data: dict[str, Any]) -> bool | None:
    """A payload Cursor sent to a hook of Claude Code's: recorded by Kindling's Cursor hooks
    when they are installed where Cursor loads them (True), else by that hook as Cursor's."""
    if host != HOST or not sent_by_cursor(data):
        return None
    return records_itself(data)


def sent_by_cursor(data: dict[str, Any]) -> bool:
    """True for a payload Cursor sent (to a hook of Claude Code's, when another agent's hook
    receives it): Cursor's payloads, and only they, carry ``cursor_version``."""
    return isinstance(data.get("cursor_version"), str)


def records_itself(data: dict[str, Any]) -> bool:
    """True when Kindling's Cursor hooks are in a ``hooks.json`` Cursor loads for this payload:
    the user's (``~/.cursor/``), or a workspace root's (or its repository's) ``.cursor/``. A
    file that does not parse counts as without them (Cursor cannot run them either)."""
    from pathlib import Path

    from kindling.agents.base import load_json
    from kindling.errors import InvalidInputError

    roots = data.get("workspace_roots")
    roots = [r for r in roots if isinstance(r, str) and r] if isinstance(roots, list) else []
    places = [folder("user")]
    for root in roots:
        places += [Path(root) / ".cursor", folder("project", root)]
    for place in dict.fromkeys(places):
        try:
            hooks = load_json(place / "hooks.json").get("hooks")
        except InvalidInputError:
            continue
        for event, entries in hooks.items() if isinstance(hooks, dict) else ():
            if isinstance(entries, list) and any(_ours(e, event) for e in entries):
                return True
    return False


def render(event: str, output: dict[str, Any]) -> dict[str, Any] | None:
    return None


def hook_file(scope: Scope, cwd: str | None = None) -> Path:
    """The file that holds Kindling's hooks once ``install`` ran (``kindling doctor``)."""
    return folder(scope, cwd) / "hooks.json"


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


def install(
    scope: Scope,
    cwd: str | None = None,
    exe: str | None = None,
    *,
    skip_tools: tuple[str, ...] = (),  # its matchers leave out Kindling's own tools only
) -> list[FileChange]:
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


missed = earlier = nothing_missed  # its hooks are synchronous: nothing to reconcile
noted = nothing_to_note
pending = nothing_pending


if TYPE_CHECKING:  # this module is an Agent (mypy checks it)
    import kindling.agents.cursor as _self
    from kindling.agents.protocol import Agent

    _agent: Agent = _self

"""Gemini CLI: ``.gemini/settings.json`` gets Kindling's MCP server and its hooks, and Gemini
CLI's hook payloads become the canonical events.

Payloads (``packages/core/src/hooks/hookEventHandler.ts`` of ``@google/gemini-cli`` 0.61):
every input has ``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name`` and
``timestamp``; SessionStart adds ``source``, SessionEnd ``reason``, BeforeAgent ``prompt``,
AfterAgent ``prompt`` and ``prompt_response``, PreCompress ``trigger``, AfterTool ``tool_name``,
``tool_input``, ``tool_response`` (``{llmContent, returnDisplay, error}``) and, for an MCP
tool, ``mcp_context``. Gemini CLI waits for every hook, so none is lost when it exits, and
it reads ``hookSpecificOutput.additionalContext`` from SessionStart and BeforeAgent, the
shape Kindling prints.

Tool names are translated to Claude Code's (``run_shell_command`` -> Bash, ``replace`` ->
Edit, ``write_file`` -> Write, ``read_file`` -> Read, ...), so the common mapping and the
``skip_tools`` setting apply unchanged; an MCP tool becomes ``mcp__<server>__<tool>``.

Settings: ``mcpServers.kindling = {"command": "kindling", "args": ["mcp"]}``, and per event one
group ``{"hooks": [{"type": "command", "name": "kindling", "command": "kindling hook --agent
gemini EVENT", "timeout": 10000}]}`` (milliseconds), and Kindling's variables (``KINDLING_TOKEN``,
...) in ``security.environmentVariableRedaction.allowed``: Gemini CLI strips them from the
MCP server's environment otherwise. The user's other keys stay.

Must not import click, the CLI, the MCP server, the engine or a store; only the standard
library at module level.
"""

from __future__ import annotations

from kindling.agents.defaults import (
    never_visiting,
    nothing_missed,
    nothing_pending,
    nothing_to_note,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from kindling.agents.base import FileChange, Scope

NAME = "gemini"
LABEL = "Gemini CLI"
FLAG = "--gemini"
WRITES = ".gemini/settings.json (mcpServers, hooks)"
# What the agent needs before its hooks run, said by `init` and `doctor` (None: nothing).
SETUP_NOTE: str | None = None
EVENTS = {
    "SessionStart": "SessionStart",
    "BeforeAgent": "UserPromptSubmit",
    "AfterTool": "PostToolUse",
    "AfterAgent": "Stop",
    "PreCompress": "PreCompact",
    "SessionEnd": "SessionEnd",
}
TOOLS = {
    "run_shell_command": "Bash",
    "replace": "Edit",
    "write_file": "Write",
    "read_file": "Read",
    "read_many_files": "Read",
    "glob": "Glob",
    "search_file_content": "Grep",
    "grep_search": "Grep",
    "list_directory": "LS",
    "write_todos": "TodoWrite",
    "web_fetch": "WebFetch",
    "google_web_search": "WebSearch",
}
# The events it installs: PreCompress fires before every model request and leaves nothing
# (Gemini CLI's summary comes from AfterAgent), so its hook would only cost a process start.
HOOKS = tuple(e for e in EVENTS if e != "PreCompress")
OWN_TOOLS = "mcp_kindling_"  # Kindling's own MCP tools, as Gemini CLI names them


def tool_matcher(skip_tools: tuple[str, ...]) -> str:
    """AfterTool's matcher (a JavaScript regex on Gemini's tool name): not Kindling's own MCP
    tools, nor the built-in tools whose Claude Code name a plain entry (or glob) of
    ``skip_tools`` names (``Read`` is ``read_file``...), so Gemini CLI starts no hook that
    would record nothing. ``Tool:command`` entries stay in the hook (the matcher sees only the
    tool's name)."""
    import re
    from fnmatch import fnmatchcase

    plain = [t for t in skip_tools if ":" not in t and t.strip()]
    names = sorted(g for g, c in TOOLS.items() if any(fnmatchcase(c, t) for t in plain))
    skipped = f"(?:{'|'.join(re.escape(n) for n in names)})$|" if names else ""
    return f"^(?!{skipped}{OWN_TOOLS}).*"


SETTINGS_KEYS = ("enabled", "disabled", "notifications")  # Gemini's own keys under "hooks"
TIMEOUT_MS = 10_000


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # Part[]: the text parts
        return "\n".join(_text(v) for v in value)
    if isinstance(value, dict):
        if isinstance(value.get("text"), str):
            return str(value["text"])
        return _text(value.get("functionResponse", {}).get("response", {}).get("output"))
    return ""


def _tool(data: dict[str, Any], out: dict[str, Any]) -> str:
    name = data.get("tool_name") if isinstance(data.get("tool_name"), str) else "tool"
    raw = data.get("tool_input")
    tool_input = dict(raw) if isinstance(raw, dict) else {}
    mcp = data.get("mcp_context")
    if isinstance(mcp, dict) and isinstance(mcp.get("server_name"), str):
        tool = mcp.get("tool_name") if isinstance(mcp.get("tool_name"), str) else name
        name = f"mcp__{mcp['server_name']}__{tool}"
    else:
        name = TOOLS.get(str(name), str(name))
    out["tool_name"] = name
    out["tool_input"] = tool_input
    response = data.get("tool_response")
    response = response if isinstance(response, dict) else {"llmContent": response}
    error = response.get("error")
    text = _text(response.get("llmContent")) or _text(response.get("returnDisplay"))
    if error:
        message = error.get("message") if isinstance(error, dict) else error
        out["error"] = str(message or text or "failed")
        return "PostToolUseFailure"
    if name != "Bash":
        out["tool_response"] = text
        return "PostToolUse"
    output, code = _shell(text, response.get("returnDisplay"))
    if code:
        out["error"] = f"Exit code {code}\n{output}"
        return "PostToolUseFailure"
    out["tool_response"] = {"stdout": output, "stderr": ""}
    return "PostToolUse"


def _shell(text: str, display: Any) -> tuple[str, int]:
    """A shell result's output and exit code. Gemini CLI tells the model "Output: ...",
    "Exit Code: N" and the process group, inside ``<untrusted_context>``; the user sees
    ``returnDisplay``, the output itself."""
    import re

    inner = re.sub(r"</?untrusted_context>", "", text).strip()
    found = re.search(r"^Exit Code: (-?\d+)", inner, re.MULTILINE)
    code = int(found.group(1)) if found else 0
    if isinstance(display, str) and display.strip():
        return display.strip(), code
    kept = [
        line[len("Output: ") :] if line.startswith("Output: ") else line
        for line in inner.splitlines()
        if not line.startswith(("Process Group PGID:", "Exit Code:", "Command:", "Directory:"))
    ]
    return "\n".join(kept).strip(), code


HOOK_CONTEXT = ("<hook_context>", "</hook_context>")


def _block_end(text: str) -> int | None:
    """Where the ``<hook_context>`` block that opens ``text`` ends, matched by depth (a prompt
    recorded before this was fixed can hold blocks of its own); None when it never closes."""
    opening, closing = HOOK_CONTEXT
    depth, at = 0, 0
    while True:
        start, end = text.find(opening, at), text.find(closing, at)
        if end < 0:
            return None
        if 0 <= start < end:
            depth, at = depth + 1, start + len(opening)
        else:
            depth, at = depth - 1, end + len(closing)
            if depth == 0:
                return at


def typed(prompt: str) -> str:
    """The prompt as the user typed it. Headless (``gemini -p``), Gemini CLI puts the context
    a SessionStart hook returned in front of the prompt, ``<hook_context>CONTEXT</hook_context>``
    and a blank line, and hands BeforeAgent that: stored whole, each session's injection would
    hold the last one's, and grow. An unclosed block leaves the prompt as it came."""
    text = prompt.lstrip()
    if not text.startswith(HOOK_CONTEXT[0]):
        return prompt
    while text.startswith(HOOK_CONTEXT[0]):
        end = _block_end(text)
        if end is None:
            return prompt
        text = text[end:].lstrip()
    return text


def canonical(data: dict[str, Any], event: str) -> dict[str, Any] | None:
    out: dict[str, Any] = {
        k: data[k] for k in ("session_id", "transcript_path", "cwd") if k in data
    }
    if event == "SessionStart":
        out["source"] = data.get("source")
    elif event == "BeforeAgent":
        prompt = data.get("prompt")
        out["prompt"] = typed(prompt) if isinstance(prompt, str) else prompt
    elif event == "AfterAgent":
        out["last_assistant_message"] = data.get("prompt_response")
    elif event == "PreCompress":
        out["trigger"] = data.get("trigger")
    elif event == "SessionEnd":
        out["reason"] = data.get("reason")
    elif event == "AfterTool":
        out["hook_event_name"] = _tool(data, out)
    return out


def render(event: str, output: dict[str, Any]) -> dict[str, Any] | None:
    native = {"UserPromptSubmit": "BeforeAgent"}.get(event, event)
    return {"hookSpecificOutput": {**output["hookSpecificOutput"], "hookEventName": native}}


def hook_file(scope: Scope, cwd: str | None = None) -> Path:
    """The file that holds Kindling's hooks once ``install`` ran (``kindling doctor``)."""
    return settings_path(scope, cwd)


def settings_path(scope: Scope, cwd: str | None = None) -> Path:
    from kindling.agents.base import base_dir

    return base_dir(scope, ".gemini", cwd) / "settings.json"


def _ours(entry: Any, event: str) -> bool:
    from kindling.agents.base import is_hook_command

    return isinstance(entry, dict) and is_hook_command(entry.get("command"), NAME, event)


def _allow_env(data: dict[str, Any], path: Path, *, remove: bool) -> list[str]:
    """Let Kindling's variables through Gemini CLI's redaction of an MCP server's environment
    (``security.environmentVariableRedaction.allowed``): it strips every variable whose name
    holds TOKEN (``KINDLING_TOKEN``: team mode fails), and under GitHub Actions all but a
    few. The user's own entries stay; ``remove`` takes out Kindling's, and the objects that
    leaves empty. Returns ["env"] when something changed."""
    from kindling.agents.base import object_at
    from kindling.config import SERVER_ENV
    from kindling.errors import InvalidInputError

    security = object_at(data, "security", path)
    if security is None:
        if remove:
            return []
        security = data["security"] = {}
    redaction = object_at(security, "environmentVariableRedaction", path)
    if redaction is None:
        if remove:
            return []
        redaction = security["environmentVariableRedaction"] = {}
    allowed = redaction.get("allowed", [])
    if not isinstance(allowed, list):
        raise InvalidInputError(
            f'"security.environmentVariableRedaction.allowed" in {path} must be a list; '
            "it was left untouched"
        )
    if remove:
        kept = [name for name in allowed if name not in SERVER_ENV]
    else:
        kept = allowed + [name for name in SERVER_ENV if name not in allowed]
    if kept == allowed and "allowed" in redaction:
        return []
    if kept:
        redaction["allowed"] = kept
    else:
        redaction.pop("allowed", None)
        if not redaction:
            del security["environmentVariableRedaction"]
        if not security:
            del data["security"]
    return ["env"] if kept != allowed else []


def install(
    scope: Scope,
    cwd: str | None = None,
    exe: str | None = None,
    *,
    skip_tools: tuple[str, ...] = (),
) -> list[FileChange]:
    from kindling.agents import base

    path = settings_path(scope, cwd)
    data = base.load_json(path)
    base.check_hook_groups(data, path, SETTINGS_KEYS)
    exe = exe or base.kindling_executable()
    result = base.copy(data)
    words = base.exe_words(exe)
    items = base.merge_mcp(
        result, "mcpServers", {"command": words[0], "args": [*words[1:], "mcp"]}, path
    )
    wanted = {
        event: {
            "type": "command",
            "name": "kindling",
            "command": base.hook_command(exe, NAME, event),
            "timeout": TIMEOUT_MS,
        }
        for event in HOOKS
    }
    hooks = result.setdefault("hooks", {})
    matchers = {"AfterTool": {"matcher": tool_matcher(skip_tools)}}
    items += base.merge_hook_groups(hooks, wanted, matchers, _ours)
    items += base.drop_events(hooks, set(EVENTS) - set(HOOKS), _ours)
    items += _allow_env(result, path, remove=False)
    return [base.save(path, data, result, items)]


def uninstall(scope: Scope, cwd: str | None = None) -> list[FileChange]:
    from kindling.agents import base

    path = settings_path(scope, cwd)
    if not path.exists():
        return [base.FileChange(path, False, None, ())]
    data = base.load_json(path)
    base.check_hook_groups(data, path, SETTINGS_KEYS)
    result = base.copy(data)
    items = base.remove_mcp(result, "mcpServers", path) + base.remove_hook_groups(result, _ours)
    items += _allow_env(result, path, remove=True)
    return [base.save(path, data, result, items)]


missed = earlier = nothing_missed  # its hooks are synchronous: nothing to reconcile
noted = nothing_to_note
visiting = never_visiting
pending = nothing_pending


if TYPE_CHECKING:  # this module is an Agent (mypy checks it)
    import kindling.agents.gemini as _self
    from kindling.agents.protocol import Agent

    _agent: Agent = _self

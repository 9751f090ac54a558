"""Claude Code: its hooks are the canonical events, its settings file gets Kindling's hooks, and
its transcript is the source of truth for what the background hooks missed
(``agents.claude_transcript``).

Payloads are the ``*HookInput`` types of ``@anthropic-ai/claude-agent-sdk``; they are already
canonical, so ``canonical`` passes them through.

Settings (``.claude/settings.json``, or ``~/.claude/settings.json`` with ``--scope user``): for
each event one hook group ``{"matcher": ..., "hooks": [{"type": "command", "command": "kindling
hook EVENT", "timeout": 10}]}``, refreshed in place when it is there already. ``async`` is set on
the tool events only (``ASYNC_EVENTS``), which fire on every tool call, so Claude Code does not
wait for them. The others are synchronous: when ``claude -p`` exits it cancels the background hooks
still running, and then it runs no SessionEnd hook at all (seen with 2.1.197: a PreCompact still
running in the background when a ``/compact`` ended the input left the session's capsule open).
They only write the spool (no database), so they cost the agent a few milliseconds, and a
compaction or a subagent takes seconds anyway. The tool events' matcher leaves out the plain names
of ``skip_tools`` (``tool_matcher``), so Claude Code starts no process for them. ``init`` writes
no MCP config for Claude Code (``claude mcp add kindling -- kindling mcp`` adds the server).

Must not import click, the CLI, the MCP server, the engine or a store; imports only the
standard library at module level (hook processes import it).
"""

from __future__ import annotations

from kindling.agents.defaults import nothing_pending
from kindling.agents.events import DEFAULT_AGENT, DEFAULT_LABEL
from kindling.agents.events import EVENTS as CANONICAL_EVENTS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from kindling.agents.base import FileChange, Scope
    from kindling.agents.events import HookPayload
    from kindling.agents.protocol import Found

NAME = DEFAULT_AGENT
LABEL = DEFAULT_LABEL
FLAG = "--claude-code"
WRITES = ".claude/settings.json (hooks)"
SETUP_NOTE: str | None = None  # what it needs before its hooks run (init, doctor; see codex)
EVENTS = {event: event for event in CANONICAL_EVENTS}  # the canonical events are its own
TOOL_EVENTS = ("PostToolUse", "PostToolUseFailure")
ASYNC_EVENTS = ("PostToolUse", "PostToolUseFailure")
_REGEX_SPECIAL = frozenset("\\^$.|?*+()[]{}/")


def visiting(host: str, data: dict[str, Any]) -> bool | None:
    return None  # Claude Code sends its payloads to its own hooks only


def canonical(data: dict[str, Any], event: str) -> dict[str, Any] | None:
    return {**data, "hook_event_name": event}  # the event its hook was installed for


def render(event: str, output: dict[str, Any]) -> dict[str, Any] | None:
    return output


def missed(p: HookPayload) -> Found:
    """The tool calls of ``p``'s transcript not yet reconciled (``claude_transcript``)."""
    from kindling.agents import claude_transcript

    return claude_transcript.missed(p)


def noted(p: HookPayload) -> None:
    from kindling.agents import claude_transcript

    claude_transcript.noted(p)


def earlier(p: HookPayload) -> Found:
    from kindling.agents import claude_transcript

    return claude_transcript.earlier(p)


# ---------------------------------------------------------------- settings


def settings_path(scope: Scope, cwd: str | None = None) -> Path:
    from kindling.agents.base import base_dir

    return base_dir(scope, ".claude", cwd) / "settings.json"


hook_file = settings_path  # the file holding Kindling's hooks (kindling doctor)
pending = nothing_pending


def is_kindling_hook(entry: Any, event: str) -> bool:
    from kindling.agents.base import is_hook_command

    return (
        isinstance(entry, dict)
        and entry.get("type") == "command"
        and is_hook_command(entry.get("command"), None, event)
    )


def _glob_regex(glob: str) -> str:
    return "".join(
        ".*" if ch == "*" else "." if ch == "?" else "\\" + ch if ch in _REGEX_SPECIAL else ch
        for ch in glob
    )


def tool_matcher(skip_tools: tuple[str, ...]) -> str:
    """The tool events' matcher: every tool but the plain names (and globs) in ``skip_tools``.
    ``Tool:command`` entries stay in the hook itself (a matcher sees only the tool name)."""
    names = sorted({_glob_regex(t) for t in skip_tools if ":" not in t and t.strip()})
    if not names:
        return "*"
    return f"^(?!(?:{'|'.join(names)})$).*"


def merge_hooks(
    data: dict[str, Any], exe: str, matcher: str = "*"
) -> tuple[dict[str, Any], list[str]]:
    """Return settings with Kindling's hooks in place, and the events that changed. Pure."""
    from kindling.agents.base import HOOK_TIMEOUT_S, copy, hook_command, merge_hook_groups

    result = copy(data)
    wanted = {}
    for event in CANONICAL_EVENTS:
        entry: dict[str, Any] = {
            "type": "command",
            "command": hook_command(exe, None, event),
            "timeout": HOOK_TIMEOUT_S,
        }
        if event in ASYNC_EVENTS:
            entry["async"] = True
        wanted[event] = entry
    keys = {event: {"matcher": matcher} for event in TOOL_EVENTS}
    touched = merge_hook_groups(result.setdefault("hooks", {}), wanted, keys, is_kindling_hook)
    return result, touched


def remove_hooks(data: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Return settings without Kindling's hooks (and the empty groups they leave). Pure."""
    from kindling.agents.base import copy, remove_hook_groups

    result = copy(data)
    return result, remove_hook_groups(result, is_kindling_hook)


def install(
    scope: Scope,
    cwd: str | None = None,
    exe: str | None = None,
    *,
    skip_tools: tuple[str, ...] = (),
) -> list[FileChange]:
    from kindling.agents.base import check_hook_groups, kindling_executable, load_json, save

    path = settings_path(scope, cwd)
    data = load_json(path)
    check_hook_groups(data, path)
    matcher = tool_matcher(skip_tools)
    merged, touched = merge_hooks(data, exe or kindling_executable(), matcher)
    return [save(path, data, merged, touched)]


def uninstall(scope: Scope, cwd: str | None = None) -> list[FileChange]:
    from kindling.agents.base import FileChange, check_hook_groups, load_json, save

    path = settings_path(scope, cwd)
    if not path.exists():
        return [FileChange(path, False, None, ())]
    data = load_json(path)
    check_hook_groups(data, path)
    cleaned, touched = remove_hooks(data)
    return [save(path, data, cleaned, touched)]


if TYPE_CHECKING:  # this module is an Agent (mypy checks it)
    import kindling.agents.claude_code as _self
    from kindling.agents.protocol import Agent

    _agent: Agent = _self

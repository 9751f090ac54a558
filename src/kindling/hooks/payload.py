"""Parse a Claude Code hook payload once, at the boundary, into a typed value.

Claude Code sends one JSON object on stdin: ``session_id``, ``transcript_path``, ``cwd``,
``hook_event_name`` and per-event fields (``source``, ``prompt``, ``tool_name``, ``tool_input``,
``tool_response``, ``error``, ``stop_hook_active``, ``last_assistant_message``, ...). Every
field is optional here: a missing or mistyped field becomes ``None``/empty, never an exception,
because a hook must never break the agent. Also finds the repository root (without spawning
git) and the last assistant message of a transcript.

Must not import click, the CLI or the MCP server; imports only the standard library.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass, field
from typing import Any

EVENTS: tuple[str, ...] = (
    "SessionStart",
    "UserPromptSubmit",
    "PostToolUse",
    "PostToolUseFailure",
    "PreCompact",
    "SubagentStop",
    "Stop",
    "SessionEnd",
)
MAX_STDIN_BYTES = 64 << 20  # a Read of a huge file arrives whole; beyond this we give up
TRANSCRIPT_TAIL_BYTES = 512 << 10


class PayloadError(ValueError):
    """The hook input is not a JSON object."""


def _str(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) and value.strip() else None


@dataclass(frozen=True, slots=True)
class HookPayload:
    event: str
    session_id: str | None
    cwd: str | None
    transcript_path: str | None
    source: str | None = None
    prompt: str | None = None
    tool_name: str | None = None
    tool_input: dict[str, Any] = field(default_factory=dict)
    tool_response: Any = None
    tool_use_id: str | None = None
    error: str | None = None
    is_interrupt: bool = False
    reason: str | None = None
    trigger: str | None = None
    last_assistant_message: str | None = None
    agent_type: str | None = None


def parse_payload(raw: bytes, event: str | None) -> HookPayload:
    """Parse stdin bytes. ``event`` (from the command line) wins over ``hook_event_name``."""
    text = raw.decode("utf-8", "replace").strip()
    if not text:
        data: Any = {}
    else:
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise PayloadError(f"hook input is not JSON ({exc.__class__.__name__})") from None
    if not isinstance(data, dict):
        raise PayloadError("hook input must be a JSON object")
    tool_input = data.get("tool_input")
    error = data.get("error", data.get("error_message"))
    if error is not None and not isinstance(error, str):
        error = json.dumps(error, ensure_ascii=False, default=str)
    return HookPayload(
        event=event or _str(data, "hook_event_name") or "",
        session_id=_str(data, "session_id"),
        cwd=_str(data, "cwd"),
        transcript_path=_str(data, "transcript_path"),
        source=_str(data, "source"),
        prompt=_str(data, "prompt"),
        tool_name=_str(data, "tool_name"),
        tool_input=tool_input if isinstance(tool_input, dict) else {},
        tool_response=data.get("tool_response"),
        tool_use_id=_str(data, "tool_use_id"),
        error=error,
        is_interrupt=data.get("is_interrupt") is True,
        reason=_str(data, "reason"),
        trigger=_str(data, "trigger"),
        last_assistant_message=_str(data, "last_assistant_message"),
        agent_type=_str(data, "agent_type"),
    )


def repo_root(cwd: str | None) -> str:
    """The nearest ancestor of ``cwd`` holding a ``.git`` entry (a directory, or the file of a
    worktree or submodule), else ``cwd`` itself; canonical (``realpath``). Walking the tree
    costs microseconds; spawning ``git rev-parse`` would cost more than the rest of the hook."""
    start = os.path.realpath(cwd or os.getcwd())
    here = start
    while True:
        if os.path.lexists(os.path.join(here, ".git")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return start
        here = parent


def _message_text(entry: Any) -> str | None:
    if not isinstance(entry, dict) or entry.get("type") != "assistant":
        return None
    message = entry.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content.strip() or None
    if not isinstance(content, list):
        return None
    texts = [
        block["text"]
        for block in content
        if isinstance(block, dict)
        and block.get("type") == "text"
        and isinstance(block.get("text"), str)
    ]
    joined = "\n".join(t for t in texts if t.strip()).strip()
    return joined or None


def last_assistant_text(transcript_path: str | None) -> str | None:
    """The text of the last assistant entry of a JSONL transcript (read from its tail only)."""
    if not transcript_path:
        return None
    try:
        with open(transcript_path, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                return None  # /dev/zero, a pipe: never a transcript, and never-ending
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - TRANSCRIPT_TAIL_BYTES))
            tail = fh.read(TRANSCRIPT_TAIL_BYTES)
    except OSError:
        return None
    for line in reversed(tail.splitlines()):
        try:
            entry = json.loads(line)
        except ValueError:
            continue  # the first line of the tail may be cut
        text = _message_text(entry)
        if text:
            return text
    return None

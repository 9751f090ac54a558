"""The event contract: the canonical hook events, and their payload parsed once, at the
boundary, into a typed value. Every agent module translates its agent's payloads into these
(``kindling.agents``), and the hooks (``kindling.hooks``) read only these.

The canonical events are Claude Code's hook events (``DEFAULT_AGENT``). Claude Code sends one
JSON object on stdin (the shapes are the ``*HookInput`` types of
``@anthropic-ai/claude-agent-sdk``): ``session_id``, ``transcript_path``, ``cwd``,
``hook_event_name`` and per-event fields (``source``, ``prompt``, ``tool_name``, ``tool_input``,
``tool_response``, ``error``, ``last_assistant_message``, ``compact_summary``, ...). Every field
is optional here: a missing or mistyped field becomes ``None``/empty, never an exception,
because a hook must never break the agent. Also reads the last assistant message of a
transcript.

Must not import click, the CLI or the MCP server; imports only the standard library and
``kindling.errors`` (``PayloadError``), and no dataclasses or typing (see ``kindling.hooks``).
"""

from __future__ import annotations

import json
import os
import re
import stat

from kindling.errors import PayloadError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DEFAULT_AGENT = "claude-code"  # whose hook events are the canonical ones
DEFAULT_LABEL = "Claude Code"
EVENTS: tuple[str, ...] = (
    "SessionStart",
    "UserPromptSubmit",
    "PostToolUse",
    "PostToolUseFailure",
    "PreCompact",
    "PostCompact",
    "SubagentStop",
    "Stop",
    "StopFailure",
    "SessionEnd",
)
# How Claude Code words a turn an API error ended ("API Error: 400 {...}"), also seen as
# "API Error (request timed out)" and, from other agents, "[API Error: ...]".
_API_ERROR = re.compile(r"\s*\[?API Error\b", re.IGNORECASE)
MAX_STDIN_BYTES = 64 << 20  # a Read of a huge file arrives whole; beyond this we give up
TRANSCRIPT_TAIL_BYTES = 512 << 10


def _str(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    return value if isinstance(value, str) and value.strip() else None


class HookPayload:
    """One hook input. Text fields are None when absent, blank or not a string."""

    __slots__ = (
        "agent",
        "agent_label",
        "agent_type",
        "compact_summary",
        "cwd",
        "error",
        "error_details",
        "event",
        "is_interrupt",
        "last_assistant_message",
        "prompt",
        "reason",
        "session_id",
        "source",
        "tool_input",
        "tool_name",
        "tool_response",
        "tool_use_id",
        "transcript_path",
        "trigger",
    )

    def __init__(self, data: dict[str, Any], event: str | None = None) -> None:
        tool_input = data.get("tool_input")
        error = data.get("error", data.get("error_message"))
        if error is not None and not isinstance(error, str):
            error = json.dumps(error, ensure_ascii=False, default=str)
        self.event: str = event or _str(data, "hook_event_name") or ""
        self.agent = DEFAULT_AGENT  # which agent sent it (``kindling.agents``); set by the caller
        self.agent_label = DEFAULT_LABEL  # its name for people (the agent's ``LABEL``)
        self.session_id = _str(data, "session_id")
        self.cwd = _str(data, "cwd")
        self.transcript_path = _str(data, "transcript_path")
        self.source = _str(data, "source")  # SessionStart, and who sent a UserPromptSubmit
        self.prompt = _str(data, "prompt")
        self.tool_name = _str(data, "tool_name")
        self.tool_input: dict[str, Any] = tool_input if isinstance(tool_input, dict) else {}
        self.tool_response: Any = data.get("tool_response")
        self.tool_use_id = _str(data, "tool_use_id")
        self.error: str | None = error
        self.error_details = _str(data, "error_details")  # StopFailure
        self.is_interrupt = data.get("is_interrupt") is True
        self.reason = _str(data, "reason")
        self.trigger = _str(data, "trigger")
        self.last_assistant_message = _str(data, "last_assistant_message")
        self.compact_summary = _str(data, "compact_summary")  # PostCompact
        self.agent_type = _str(data, "agent_type")


def parse_payload(raw: bytes, event: str | None) -> HookPayload:
    """Parse stdin bytes. ``event`` (from the command line) wins over ``hook_event_name``."""
    return HookPayload(parse_json(raw), event)


def parse_json(raw: bytes) -> dict[str, Any]:
    """Stdin bytes as a JSON object (empty input is ``{}``); ``PayloadError`` otherwise."""
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
    return data


def is_error_text(text: str | None) -> bool:
    """True for a turn an API error ended ("API Error: 400 ..."): never a summary."""
    return bool(text) and _API_ERROR.match(text or "") is not None


def _message_text(entry: Any) -> str | None:
    if not isinstance(entry, dict) or entry.get("type") != "assistant":
        return None
    if entry.get("isApiErrorMessage") is True:
        return None  # Claude Code's stand-in for a turn an API error ended
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
    """The text of the last assistant entry of a JSONL transcript (read from its tail only),
    skipping the entries an API error left (they are not what the agent did)."""
    if not transcript_path:
        return None
    try:
        with open(transcript_path, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                return None  # a device or a pipe (/dev/zero) has no tail to read
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
        if text and not is_error_text(text):
            return text
    return None

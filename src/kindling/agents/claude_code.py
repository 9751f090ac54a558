"""Claude Code: its hooks are the canonical events, its settings file gets Kindling's hooks, and
its transcript is the source of truth for what the background hooks missed.

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
of ``skip_tools`` (``tool_matcher``), so Claude Code starts no process for them.

``register`` notes each session's transcript at its first prompt, and ``earlier`` lets the next
SessionStart reconcile the recent sessions whose transcript grew after their last reading (a run
whose synchronous hooks did not run, or ran before the transcript was written).

``missed``: at Stop, StopFailure, PreCompact and SessionEnd the transcript (JSONL) is read from
where the last reconciliation of the session stopped, and every tool call with its result becomes
the PostToolUse (or PostToolUseFailure) payload its hook would have sent. Both carry the tool
call's id, and the record id derives from it, so whichever arrives second is skipped: nothing is
lost and nothing is stored twice.

Must not import click, the CLI, the MCP server, the engine or a store; imports only the
standard library at module level (hook processes import it).
"""

from __future__ import annotations

import json
import os

from kindling.hooks.payload import EVENTS as CANONICAL_EVENTS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any

    from kindling.agents.base import FileChange, Scope
    from kindling.hooks.payload import HookPayload

NAME = "claude-code"
LABEL = "Claude Code"
FLAG = "--claude-code"
SETUP_NOTE: str | None = None  # what it needs before its hooks run (init, doctor; see codex)
EVENTS = {event: event for event in CANONICAL_EVENTS}  # the canonical events are its own
TOOL_EVENTS = ("PostToolUse", "PostToolUseFailure")
ASYNC_EVENTS = ("PostToolUse", "PostToolUseFailure")
_REGEX_SPECIAL = frozenset("\\^$.|?*+()[]{}/")
READ_LIMIT = 8 << 20  # the most of a transcript one reconciliation reads
STATE_DIR = "transcripts"
SWEEP_SESSIONS = 20  # the most recent sessions a SessionStart checks for a missed tail
# Reconciliation states are pruned at each sweep beyond these (a pruned state only means its
# transcript is read again from the start: the tool calls' ids keep that harmless).
STATE_MAX_FILES = 200
STATE_MAX_AGE_S = 30 * 24 * 3600
TMP_MAX_AGE_S = 3600  # a state half-written by a process that died


def canonical(data: dict[str, Any], event: str) -> dict[str, Any] | None:
    return data


def render(event: str, output: dict[str, Any]) -> dict[str, Any] | None:
    return output


# ---------------------------------------------------------------- transcript


def _blocks(entry: dict[str, Any]) -> list[Any]:
    message = entry.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return content if isinstance(content, list) else []


def _result_text(block: dict[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(b.get("text")) for b in content if isinstance(b, dict) and b.get("type") == "text"
        )
    return ""


def _state_path(session_id: str) -> str:
    from kindling.config import kindling_home
    from kindling.ids import stable_id

    return os.path.join(kindling_home(), STATE_DIR, stable_id("transcript", session_id) + ".json")


def _read_state(path: str, transcript: str) -> int:
    state = _load_state(path)
    offset = state.get("offset")
    if state.get("transcript") != transcript or not isinstance(offset, int) or offset < 0:
        return 0
    return offset


def _load_state(path: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as fh:
            state = json.load(fh)
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


def _write_state(
    path: str, transcript: str, offset: int, session: str, cwd: str | None = None
) -> None:
    from kindling.private_files import private_dir, write_private

    private_dir(os.path.dirname(path))  # 0700, and the Kindling home with it if it is new
    state = {"transcript": transcript, "offset": offset, "session": session, "cwd": cwd}
    write_private(path, json.dumps(state).encode("utf-8"))  # 0600, whole


def read_tool_calls(
    transcript: str, offset: int = 0
) -> tuple[list[tuple[str, dict[str, Any]]], int]:
    """The finished tool calls in ``transcript`` from byte ``offset``, as (event, canonical
    payload) pairs, and the offset the next reading starts from: the line of the first tool
    call still waiting for its result, or the end of the last whole line."""
    try:
        with open(transcript, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            start = offset if offset <= size else 0
            start = max(start, size - READ_LIMIT)
            fh.seek(start)
            data = fh.read(size - start)
    except OSError:
        return [], offset
    calls: dict[str, tuple[int, dict[str, Any]]] = {}  # tool_use id -> (line start, block)
    found: list[tuple[str, dict[str, Any]]] = []
    position = start
    end = start
    for line in data.splitlines(keepends=True):
        here = position
        position += len(line)
        if not line.endswith(b"\n"):
            break  # being written; the next reading takes it whole
        end = position
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if not isinstance(entry, dict) or entry.get("isSidechain") is True:
            continue
        for block in _blocks(entry):
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                calls[block["id"]] = (here, block)
            elif block.get("type") == "tool_result" and block.get("tool_use_id") in calls:
                _, use = calls.pop(block["tool_use_id"])
                found.append(_payload(entry, use, block))
    pending = [at for at, _ in calls.values()]
    return found, min(pending) if pending else end


def _payload(
    entry: dict[str, Any], use: dict[str, Any], result: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    data: dict[str, Any] = {
        "session_id": entry.get("sessionId"),
        "cwd": entry.get("cwd"),
        "tool_name": use.get("name"),
        "tool_input": use.get("input") if isinstance(use.get("input"), dict) else {},
        "tool_use_id": use.get("id"),
    }
    if result.get("is_error") is True:
        data["error"] = _result_text(result)
        return "PostToolUseFailure", data
    structured = entry.get("toolUseResult")
    data["tool_response"] = structured if structured is not None else _result_text(result)
    return "PostToolUse", data


def missed(p: HookPayload) -> tuple[list[tuple[str, dict[str, Any]]], Callable[[], None] | None]:
    """The tool calls of ``p``'s transcript not yet reconciled, and a function that records
    how far this reading went (call it once their records are safe in the spool)."""
    if not p.transcript_path or not p.session_id:
        return [], None
    state = _state_path(p.session_id)
    found, offset = read_tool_calls(p.transcript_path, _read_state(state, p.transcript_path))
    for _, data in found:
        data["session_id"] = p.session_id  # the hook's word for it, whatever the file says
        data["cwd"] = data.get("cwd") or p.cwd
        data["transcript_path"] = p.transcript_path
    path, session = p.transcript_path, p.session_id

    def commit() -> None:
        try:  # noqa: SIM105  (contextlib would cost the hook process an import)
            _write_state(state, path, offset, session, p.cwd)
        except OSError:
            pass  # the next reading starts earlier; the ids keep it harmless

    return found, commit


def register(p: HookPayload) -> None:
    """Remember the session's transcript (at its first prompt), so that a later session can
    reconcile it even if none of this session's synchronous hooks ran."""
    if not p.transcript_path or not p.session_id:
        return
    state = _state_path(p.session_id)
    if not os.path.exists(state):
        try:  # noqa: SIM105  (contextlib would cost the hook process an import)
            _write_state(state, p.transcript_path, 0, p.session_id, p.cwd)
        except OSError:
            pass


def earlier(
    p: HookPayload, limit: int = SWEEP_SESSIONS
) -> tuple[list[tuple[str, dict[str, Any]]], Callable[[], None] | None]:
    """At SessionStart: what the most recent other sessions' transcripts hold beyond where
    their reconciliation stopped (their last synchronous hook may never have run)."""
    from kindling.config import kindling_home

    folder = os.path.join(kindling_home(), STATE_DIR)
    entries = prune(folder)
    found: list[tuple[str, dict[str, Any]]] = []
    moves: list[tuple[str, str, int, str, str | None]] = []
    for entry in entries[:limit]:
        state = _load_state(entry.path)
        transcript, offset, session = (
            state.get("transcript"),
            state.get("offset"),
            state.get("session"),
        )
        if not isinstance(transcript, str) or not isinstance(session, str):
            continue
        if session == p.session_id or not isinstance(offset, int):
            continue
        try:
            if os.stat(transcript).st_size <= offset:
                continue
        except FileNotFoundError:  # nothing more will ever be read from it
            _remove(entry.path)
            continue
        except OSError:
            continue
        calls, end = read_tool_calls(transcript, offset)
        cwd = state.get("cwd") if isinstance(state.get("cwd"), str) else None
        for _, data in calls:
            data["session_id"] = session
            data["transcript_path"] = transcript
            data["cwd"] = data.get("cwd") or cwd
        found += calls
        moves.append((entry.path, transcript, end, session, cwd))

    def commit() -> None:
        for path, transcript, end, session, cwd in moves:
            try:  # noqa: SIM105  (contextlib would cost the hook process an import)
                _write_state(path, transcript, end, session, cwd)
            except OSError:
                pass

    return found, commit


def _remove(path: str) -> None:
    try:  # noqa: SIM105  (contextlib would cost the hook process an import)
        os.unlink(path)
    except OSError:
        pass


def prune(folder: str, now: float | None = None) -> list[os.DirEntry[str]]:
    """The reconciliation states in ``folder``, newest first, after deleting those beyond
    ``STATE_MAX_FILES`` or older than ``STATE_MAX_AGE_S`` (and stale temporary files)."""
    import time

    now = time.time() if now is None else now
    try:
        with os.scandir(folder) as it:
            entries = list(it)
    except OSError:
        return []
    states: list[tuple[float, os.DirEntry[str]]] = []
    for entry in entries:
        try:
            mtime = entry.stat().st_mtime
        except OSError:
            continue
        if entry.name.endswith(".json"):
            states.append((mtime, entry))
        elif entry.name.endswith(".tmp") and now - mtime > TMP_MAX_AGE_S:
            _remove(entry.path)
    states.sort(key=lambda item: item[0], reverse=True)
    kept = []
    for n, (mtime, entry) in enumerate(states):
        if n >= STATE_MAX_FILES or now - mtime > STATE_MAX_AGE_S:
            _remove(entry.path)
        else:
            kept.append(entry)
    return kept


# ---------------------------------------------------------------- settings


def settings_path(scope: Scope, cwd: str | None = None) -> Path:
    from kindling.agents.base import base_dir

    return base_dir(scope, ".claude", cwd) / "settings.json"


hook_file = settings_path  # the file holding Kindling's hooks (kindling doctor)


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


def install(scope: Scope, cwd: str | None = None, exe: str | None = None) -> list[FileChange]:
    from kindling.agents.base import check_hook_groups, kindling_executable, load_json, save
    from kindling.hooks.config import load_hook_config

    path = settings_path(scope, cwd)
    data = load_json(path)
    check_hook_groups(data, path)
    matcher = tool_matcher(load_hook_config().skip_tools)
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

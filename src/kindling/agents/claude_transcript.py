"""Claude Code's transcript, the source of truth for what its background hooks missed (the
``missed``, ``noted`` and ``earlier`` of ``agents.claude_code``, which imports this module
only when a synchronous hook asks: the tool hooks, on every call, never do).

``noted`` notes each session's transcript at its first prompt, and ``earlier`` lets the next
SessionStart reconcile the recent sessions whose transcript grew after their last reading (a
run whose synchronous hooks did not run, or ran before the transcript was written).

``missed``: at Stop, StopFailure, PreCompact and SessionEnd the transcript (JSONL) is read from
where the last reconciliation of the session stopped, and every tool call with its result
becomes the PostToolUse (or PostToolUseFailure) payload its hook would have sent. Both carry
the tool call's id, and the record id derives from it, so whichever arrives second is skipped:
nothing is lost and nothing is stored twice.

Must not import click, the CLI, the MCP server, the engine or a store; imports only the
standard library at module level.
"""

from __future__ import annotations

import json
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from kindling.agents.events import HookPayload

READ_LIMIT = 8 << 20  # the most of a transcript one reconciliation reads
STATE_DIR = "transcripts"
SWEEP_SESSIONS = 20  # the most recent sessions a SessionStart checks for a missed tail
# Reconciliation states are pruned at each sweep beyond these (a pruned state only means its
# transcript is read again from the start: the tool calls' ids keep that harmless).
STATE_MAX_FILES = 200
STATE_MAX_AGE_S = 30 * 24 * 3600
TMP_MAX_AGE_S = 3600  # a state half-written by a process that died


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


def noted(p: HookPayload) -> None:
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

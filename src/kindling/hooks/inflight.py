"""Background hooks still running, per session: so that the hook after which an agent may
exit waits for them.

Claude Code runs its tool hooks in the background (``agents.claude_code.ASYNC_EVENTS``), and
``claude -p`` (2.1.197) skips SessionEnd altogether when one of them is still running as it
exits: a hook slower than the model's last reply (under load, or delivering to a server) left
the session's capsule open with no close ever to come. So each tool hook holds a shared lock on
its session's file while it works (``hold``), and Stop, StopFailure and PreCompact wait, within
``WAIT_S``, until none holds it (``wait_idle``); SessionEnd removes the file (``forget``).
A tool hook takes its lock once its process has started, 50-300 ms after the tool's result,
and a fast model can answer within that (60 ms after the last result, in a CI run that lost
its close this way). So Stop first lets ``SETTLE_S`` pass since the last tool result its
transcript records (``settle``): nothing when the model took longer, as a real one does.
StopFailure does not: ``claude -p`` exits after an API error without waiting for its hook
long, and the turn's error went unrecorded.

The locks are ``kindling.locks``' (``flock``: whatever way a hook ends, its lock goes with it).
Files are 0600 in a 0700 folder of Kindling's home, named by a checksum of the session id.

Must not import click, the CLI, the MCP server or the engine; imports only ``locks``, ``config``
and ``private_files``.
"""

from __future__ import annotations

import os

from kindling import locks

DIR_NAME = "inflight"
WAIT_S = 3.0  # at most what Stop adds, and only while a tool hook of its session still runs
HOLD_WAIT_S = 1.0  # a tool hook's wait for a Stop, which holds the lock a moment to see it free
SETTLE_S = 1.0  # a tool hook holds its lock within this of its tool's result, even under load
TAIL_BYTES = 64 << 10  # how much of a transcript's end ``settle`` reads
# After these the agent may exit at once (and then skip SessionEnd if a tool hook still runs).
WAITING_EVENTS = ("Stop", "StopFailure", "PreCompact")
HOLDING_EVENTS = ("PostToolUse", "PostToolUseFailure")


def _path(session: str) -> str | None:
    from kindling.config import kindling_home
    from kindling.private_files import private_dir

    try:
        folder = private_dir(os.path.join(private_dir(kindling_home()), DIR_NAME))
    except OSError:
        return None
    return os.path.join(folder, _checksum(session) + ".lock")


def _checksum(session: str) -> str:
    """FNV-1a (64 bits) of the session id's first 1,024 bytes, and its length: not hashlib,
    whose OpenSSL import would cost every tool hook 5 ms. Two sessions that share a name
    only make one Stop wait for the other's tool hooks."""
    raw = session.encode("utf-8", "surrogatepass")
    h = 0xCBF29CE484222325
    for byte in raw[:1024]:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}-{len(raw):x}"


def _open(session: str) -> int | None:
    path = _path(session)
    return None if path is None else locks.open_lock(path)


def hold(session: str) -> int | None:
    """Hold ``session``'s lock, shared, until this process ends (the descriptor is returned,
    never to be closed by the caller); None when it cannot."""
    path = _path(session)
    return None if path is None else locks.hold(path, HOLD_WAIT_S, shared=True)


def wait_idle(session: str, wait_s: float = WAIT_S) -> bool:
    """Wait until no hook of ``session`` holds its lock, for ``wait_s`` at most: True when
    none does (or none can be told), False when one still did at the end."""
    fd = _open(session)
    if fd is None:
        return True
    try:
        return locks.take(fd, wait_s)
    finally:
        os.close(fd)


def forget(session: str) -> None:
    """Remove ``session``'s file (at SessionEnd: no hook of it comes after)."""
    path = _path(session)
    if path is not None:
        try:  # noqa: SIM105  (contextlib would cost a hook process an import)
            os.unlink(path)
        except OSError:  # gone already
            pass


def last_tool_result(transcript_path: str | None) -> float | None:
    """When the last tool result of a Claude Code transcript (JSONL: a ``user`` entry whose
    content holds a ``tool_result``, with its ``timestamp``) was written, in seconds since the
    epoch, read from the last ``TAIL_BYTES``; None when there is none, or no readable one."""
    import json
    from datetime import datetime

    if not transcript_path:
        return None
    try:
        with open(transcript_path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - TAIL_BYTES))
            tail = fh.read(TAIL_BYTES)
    except OSError:
        return None
    for line in reversed(tail.splitlines()):
        if b'"tool_result"' not in line:
            continue
        try:
            entry = json.loads(line)
            content = entry["message"]["content"]
            if not any(isinstance(c, dict) and c.get("type") == "tool_result" for c in content):
                continue
            return datetime.fromisoformat(entry["timestamp"].replace("Z", "+00:00")).timestamp()
        except (ValueError, TypeError, KeyError, AttributeError):
            continue  # a line cut by the tail, or not an entry of this shape
    return None


def settle(transcript_path: str | None) -> float:
    """Let ``SETTLE_S`` pass since the transcript's last tool result, so that its tool hook
    has taken its lock before Stop looks; returns the seconds slept: 0 when the result is
    older or not found, ``SETTLE_S`` at most (a time in the future, from a clock set back)."""
    import time

    at = last_tool_result(transcript_path)
    if at is None:
        return 0.0
    left = min(SETTLE_S, at + SETTLE_S - time.time())
    if left <= 0:
        return 0.0
    time.sleep(left)
    return left


def around(event: str, session: str | None, transcript_path: str | None = None) -> None:
    """What a hook of ``event`` does first: a tool hook holds its session's lock, the hooks
    after which the agent may exit wait for those (Stop after ``settle``), SessionEnd forgets
    the file."""
    if session is None:
        return
    if event in HOLDING_EVENTS:
        hold(session)
    elif event in WAITING_EVENTS:
        if event == "Stop":  # ``claude -p`` gives StopFailure's hook no time to spare
            settle(transcript_path)
        wait_idle(session)
    elif event == "SessionEnd":
        forget(session)

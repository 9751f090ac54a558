"""Background hooks still running, per session: so that the hook after which an agent may
exit waits for them.

Claude Code runs its tool hooks in the background (``agents.claude_code.ASYNC_EVENTS``), and
``claude -p`` (2.1.197) skips SessionEnd altogether when one of them is still running as it
exits: a hook slower than the model's last reply (under load, or delivering to a server) left
the session's capsule open with no close ever to come. So each tool hook holds a shared lock on
its session's file while it works (``hold``), and Stop, StopFailure and PreCompact wait, within
``WAIT_S``, until none holds it (``wait_idle``); SessionEnd removes the file (``forget``). A
hook that has not started yet when Stop runs is not seen: the agent only stops after one more
reply from the model, and a hook takes its lock first thing.

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


def around(event: str, session: str | None) -> None:
    """What a hook of ``event`` does first: a tool hook holds its session's lock, the hooks
    after which the agent may exit wait for those, SessionEnd forgets the file."""
    if session is None:
        return
    if event in HOLDING_EVENTS:
        hold(session)
    elif event in WAITING_EVENTS:
        wait_idle(session)
    elif event == "SessionEnd":
        forget(session)

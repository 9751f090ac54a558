"""File locks that wait a bounded time: the one way Kindling's processes take turns.

Four things are done by one process at a time, or waited for, across processes: applying the
local spool (``engine.drain``), delivering the remote outbox (``client.outbox``), refreshing a
database's start-up context (``hooks.refresh_entry``), and a session's background tool hooks
that Stop waits for (``hooks.inflight``). Each is an ``flock`` on a private file (0600,
created when missing): it ends with its process whatever way that ends, and its descriptor is
not inherited by the processes hooks start. Where ``fcntl`` does not exist (Windows), nothing
is locked and every caller goes ahead, side by side.

Standard library only, and cheap to import: hook processes take these locks first thing.
"""

from __future__ import annotations

import os
import time

POLL_S = 0.02


def open_lock(path: str | os.PathLike[str]) -> int | None:
    """The lock file ``path`` opened (created 0600 when missing), or None when it cannot be
    (its folder is gone, or not ours)."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return None


def take(fd: int, wait_s: float, *, shared: bool = False, poll_s: float = POLL_S) -> bool:
    """Lock ``fd`` (exclusive, or ``shared``), trying until ``wait_s`` has passed: True when
    it holds (or nothing can be locked here), False when another process held it throughout.
    Closing ``fd`` lets go."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return True
    mode = (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB
    deadline = time.monotonic() + wait_s
    while True:
        try:
            fcntl.flock(fd, mode)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(poll_s)


def hold(path: str | os.PathLike[str], wait_s: float, *, shared: bool = False) -> int | None:
    """``open_lock`` and ``take`` in one: the descriptor holding the lock, or None (closed)
    when it cannot be opened or another process held it for ``wait_s``."""
    fd = open_lock(path)
    if fd is None:
        return None
    if take(fd, wait_s, shared=shared):
        return fd
    os.close(fd)
    return None

"""Retry SQLite calls that fail with SQLITE_BUSY outside the busy handler.

SQLite's busy timeout queues most lock waits, but a few paths return SQLITE_BUSY at once:
switching a brand-new file to WAL while another process does the same, reading while another
connection runs WAL recovery, or ``BEGIN IMMEDIATE`` racing a checkpoint that resets the WAL.
Those are retried here with exponential backoff and full jitter (so that many agents do not
retry in lock step) until the store's busy timeout is spent; only then does the caller see
``DatabaseLockedError``.

Only statements that are safe to repeat go through here: pragmas, reads outside a write
transaction and ``BEGIN``. A failure inside a write transaction rolls the transaction back
instead (see ``Database.transaction`` in ``connection``).

Must not import anything from Kindling.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import random

T = TypeVar("T")

SQLITE_BUSY = 5
SQLITE_LOCKED = 6
FIRST_DELAY_S = 0.001
MAX_DELAY_S = 0.1  # long enough to let a writer finish, short enough to stay responsive


def is_busy(exc: BaseException) -> bool:
    """True for SQLITE_BUSY / SQLITE_LOCKED (and their extended codes)."""
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (SQLITE_BUSY, SQLITE_LOCKED)
    message = str(exc)
    return "locked" in message or "busy" in message


def retry_busy(
    call: Callable[[], T],
    *,
    timeout_s: float,
    rng: random.Random | None = None,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> T:
    """Run ``call``; while it raises a busy error and time remains, wait and run it again.

    The last busy error is re-raised once ``timeout_s`` has passed since the first attempt.
    """
    deadline = clock() + timeout_s
    delay = FIRST_DELAY_S
    while True:
        try:
            return call()
        except sqlite3.OperationalError as exc:
            remaining = deadline - clock()
            if not is_busy(exc) or remaining <= 0:
                raise
            if rng is None:  # made on the first busy error: the common path never imports it
                import random

                rng = random.Random()
            sleep(min(remaining, rng.uniform(0, delay)))
            delay = min(MAX_DELAY_S, delay * 2)

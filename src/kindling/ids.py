"""Entity ids and the wall clock, with nothing but ``os`` and ``time``: hook processes assign
an observation's id and time before the engine is ever imported (see ``spool``).

Must not import anything from Kindling.
"""

from __future__ import annotations

import os
import time


def wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


def new_id() -> str:
    """A random (version 4) UUID string; ``uuid`` itself costs milliseconds to import."""
    raw = bytearray(os.urandom(16))
    raw[6] = (raw[6] & 0x0F) | 0x40
    raw[8] = (raw[8] & 0x3F) | 0x80
    h = raw.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def stable_id(*parts: str) -> str:
    """A UUID-shaped id that is the same every time for the same ``parts`` (version 8, from
    BLAKE2b): the hook and the transcript reconciliation give one tool call one id, so
    whichever reaches the store second is recognised and skipped."""
    try:  # the C module itself: ``hashlib`` would load OpenSSL first (7 ms in a hook process)
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover - an interpreter built without it
        from hashlib import blake2b

    digest = blake2b("\x1f".join(parts).encode("utf-8", "surrogatepass"), digest_size=16)
    raw = bytearray(digest.digest())
    raw[6] = (raw[6] & 0x0F) | 0x80
    raw[8] = (raw[8] & 0x3F) | 0x80
    h = raw.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

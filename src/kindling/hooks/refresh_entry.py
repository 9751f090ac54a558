"""The refresher process (``start_cache.spawn_refresh`` starts it): take the database's
refresher lock first, before the engine's imports, so that whoever waits for refreshers sees
this one at once; then ``hooks.refresh`` does the work.

Must not import click, the CLI or the MCP server; the standard library and
``hooks.start_cache`` until the lock is held.
"""

from __future__ import annotations

import os

from kindling.hooks.start_cache import LOCK_NAME, private_dir


def main() -> None:
    """The refresher process: take ``db``'s refresher lock first (before the engine's imports,
    so that whoever waits for refreshers sees this one at once), then ``hooks.refresh``."""
    import sys

    args = sys.argv[1:]
    held = lock(args[0]) if args else None
    if held is None:
        os._exit(0)
    from kindling.hooks.refresh import main as refresh

    refresh(args)


def lock(db: str, wait_s: float = 30.0) -> int | None:
    """Take the refresher lock of ``db`` (kept until the process ends): the open descriptor,
    or None when another refresher held it for ``wait_s``."""
    import fcntl
    import time

    try:
        fd = os.open(os.path.join(private_dir(db), LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:  # no database directory (yet): nothing to refresh
        return None
    deadline = time.monotonic() + wait_s
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() > deadline:
                os.close(fd)
                return None
            time.sleep(0.05)

"""The refresher process (``start_cache.spawn_refresh`` starts it): take the database's
refresher lock first, before the engine's imports, so that whoever waits for refreshers sees
this one at once; then ``hooks.refresh`` does the work.

Must not import click, the CLI or the MCP server; the standard library, ``hooks.start_cache``
and ``locks`` until the lock is held.
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
    from kindling.locks import hold

    try:
        path = os.path.join(private_dir(db), LOCK_NAME)
    except OSError:  # no database directory (yet): nothing to refresh
        return None
    return hold(path, wait_s)

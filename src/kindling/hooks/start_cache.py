"""The context SessionStart injects, computed ahead of time, so that starting a session does not
wait for the engine.

The agent waits for SessionStart, and the engine (SQLite, the store, retrieval) is most of its
cost. But what SessionStart injects is a function of the database, the repository and the hook
settings only (``hooks.inject.build_context``: retrieval ranks by recency against the newest
stored item, not the clock), except that a pin stops counting when it expires. So whenever
the database changes in the background, a refresher (``hooks.refresh``, started detached by
Stop, StopFailure, SessionEnd and SessionStart) drains the spool, computes that text and
stores it here, keyed by the state it was computed from:

- the database and its WAL (size, modification time and inode of each) and the committed
  state in the header of the WAL index (the ``-shm`` file: last frame, running checksum and
  salts, which every commit changes);
- the spool (it must be empty: waiting records would change the database);
- the hook settings file (``config.json``) and this module's file (a new Kindling);
- and a time bound: the first expiry of a pin that is active now.

SessionStart (``lookup``) prints the stored text when every part still matches, without
importing the engine; otherwise it takes the full path, which computes the same text
(``hooks.runner``). Either way the text is byte for byte what ``build_context`` returns for
that state. The files live in ``<database>-inject/`` (0700, files 0600, one per repository);
they hold memory text, so ``Kindling.forget`` removes them (``spool.clear_derived``).

Must not import click, the CLI, the MCP server or the engine; standard library only, and no
dataclasses, typing or pathlib (see ``kindling.hooks``).
"""

from __future__ import annotations

import json
import os

from kindling import private_files
from kindling.ids import stable_id, wall_clock_ms

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

FORMAT = 1
CACHE_SUFFIX = "-inject"  # beside the database, like its -wal and -spool
SPOOL_SUFFIX = "-spool"  # spool.SPOOL_SUFFIX (not imported: the scrubber comes with it)
RECORD_SUFFIX = ".json"  # spool.RECORD_SUFFIX
WAL_HEADER_BYTES = 48  # the wal-index header at the start of the -shm file (iChange, mxFrame...)
LOCK_NAME = ".lock"


def cache_dir(db: str) -> str:
    return os.fspath(db) + CACHE_SUFFIX


def cache_file(db: str, repo: str) -> str:
    return os.path.join(cache_dir(db), stable_id("inject", repo) + ".json")


def _stat(path: str) -> list[int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns, info.st_ino]


def _wal_index(db: str) -> str | bool | None:
    """The committed state of the WAL, from its index header (``-shm``): the last valid frame,
    the database size, the running checksum of the last frame and the salts (bytes 16-40 of
    SQLite's ``WalIndexHdr``). Every commit changes them; a reader's marks do not, nor does
    rebuilding the index after a crash (which resets the change counter, left out here)."""
    try:
        with open(db + "-shm", "rb") as fh:
            header = fh.read(WAL_HEADER_BYTES)
    except OSError:
        return None  # no WAL index: the database file holds everything
    if len(header) < WAL_HEADER_BYTES or header[12] != 1:
        return False  # being rebuilt: the state is unknown
    return header[16:40].hex()


def spool_empty(db: str) -> bool:
    try:
        with os.scandir(db + SPOOL_SUFFIX) as it:
            return not any(e.name.endswith(RECORD_SUFFIX) for e in it)
    except FileNotFoundError:
        return True
    except OSError:
        return False


def state_key(db: str, config_file: str) -> list[Any] | None:
    """What the injected text depends on besides the clock; None while records wait in the
    spool (the text could not be trusted until they are applied) or the WAL index is being
    rebuilt."""
    wal = _wal_index(db)  # not the -shm file's times: readers write their marks in it
    if wal is False or not spool_empty(db):
        return None
    return [FORMAT, _stat(__file__), _stat(db), _stat(db + "-wal"), wal, _stat(config_file)]


def lookup(db: str, repo: str, config_file: str, now: int | None = None) -> tuple[bool, str | None]:
    """``(True, text)`` when the stored text for ``repo`` is valid now (``text`` None: nothing
    to inject); ``(False, None)`` otherwise. Never raises for a missing or damaged file."""
    try:
        with open(cache_file(db, repo), encoding="utf-8") as fh:
            entry = json.load(fh)
    except (OSError, ValueError):
        return False, None
    if not isinstance(entry, dict) or entry.get("repo") != repo:
        return False, None
    until, text = entry.get("validUntil"), entry.get("text")
    if until is not None and (not isinstance(until, int) or until <= (now or wall_clock_ms())):
        return False, None
    if text is not None and not isinstance(text, str):
        return False, None
    key = state_key(db, config_file)
    if key is None or entry.get("key") != key:
        return False, None
    return True, text


def private_dir(db: str) -> str:
    """The cache's directory for ``db``, made private (``private_files.private_dir``)."""
    return private_files.private_dir(cache_dir(db))


def store(db: str, repo: str, key: list[Any], valid_until: int | None, text: str | None) -> None:
    """Keep ``text`` as the injection for ``repo`` in state ``key`` (private file, atomic)."""
    private_dir(db)
    entry = {"v": FORMAT, "repo": repo, "key": key, "validUntil": valid_until, "text": text}
    # ASCII: any text (a lone surrogate too) is written and read back as it was
    private_files.write_private(cache_file(db, repo), json.dumps(entry).encode("ascii"))


def spawn_refresh(db: str, repo: str, opening: list[str] | None = None) -> bool:
    """Start ``hooks.refresh`` for ``db`` in its own session, detached from the agent: it
    outlives the hook (``claude -p`` ends the hooks still running when it exits), and its
    output goes nowhere. ``opening`` = [session id, agent label, time in ms]: the session
    whose capsule it opens. False when this platform cannot (the cache then stays cold)."""
    code = "from kindling.hooks.refresh_entry import main; main()"
    return spawn_detached(code, [db, repo, *(opening or [])])


def spawn_detached(code: str, args: list[str]) -> bool:
    """Run ``python -c code *args`` in its own session, its output going nowhere: the hooks'
    background work (the refresher, the remote outbox's flusher). False when this platform
    cannot, or ``KINDLING_HOOK_REFRESH=0`` turns background work off."""
    spawn = getattr(os, "posix_spawn", None)
    if spawn is None or os.environ.get("KINDLING_HOOK_REFRESH") == "0":
        return False
    import sys

    argv = [sys.executable, "-c", code, *args]
    null = os.devnull
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, null, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, null, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_OPEN, 2, null, os.O_WRONLY, 0),
    ]
    try:
        spawn(sys.executable, argv, dict(os.environ), file_actions=actions, setsid=True)
    except (OSError, NotImplementedError, TypeError, ValueError):
        return False
    return True

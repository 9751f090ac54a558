"""The database files: private modes, read-only opening and the quick check before writes.

- A new database directory is created 0700 and a new database file 0600, whatever the umask:
  observations hold source, commands and conversations. SQLite gives the ``-wal`` and ``-shm``
  files the database file's mode, so they are 0600 too.
- A database whose file is not writable (no write bit, or no access) is opened read-only
  (``mode=ro``): searching it works, writing is a one-line ``StoreError``.
- Before the first write of a process, ``PRAGMA quick_check`` runs unless it passed within
  ``CHECK_INTERVAL_S`` (recorded by the mtime of ``<db>-checked``): a damaged database is
  refused before anything is written to it, with a message that points at ``kindling doctor``.
  The check reads the whole file (0.6-1.5 s for 100k observations, 97 MB, on a loaded 2-core
  VM), hence the interval; ``SqliteStore(check_before_write=False)`` skips it for a caller
  with a tighter budget;
  any "malformed" error seen later removes the stamp, so the next writer checks again.

Must not import anything from Kindling except ``errors``.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import time
from collections.abc import Callable

from kindling.errors import DamagedDatabaseError, SchemaError, StoreError

CHECK_INTERVAL_S = 3600.0
DIR_MODE = 0o700
FILE_MODE = 0o600
# Words in SQLite's messages for a file that is not (or no longer) a sound database.
# ("file is not a database" is a different failure: a wrong path, not a damaged store.)
DAMAGE_WORDS = ("malformed", "corrupt", "could not decode")


def damaged_message(path: str, detail: str) -> str:
    return (
        f"{path} is damaged ({detail}); nothing was written. Run `kindling doctor` to check it,"
        " rebuild the index and copy what can be read to a new database"
    )


def read_only_message(path: str, *, asked: bool = False) -> str:
    if asked:
        return f"{path} was opened read-only: open it without read_only to record or forget"
    return (
        f"{path} is read-only: Kindling can search it but not change it"
        " (make the file writable, chmod u+w, to record or forget)"
    )


def prepare(path: str, *, read_only: bool = False) -> bool:
    """Create the directory (0700) and the file (0600) if missing; True if read-only. With
    ``read_only`` the file must exist already and nothing is created."""
    try:
        if "\x00" in path:
            raise ValueError("it contains a NUL character")
        if read_only:
            if not os.path.exists(os.path.expanduser(path)):
                raise StoreError(f"cannot open database read-only: there is no file {path!r}")
            _prepare(path)  # a regular file, never created here
            return True
        return _prepare(path)
    except (OSError, ValueError) as exc:  # a file in the way, no permission, a NUL
        raise StoreError(
            f"cannot open database: {path!r} is unusable as a database path ({exc})"
        ) from exc


def _prepare(path: str) -> bool:
    # os.path, not pathlib: this runs when a hook opens the database (pathlib's import costs)
    target = os.path.expanduser(path)
    parent = os.path.dirname(target) or "."
    if not os.path.exists(parent):
        os.makedirs(parent, mode=DIR_MODE, exist_ok=True)
    if not os.path.exists(target):
        try:
            fd = os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, FILE_MODE)
            os.close(fd)
        except FileExistsError:
            pass  # another process created it first
        return False
    info = os.stat(target)
    if not stat.S_ISREG(info.st_mode):
        raise StoreError(f"cannot open database: {path!r} is not a regular file")
    return not (info.st_mode & stat.S_IWUSR) or not os.access(target, os.W_OK)


def read_only_uri(path: str) -> str:
    from urllib.parse import quote

    return f"file:{quote(os.path.expanduser(path))}?mode=ro"


def _stamp(path: str) -> str:
    return f"{path}-checked"


def recently_checked(path: str) -> bool:
    try:
        return time.time() - os.stat(_stamp(path)).st_mtime < CHECK_INTERVAL_S
    except OSError:
        return False


def quick_check(conn: sqlite3.Connection, path: str) -> None:
    """Raise ``DamagedDatabaseError`` unless ``PRAGMA quick_check`` says ok; stamp success."""
    try:
        rows = conn.execute("PRAGMA quick_check(5)").fetchall()
    except sqlite3.DatabaseError as exc:
        forget_check(path)
        raise DamagedDatabaseError(damaged_message(path, str(exc))) from exc
    if [r[0] for r in rows] != ["ok"]:
        forget_check(path)
        raise DamagedDatabaseError(damaged_message(path, "; ".join(str(r[0]) for r in rows)))
    if path != ":memory:":
        try:
            fd = os.open(_stamp(path), os.O_CREAT | os.O_WRONLY | os.O_TRUNC, FILE_MODE)
            os.close(fd)
        except OSError:
            pass  # no stamp: the next writer checks again


def forget_check(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(_stamp(path))


def is_damage(message: str) -> bool:
    lowered = message.lower()
    return any(word in lowered for word in DAMAGE_WORDS)


def connect(path: str, busy_timeout_s: float, *, read_only: bool) -> sqlite3.Connection:
    """The store's connection: autocommit, shareable across threads, read-only when asked."""
    return sqlite3.connect(
        read_only_uri(path) if read_only else path,
        timeout=busy_timeout_s,
        isolation_level=None,
        check_same_thread=False,
        uri=read_only,
    )


Retry = Callable[[Callable[[], None]], None]


def may_write(
    conn: sqlite3.Connection, path: str, read_only: bool, retry: Retry, *, asked: bool = False
) -> bool:
    """Before a store's first write: refuse a read-only store (``asked``: opened read-only on
    purpose), quick-check the file unless that was done lately. True once the store may write."""
    if read_only:
        raise StoreError(read_only_message(path, asked=asked))
    if not recently_checked(path):
        retry(lambda: quick_check(conn, path))
    return True


def refuse_upgrade_if_read_only(
    path: str, read_only: bool, version: int, latest: int, *, asked: bool = False
) -> None:
    if read_only:
        how = "open it once without read_only" if asked else "make it writable once"
        raise SchemaError(
            f"{path} is read-only and has schema version {version}, older than this Kindling"
            f" ({latest}); {how} so it can be upgraded"
        )

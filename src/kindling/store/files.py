"""The database files: private modes, read-only opening and the checks before writes.

- A new database directory is created 0700 and a new database file 0600, whatever the umask:
  observations hold source, commands and conversations. SQLite gives the ``-wal`` and ``-shm``
  files the database file's mode, so they are 0600 too.
- A database whose file is not writable (no write bit, or no access) is opened read-only
  (``mode=ro``; ``immutable`` when its directory is not writable either, as for another
  user's 0444 file in a 0555 directory): searching it works, writing is a one-line
  ``StoreError``.
- Before the first write of a process, two checks, so that a damaged database is refused
  before anything is written to it, with a message that points at ``kindling doctor``:
  ``structure_check`` every time (the schema read whole and decoded: well under a
  millisecond), and ``PRAGMA integrity_check``
  (every page, and every index against its table) unless it passed within
  ``CHECK_INTERVAL_S`` on this very file (the ``<db>-checked`` stamp: its mtime, and the
  file's device and inode; ``kindling doctor`` stamps a sound file too). ``bench/write_check``
  measures both and what they catch: the integrity check costs about twice the quick check
  it replaced (2.1 vs 1.1 s at 100k observations, 21 vs 11 s at 1M, load 9) and refuses half
  as many single-bit flips again (33 vs 20 of the 107 that doctor calls damaged); damage only
  a full ``kindling doctor`` sees (text whose index no longer matches it: the FTS5 content
  check, 5.4 s at 100k, 40-65 s at 1M) is left to doctor. ``SqliteStore(check_before_write=
  False)`` skips both for a caller with a tighter budget; any "malformed" error seen later
  removes the stamp, so the next writer checks again.

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
from kindling.private_files import private_dir

CHECK_INTERVAL_S = 3600.0
DIR_MODE = 0o700
FILE_MODE = 0o600
# Words in SQLite's messages for a file that is not (or no longer) a sound database.
# ("file is not a database" is a different failure: a wrong path, not a damaged store.)
DAMAGE_WORDS = ("malformed", "corrupt", "could not decode")
NOT_UTF8 = "its schema (sqlite_master) holds text that is not valid UTF-8"


def damaged_message(path: str, detail: str) -> str:
    detail = " ".join(detail.replace("*** in database main ***", "").split())[:300]  # one line
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
        private_dir(parent)  # 0700, and so are its new parents (makedirs: 0755)
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


def _identity(path: str) -> str:
    """Which file ``path`` is (device and inode): a file copied or moved over the database is
    another file, and its check is not the old one's."""
    info = os.stat(os.path.expanduser(path))
    return f"{info.st_dev}:{info.st_ino}"


def recently_checked(path: str) -> bool:
    try:
        stamp = _stamp(path)
        if time.time() - os.stat(stamp).st_mtime >= CHECK_INTERVAL_S:
            return False
        with open(stamp, encoding="ascii") as fh:
            return fh.read().strip() == _identity(path)
    except (OSError, ValueError):
        return False


def structure_check(conn: sqlite3.Connection, path: str) -> None:
    """The check of every writer, on every open (well under a millisecond): the schema, read
    whole and decoded, through SQLite. (Never by opening the file here: closing any other
    descriptor of the database file drops this process's POSIX locks on it, SQLite's, and
    concurrent writers then corrupt it. A header check that way corrupted indexes in
    ``tests/store/test_concurrency.py``.)"""
    problem = None
    try:
        conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    except sqlite3.DatabaseError as exc:
        problem = str(exc)
    except UnicodeDecodeError:
        problem = NOT_UTF8
    if problem is not None:
        forget_check(path)
        raise DamagedDatabaseError(damaged_message(path, problem))


def integrity_check(conn: sqlite3.Connection, path: str) -> None:
    """Raise ``DamagedDatabaseError`` unless ``PRAGMA integrity_check`` says ok; stamp
    success. Unlike ``quick_check`` it also compares every index with its table: a flipped
    bit in an index page (a row missing from an index) passes the quick check."""
    try:
        rows = conn.execute("PRAGMA integrity_check(5)").fetchall()
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        forget_check(path)
        why = NOT_UTF8 if isinstance(exc, UnicodeDecodeError) else str(exc)
        raise DamagedDatabaseError(damaged_message(path, why)) from exc
    if [r[0] for r in rows] != ["ok"]:
        forget_check(path)
        raise DamagedDatabaseError(damaged_message(path, "; ".join(str(r[0]) for r in rows)))
    stamp_checked(path)


def stamp_checked(path: str) -> None:
    """Record that ``path`` passed the integrity check now (also ``kindling doctor``'s)."""
    if path != ":memory:":
        try:
            fd = os.open(_stamp(path), os.O_CREAT | os.O_WRONLY | os.O_TRUNC, FILE_MODE)
            with os.fdopen(fd, "w", encoding="ascii") as fh:
                fh.write(_identity(path))
        except OSError:
            pass  # no stamp: the next writer checks again


def forget_check(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(_stamp(path))


def is_damage(message: str) -> bool:
    lowered = message.lower()
    return any(word in lowered for word in DAMAGE_WORDS)


def connect(path: str, busy_timeout_s: float, *, read_only: bool) -> sqlite3.Connection:
    """The store's connection: autocommit, shareable across threads, read-only when asked
    (``open_read_only``)."""
    if read_only:
        return open_read_only(path, busy_timeout_s)
    return sqlite3.connect(
        path, timeout=busy_timeout_s, isolation_level=None, check_same_thread=False
    )


# SQLite's reasons a read-only connection cannot use a WAL database: it may not create the
# -shm file beside it (the directory is not writable by this user, or the -shm file is not).
_NO_SHARED_MEMORY = {"SQLITE_READONLY_DIRECTORY", "SQLITE_CANTOPEN", "SQLITE_READONLY_CANTINIT"}


def open_read_only(path: str, busy_timeout_s: float = 5.0) -> sqlite3.Connection:
    """A ``mode=ro`` connection; when SQLite cannot share the file's WAL index from here (a
    0444 database in a 0555 directory of another user), an ``immutable`` one: read as a
    file nobody changes, no -wal or -shm file touched. Refused if a -wal file holds changes
    not yet in the database (immutable would not see them)."""
    conn = _ro(read_only_uri(path), busy_timeout_s)
    try:
        conn.execute("PRAGMA schema_version").fetchone()
        return conn
    except sqlite3.OperationalError as exc:
        if getattr(exc, "sqlite_errorname", "") not in _NO_SHARED_MEMORY:
            return conn  # the store reports it on its first statement
        conn.close()
    wal = f"{os.path.expanduser(path)}-wal"
    if os.path.exists(wal) and os.path.getsize(wal):
        raise StoreError(
            f"{path} is read-only and its latest changes are in {os.path.basename(wal)}, which"
            " SQLite can read only with write access to the directory; ask its owner to run any"
            " kindling command there once (it folds them into the database)"
        )
    return _ro(f"{read_only_uri(path)}&immutable=1", busy_timeout_s)


def _ro(uri: str, busy_timeout_s: float) -> sqlite3.Connection:
    return sqlite3.connect(
        uri, timeout=busy_timeout_s, isolation_level=None, check_same_thread=False, uri=True
    )


Retry = Callable[[Callable[[], None]], None]


def may_write(
    conn: sqlite3.Connection, path: str, read_only: bool, retry: Retry, *, asked: bool = False
) -> bool:
    """Before a store's first write: refuse a read-only store (``asked``: opened read-only on
    purpose), quick-check the file unless that was done lately. True once the store may write."""
    if read_only:
        raise StoreError(read_only_message(path, asked=asked))
    retry(lambda: structure_check(conn, path))
    if not recently_checked(path):
        retry(lambda: integrity_check(conn, path))
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

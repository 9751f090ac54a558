"""``kindling doctor``: check a database, rebuild its text indexes, copy what can be read.

- ``check``: SQLite's full ``integrity_check`` and each FTS5 index's ``integrity-check`` (the
  latter needs write access: on a file this user may only read, the integrity check alone).
- ``rebuild_indexes``: rebuilds the FTS5 indexes from their tables (a damaged index, or one
  an older tool left inconsistent); the tables themselves are not touched.
- ``salvage``: copies every row that can still be read, table by table in rowid ranges (a
  range that fails is split until the unreadable rows are isolated), into a new database with
  the current schema, then builds its indexes. The damaged file is only read.

``SqliteDoctor`` is these three as the backend's ``store.base.Doctor``.

Must not import anything from Kindling except ``errors`` and ``store``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import kindling.store.sqlite.index as index
from kindling.errors import StoreError
from kindling.store import files
from kindling.store.base import Checkup, Salvage

FTS_TABLES = ("observations_fts", "summaries_fts")
# Parents before children, so foreign keys hold in the copy.
TABLES = (
    "observations",
    "capsules",
    "capsule_observations",
    "summaries",
    "summary_details",
    "pins",
)
CHUNK = 256


def _open_read_only(path: str) -> sqlite3.Connection:
    if not Path(path).is_file():
        raise StoreError(f"no database at {path}")
    return files.open_read_only(path)


def check(path: str) -> Checkup:
    """The checks only read, but FTS5's check needs a writable connection when one is possible.
    A schema SQLite cannot even read (text that is not UTF-8) is one problem, not an error."""
    problems: list[str] = []
    if not Path(path).is_file():
        raise StoreError(f"no database at {path}")
    try:
        conn = _open_for_check(path)
    except UnicodeDecodeError:
        return Checkup((f"schema: {files.NOT_UTF8}",))
    index.register_functions(conn)  # the summary index reads its documents through them
    try:
        try:
            rows = [str(r[0]) for r in conn.execute("PRAGMA integrity_check(20)")]
            if rows != ["ok"]:
                problems += [f"integrity: {r}" for r in rows]
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            if isinstance(exc, UnicodeDecodeError):  # nothing else can be read either
                return Checkup((f"schema: {files.NOT_UTF8}",))
            problems.append(f"integrity: {_why(exc)}")
        for table in FTS_TABLES:
            try:
                conn.execute(f"INSERT INTO {table}({table}, rank) VALUES('integrity-check', 1)")
            except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
                if "readonly" not in str(exc):  # FTS5 checks only where it may write
                    problems.append(f"{table}: {_why(exc)}")
    finally:
        conn.close()
    if not problems:
        files.stamp_checked(path)  # the next writer need not check again within the hour
    return Checkup(tuple(problems))


def _why(exc: Exception) -> str:
    return files.NOT_UTF8 if isinstance(exc, UnicodeDecodeError) else str(exc)


def _open_for_check(path: str) -> sqlite3.Connection:
    try:
        uri = f"{files.read_only_uri(path).rsplit('?', 1)[0]}?mode=rw"
        conn = sqlite3.connect(uri, uri=True, isolation_level=None)
        conn.execute("PRAGMA user_version").fetchone()
        return conn
    except sqlite3.DatabaseError:
        conn = _open_read_only(path)
        conn.execute("PRAGMA user_version").fetchone()
        return conn


def rebuild_indexes(conn: sqlite3.Connection) -> None:
    """Rebuild every FTS5 index from its content; call inside a write transaction."""
    index.register_functions(conn)
    for table in FTS_TABLES:
        conn.execute(f"INSERT INTO {table}({table}) VALUES('rebuild')")


def rebuild(path: str, timeout_s: float = 5.0) -> None:
    """Rebuild the text indexes of the database file at ``path``, in one write transaction
    (``kindling doctor --rebuild-index``: a file tool, like ``check`` and ``salvage``)."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=timeout_s)
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            rebuild_indexes(conn)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    finally:
        conn.close()


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [str(r[1]) for r in conn.execute(f"PRAGMA table_info({table})")]


def _copy_range(
    src: sqlite3.Connection, dst: sqlite3.Connection, table: str, cols: str, lo: int, hi: int
) -> tuple[int, int]:
    """Copy rows with rowid in [lo, hi]; (copied, lost). Splits ranges that fail to read."""
    try:
        rows = src.execute(
            f"SELECT {cols} FROM {table} WHERE rowid BETWEEN ? AND ?", (lo, hi)
        ).fetchall()
    except sqlite3.DatabaseError:
        if lo == hi:
            return 0, 1
        mid = (lo + hi) // 2
        a = _copy_range(src, dst, table, cols, lo, mid)
        b = _copy_range(src, dst, table, cols, mid + 1, hi)
        return a[0] + b[0], a[1] + b[1]
    marks = ",".join("?" * len(cols.split(",")))
    copied = 0
    for row in rows:
        try:
            dst.execute(f"INSERT OR IGNORE INTO {table} ({cols}) VALUES ({marks})", row)
            copied += 1
        except sqlite3.DatabaseError:
            pass  # a row the new schema refuses (a broken reference): counted as lost
    return copied, len(rows) - copied


def salvage(path: str, out: str) -> Salvage:
    """Copy what can be read from ``path`` into a new database at ``out``."""
    from kindling.store.sqlite.store import SqliteStore  # the new file gets the current schema

    if Path(out).exists():
        raise StoreError(f"{out} already exists; salvage writes a new database")
    SqliteStore(out).close()
    src = _open_read_only(path)
    src.execute("PRAGMA writable_schema = ON")  # read past schema rows SQLite cannot parse
    dst = sqlite3.connect(out, isolation_level=None)
    report = Salvage()
    try:
        index.register_functions(dst)
        dst.execute("PRAGMA foreign_keys = OFF")
        dst.execute("BEGIN IMMEDIATE")
        for table in TABLES:
            try:
                wanted = _columns(dst, table)
                have = set(_columns(src, table))
                top = src.execute(f"SELECT MAX(rowid) FROM {table}").fetchone()[0] or 0
            except (sqlite3.DatabaseError, UnicodeDecodeError):
                report.lost[table] = -1  # the table itself cannot be read
                continue
            cols = ",".join(c for c in wanted if c in have)
            copied = lost = 0
            for lo in range(0, int(top) + 1, CHUNK):
                a, b = _copy_range(src, dst, table, cols, lo, lo + CHUNK - 1)
                copied, lost = copied + a, lost + b
            report.copied[table], report.lost[table] = copied, lost
        index.build_all(dst)
        dst.execute("INSERT INTO summaries_fts(summaries_fts) VALUES('rebuild')")
        dst.execute("COMMIT")
    finally:
        src.close()
        dst.close()
    return report


class SqliteDoctor:
    """``store.base.Doctor`` of the SQLite file at ``path``."""

    indexes = FTS_TABLES

    def __init__(self, path: str) -> None:
        self.path = path

    def check(self) -> Checkup:
        return check(self.path)

    def rebuild_indexes(self) -> None:
        rebuild(self.path)

    def salvage(self, out: str) -> Salvage:
        return salvage(self.path, out)

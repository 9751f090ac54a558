"""The SQLite database: its dialect, one connection, its pragmas, transactions, busy retries
and error mapping (``store_error``).

Design: one connection per store in autocommit mode; writes run in ``BEGIN IMMEDIATE``
transactions so that concurrent writers queue on the busy timeout instead of failing on a
lock upgrade. WAL lets readers run while a writer writes. Opening a database migrates it
(``migrations``). Two kinds of work wait for the end of a write transaction: indexing the
observations it appended (``appended``) and, after a forget, merging the FTS segments and
emptying the WAL (``purge_on_commit``).

Every verb module of the store reaches the database through the public methods here and
nothing else: those of ``store.sql.dialect.SqlDatabase`` (``read``, ``write``,
``transaction``, ...), ``conn`` inside a transaction, and the two markers above.

Must not import anything from Kindling except ``errors`` and ``store``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from os import PathLike
from typing import Any, TypeVar

import kindling.store.sqlite.index as index
from kindling.errors import (
    ConflictError,
    DamagedDatabaseError,
    DatabaseLockedError,
    InvalidInputError,
    KindlingError,
    StoreError,
)
from kindling.store import files
from kindling.store.sql.dialect import Dialect
from kindling.store.sqlite.migrations import LATEST_VERSION, apply_migrations, current_version
from kindling.store.sqlite.purge import merge_fts_segments, truncate_wal
from kindling.store.sqlite.retry import retry_busy

T = TypeVar("T")

BUSY_TIMEOUT_S = 5.0

SQLITE = Dialect(
    array_params=False,  # a statement holds at most 32,766 parameters: ids go in chunks
    contains_sql="{column} LIKE ? ESCAPE '\\'",  # LIKE ignores the case of ASCII letters
    json_items_sql="json_each({column}) {alias}",
    false_sql="{column} = 0",
)


def store_error(exc: sqlite3.DatabaseError | UnicodeDecodeError, path: str) -> KindlingError:
    if isinstance(exc, UnicodeDecodeError):  # SQLite's message quotes a schema that is not UTF-8
        files.forget_check(path)
        return DamagedDatabaseError(files.damaged_message(path, files.NOT_UTF8))
    message = str(exc)
    if isinstance(exc, sqlite3.IntegrityError) and "UNIQUE" in message:
        return ConflictError(f"an entity with that id already exists ({message})")
    if "locked" in message or "busy" in message:
        return DatabaseLockedError(
            f"{path} stayed locked by another process for longer than the busy timeout; "
            "retry, or find the process holding a long write transaction"
        )
    if files.is_damage(message):
        files.forget_check(path)  # the next writer runs the quick check again
        return DamagedDatabaseError(files.damaged_message(path, message.split("\n")[0][:200]))
    if "not a database" in message:
        return StoreError(f"{path} is not a usable SQLite database ({message})")
    if "readonly" in message or "read-only" in message:
        return StoreError(files.read_only_message(path))
    return StoreError(f"database error on {path}: {message}")


class Database:
    """One open SQLite database: the connection and its write transactions."""

    dialect = SQLITE

    def __init__(
        self,
        path: str | PathLike[str],
        *,
        busy_timeout_s: float,
        check_before_write: bool,
        read_only: bool = False,
    ):
        self.path = str(path)
        if read_only and self.path == ":memory:":
            raise InvalidInputError("an in-memory database cannot be opened read-only")
        self.asked_read_only = read_only
        # modes; read-only (mode=ro) when asked or when the file is not writable
        self.read_only = self.path != ":memory:" and files.prepare(self.path, read_only=read_only)
        self._checked = self.path == ":memory:" or not check_before_write  # see store.files
        try:
            self.conn = files.connect(self.path, busy_timeout_s, read_only=self.read_only)
            self._busy_timeout_s = busy_timeout_s
            self._depth = 0
            self._purge_pending = False  # a forget happened in this transaction
            # First rowid appended in this transaction and not indexed yet (see index_pending).
            self._unindexed_from: int | None = None
            self.wal_purged = True  # the last forget's old pages left the WAL file
            index.register_functions(self.conn)
            for pragma in (
                f"PRAGMA busy_timeout = {int(busy_timeout_s * 1000)}",
                # Many processes opening a new file at once: this one can return BUSY at once.
                "PRAGMA journal_mode" if self.read_only else "PRAGMA journal_mode = WAL",
                # WAL + NORMAL: a returned commit survives a killed process (not a power cut).
                "PRAGMA synchronous = NORMAL",
                "PRAGMA foreign_keys = ON",
                "PRAGMA secure_delete = ON",  # freed pages are zeroed: forgotten text is gone
                # Searches read index pages scattered over the file: a 64 MB page cache (an
                # upper bound, not an allocation) keeps a scope's pages. No mmap: an I/O error
                # on a mapped file is a signal, not an error, and it gained only ~10 %.
                "PRAGMA cache_size = -65536",
            ):
                self.retry(partial(self.conn.execute, pragma))
            self.retry(self._migrate)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            raise store_error(exc, self.path) from exc

    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction; nested calls join the outer one."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        if not self._checked:
            self._checked = files.may_write(
                self.conn, self.path, self.read_only, self.retry, asked=self.asked_read_only
            )
        try:
            self.retry(lambda: self.conn.execute("BEGIN IMMEDIATE"))
        except sqlite3.OperationalError as exc:
            raise store_error(exc, self.path) from exc
        self._depth = 1
        try:
            yield
            self.index_pending()
        except BaseException:
            self._depth = 0
            self._purge_pending = False
            self._unindexed_from = None
            self._rollback()
            raise
        self._depth = 0
        purge, self._purge_pending = self._purge_pending, False
        try:
            if purge:
                merge_fts_segments(self.conn)
            self.conn.execute("COMMIT")
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            self._rollback()
            raise store_error(exc, self.path) from exc
        if purge and self.path != ":memory:":
            self.wal_purged = self.retry(partial(truncate_wal, self.conn))
        elif not self.wal_purged:  # a reader held the WAL last time: try again, never wait
            self.wal_purged = self.retry(partial(truncate_wal, self.conn, wait_ms=0))

    def appended(self, first_rowid: int) -> None:
        """Observations from ``first_rowid`` on were inserted in this transaction and are
        indexed by ``index_pending`` (at the latest at commit)."""
        if self._unindexed_from is None:
            self._unindexed_from = first_rowid

    @property
    def indexing_pending(self) -> bool:
        """Rows appended in this transaction wait for ``index_pending``."""
        return self._unindexed_from is not None

    def purge_on_commit(self) -> None:
        """This transaction forgot text: its commit merges the FTS segments and empties the
        WAL (``purge``)."""
        self._purge_pending = True

    def index_pending(self) -> None:
        """Index this transaction's appends in one step; appends defer indexing to here (at
        commit, or before a search or forget): FTS5 flushes its pending terms whenever a later
        statement opens a savepoint, so indexing each append at once made every following
        statement pay a flush (300-500 us per append at 100k)."""
        if self._unindexed_from is not None:
            first, self._unindexed_from = self._unindexed_from, None
            try:
                index.index_from(self.conn, first)
            except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
                raise store_error(exc, self.path) from exc

    def _rollback(self) -> None:
        # Some errors (I/O, disk full) already ended the transaction; keep the first error.
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")

    def retry(self, call: Callable[[], T]) -> T:
        """Run ``call``, retrying SQLITE_BUSY until the busy timeout; only for statements that
        are safe to repeat (see ``retry``)."""
        return retry_busy(call, timeout_s=self._busy_timeout_s)

    def _migrate(self) -> None:
        version = current_version(self.conn, self.path)
        if version == LATEST_VERSION:
            return
        files.refuse_upgrade_if_read_only(
            self.path, self.read_only, version, LATEST_VERSION, asked=self.asked_read_only
        )
        with self.transaction():
            # Inside the write lock: another process may have migrated meanwhile.
            apply_migrations(self.conn, self.path)

    def schema_version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement in a write transaction (the caller's, or its own); rows changed."""
        try:
            with self.transaction():
                return self.conn.execute(sql, params).rowcount
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            raise store_error(exc, self.path) from exc

    def write_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """One statement per row of parameters, in one write transaction."""
        try:
            with self.transaction():
                self.conn.executemany(sql, rows)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            raise store_error(exc, self.path) from exc

    def insert_rows(
        self, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]
    ) -> None:
        """One ``INSERT`` per row, prepared once (``executemany``)."""
        marks = ", ".join("?" * len(columns))
        self.write_many(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)

    def lock_rows(self, table: str, ids: Sequence[str]) -> None:
        """Nothing: a write transaction (``BEGIN IMMEDIATE``) holds the whole database."""

    def forgetting(self, *tables: str) -> None:
        """This transaction forgets text: see ``purge_on_commit``."""
        self.purge_on_commit()

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """All rows of one query; SQLite errors become ``KindlingError``."""
        try:
            if self._depth:  # inside a write transaction: we hold the lock, never busy
                return self.conn.execute(sql, params).fetchall()
            return self.retry(lambda: self.conn.execute(sql, params).fetchall())
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            raise store_error(exc, self.path) from exc

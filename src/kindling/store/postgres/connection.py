"""The PostgreSQL store's database: its dialect, a pool, per-thread transactions, error
mapping and migration on open.

Design: a ``psycopg_pool.ConnectionPool`` of autocommit connections. ``transaction()`` binds
one pooled connection to the calling thread for the length of the block (nested blocks join
it), so a server can run many requests at once, each in its own transaction; a read outside
a transaction borrows a connection for one statement. Every ``psycopg`` error leaves as a
``KindlingError`` (``ConflictError`` for a duplicate id, ``StoreError`` otherwise), with the
server named but never its password. Statements may be written with the shared verbs' ``?``
marks (``store.sql``) or psycopg's ``%s``; ``?`` becomes ``%s`` (no statement here uses the
JSON ``?`` operator).

Must not import anything from Kindling except ``errors`` and ``store``.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, TypedDict, Unpack

import psycopg
from psycopg import errors as pg_errors
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool, PoolTimeout

from kindling.errors import (
    ConflictError,
    DatabaseLockedError,
    InvalidInputError,
    KindlingError,
    SchemaError,
    StoreError,
)
from kindling.store.postgres.migrations import LATEST_VERSION, MIGRATIONS
from kindling.store.sql.dialect import Dialect

POSTGRES = Dialect(
    array_params=True,  # ``= ANY(%s)``: one statement whatever the list's length
    contains_sql="{column} ILIKE ?",  # backslash is ILIKE's escape character already
    json_items_sql="jsonb_array_elements_text({column}::jsonb) AS {alias}(value)",
    false_sql="NOT {column}",
)

CONNECT_TIMEOUT_S = 10
POOL_MAX = 16
_SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
# Any constant: every process migrating the same database takes the same lock.
_MIGRATION_LOCK = 0x4B696E646C  # "Kindl"


def describe(conninfo: str) -> str:
    """``host:port/dbname`` of a connection string, never its password."""
    try:
        parts = conninfo_to_dict(conninfo)
    except psycopg.Error:
        return "an unparsable PostgreSQL URL"
    host = parts.get("host") or "localhost"
    return f"postgresql://{host}:{parts.get('port') or 5432}/{parts.get('dbname') or ''}"


def _url_options(conninfo: str) -> list[str]:
    try:
        given = conninfo_to_dict(conninfo).get("options")
    except psycopg.Error:
        return []  # psycopg.connect says what is wrong with the URL
    return [str(given)] if given else []


def pg_error(exc: BaseException, where: str) -> KindlingError:
    if isinstance(exc, KindlingError):
        return exc
    if isinstance(exc, psycopg.DataError) and "NUL" in str(exc):  # psycopg's own check
        return InvalidInputError(
            "text may not contain NUL characters (PostgreSQL cannot hold them)"
        )
    if isinstance(exc, pg_errors.UniqueViolation):
        return ConflictError(f"an entity with that id already exists ({exc.diag.message_primary})")
    if isinstance(exc, pg_errors.ReadOnlySqlTransaction):
        return StoreError(f"{where} was opened read-only: open it without read_only to record")
    if isinstance(exc, pg_errors.LockNotAvailable):
        return DatabaseLockedError(f"{where} is locked by another writer; retry")
    if isinstance(exc, PoolTimeout):
        return StoreError(f"no free connection to {where} within the pool timeout; retry")
    if isinstance(exc, psycopg.OperationalError):
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return StoreError(f"cannot use PostgreSQL at {where}: {first}")
    message = getattr(getattr(exc, "diag", None), "message_primary", None) or str(exc)
    return StoreError(f"database error on {where}: {message}")


def _marks(sql: str) -> str:
    return sql.replace("?", "%s") if "?" in sql else sql


def _no_purge(tables: Sequence[str], xid: int | None) -> None:
    """What a database without a store does after a forget: nothing."""


class PgOptions(TypedDict, total=False):
    """How to open a PostgreSQL store: ``schema`` (the search path), ``max_connections`` (the
    pool's size), ``timeout_s`` (to connect), ``busy_timeout_s`` (how long a write waits for a
    lock; None: no bound), ``read_only`` (refuse every write)."""

    schema: str | None
    max_connections: int
    timeout_s: float
    busy_timeout_s: float | None
    read_only: bool


class PgDatabase:
    """Owns the pool; the store's verbs run their SQL through ``read`` and ``write``.

    ``on_forgotten(tables, xid)`` is called after a transaction that forgot text in ``tables``
    (``forgetting``) has committed."""

    dialect = POSTGRES

    def __init__(
        self,
        conninfo: str,
        *,
        on_forgotten: Callable[[Sequence[str], int | None], None] = _no_purge,
        **given: Unpack[PgOptions],
    ) -> None:
        schema = given.get("schema")
        timeout_s = given.get("timeout_s", CONNECT_TIMEOUT_S)
        busy_timeout_s = given.get("busy_timeout_s")
        read_only = given.get("read_only", False)
        self.where = describe(conninfo)
        if schema is not None and not _SCHEMA_NAME.match(schema):
            raise StoreError(f"schema name {schema!r} must be a lower-case SQL identifier")
        kwargs: dict[str, Any] = {"autocommit": True, "connect_timeout": int(timeout_s)}
        options = [f"-c search_path={schema}"] if schema is not None else []
        if busy_timeout_s is not None:  # a write waits this long for a row or table lock
            # at least 1 ms: PostgreSQL reads lock_timeout=0 as "wait for ever", SQLite as "never"
            options.append(f"-c lock_timeout={max(1, int(busy_timeout_s * 1000))}")
        if read_only:  # the server refuses every write of every session of this store
            options.append("-c default_transaction_read_only=on")
        if options:  # the URL's own options (a search_path, say) are kept, ours go after them
            kwargs["options"] = " ".join([*_url_options(conninfo), *options])
        self._local = threading.local()
        self._on_forgotten = on_forgotten
        self.stats_cache: dict[str, tuple[float, dict[str, float], float]] = {}
        try:  # one direct connection first: its error says why (a pool only times out)
            with psycopg.connect(conninfo, **kwargs) as conn:
                if read_only:
                    self._require_latest(conn)
                else:
                    self._migrate(conn)
        except (psycopg.Error, KindlingError) as exc:
            raise pg_error(exc, self.where) from None
        self._pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            conninfo,
            kwargs=kwargs,
            min_size=1,
            max_size=given.get("max_connections", POOL_MAX),
            timeout=timeout_s,
            open=False,
            name="kindling",
        )
        try:
            self._pool.open(wait=True, timeout=timeout_s)
        except PoolTimeout as exc:
            self._pool.close()
            raise pg_error(exc, self.where) from None

    def close(self) -> None:
        self._pool.close()

    # ------------------------------------------------------------------ migrations

    def _migrate(self, conn: psycopg.Connection[Any]) -> None:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            conn.execute(
                "CREATE TABLE IF NOT EXISTS kindling_schema_migrations (version INTEGER PRIMARY"
                " KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"
            )
            version = _version(conn)
            if version > LATEST_VERSION:
                raise SchemaError(
                    f"{self.where} has schema version {version}, newer than this Kindling"
                    f" understands ({LATEST_VERSION}); upgrade kindling-memory to open it"
                )
            for step in MIGRATIONS:
                if step.version <= version:
                    continue
                conn.execute(step.sql)  # no parameters: several statements in one call
                if step.then is not None:
                    step.then(conn)
                conn.execute(
                    "INSERT INTO kindling_schema_migrations VALUES"
                    " (%s, %s, (extract(epoch from clock_timestamp()) * 1000)::bigint)",
                    (step.version, step.name),
                )

    def _require_latest(self, conn: psycopg.Connection[Any]) -> None:
        """A read-only store never migrates: its schema must be this Kindling's already."""
        exists = conn.execute("SELECT to_regclass('kindling_schema_migrations')").fetchone()
        version = _version(conn) if exists and exists[0] is not None else 0
        if version != LATEST_VERSION:
            raise SchemaError(
                f"{self.where} has schema version {version}, not this Kindling's"
                f" ({LATEST_VERSION}); open it once without read_only so it can be migrated"
            )

    def schema_version(self) -> int:
        return int(
            self.read("SELECT COALESCE(MAX(version), 0) FROM kindling_schema_migrations")[0][0]
        )

    # ------------------------------------------------------------------ transactions

    def transaction(self) -> AbstractContextManager[None]:
        """One transaction on this thread; nested calls join the outer one."""
        return self._transaction()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        if getattr(self._local, "conn", None) is not None:
            yield
            return
        self._local.forgot = set()
        try:
            with self._pool.connection() as conn:
                self._local.conn = conn
                try:
                    with conn.transaction():
                        yield
                finally:
                    self._local.conn = None
            if self._local.forgot:  # committed: now what PostgreSQL kept can be removed
                self._on_forgotten(sorted(self._local.forgot), self._local.forget_xid)
        except (psycopg.Error, PoolTimeout) as exc:
            raise pg_error(exc, self.where) from None
        finally:
            self._local.forgot = set()

    def forgetting(self, *tables: str) -> None:
        """Note that this transaction overwrites forgotten text in ``tables`` (vacuumed after
        the commit), and the transaction's id (older snapshots still see the text)."""
        if not self._local.forgot:
            self._local.forget_xid = int(self.read("SELECT pg_current_xact_id()::text")[0][0])
        self._local.forgot.update(tables)

    def lock_rows(self, table: str, ids: Sequence[str]) -> None:
        """Row locks until the transaction ends, taken in id order (no deadlock between two
        writers locking overlapping sets)."""
        if ids:
            self.read(
                f"SELECT 1 FROM {table} WHERE id = ANY(%s) ORDER BY id FOR UPDATE",
                (sorted(set(ids)),),
            )

    def outside_transaction(self, sql: str) -> None:
        """Run ``sql`` on a pooled connection outside any transaction (VACUUM)."""
        try:
            with self._pool.connection() as conn:
                conn.execute(sql)
        except (psycopg.Error, PoolTimeout) as exc:
            raise pg_error(exc, self.where) from None

    @contextmanager
    def _cursor(self) -> Iterator[psycopg.Cursor[Any]]:
        conn = getattr(self._local, "conn", None)
        try:
            if conn is not None:
                with conn.cursor() as cur:
                    yield cur
                return
            with self._pool.connection() as fresh, fresh.cursor() as cur:
                yield cur
        except (psycopg.Error, PoolTimeout) as exc:
            raise pg_error(exc, self.where) from None

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._cursor() as cur:
            cur.execute(_marks(sql), params)
            return cur.fetchall()

    def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one write statement (in its own transaction unless one is open); rows changed."""
        with self.transaction(), self._cursor() as cur:
            cur.execute(_marks(sql), params)
            return cur.rowcount

    def write_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """One statement per row of parameters (in its own transaction unless one is open)."""
        with self.transaction(), self._cursor() as cur:
            cur.executemany(_marks(sql), rows)

    def insert_rows(
        self, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]
    ) -> None:
        """``COPY`` the rows in (in its own transaction unless one is open)."""
        self.copy_rows(f"COPY {table} ({', '.join(columns)}) FROM STDIN", rows)

    def copy_rows(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """``COPY ... FROM STDIN`` of ``rows`` (in its own transaction unless one is open)."""
        with self.transaction(), self._cursor() as cur, cur.copy(sql) as copy:
            for row in rows:
                copy.write_row(row)


def _version(conn: psycopg.Connection[Any]) -> int:
    row = conn.execute(
        "SELECT COALESCE(MAX(version), 0) FROM kindling_schema_migrations"
    ).fetchone()
    return int(row[0]) if row else 0

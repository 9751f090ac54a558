"""``SqliteStore``: the embedded SQLite backend of the ``Store`` protocol, assembled.

The store is one ``Database`` (``connection``: the dialect, connection, pragmas, transactions,
busy retries and migrations), the verbs every backend shares (``store.sql``) and SQLite's own:
search (``search``), how observation writes reach the index (``observations``) and the
forget steps that reach the index and the files (``forget``). Each reaches the database only
through ``self.db``'s public methods. The schema is the TypeScript Kindling's
v5 layout plus additive migrations (``migrations``); opening a store migrates it. Full-text
search drives every query from the FTS5 index (``search``; ``CROSS JOIN`` keeps SQLite from
scanning the scope index and probing FTS row by row, the plan that made repo-scoped searches
take seconds in the TypeScript tool).

Must not import anything from Kindling except ``model``, ``errors`` and ``store``.
"""

from __future__ import annotations

import sqlite3
from os import PathLike

from kindling.store.base import Capabilities, PurgeState
from kindling.store.sql.store import SqlStore
from kindling.store.sqlite.connection import BUSY_TIMEOUT_S, Database
from kindling.store.sqlite.forget import ForgetMixin
from kindling.store.sqlite.observations import ObservationIndexMixin
from kindling.store.sqlite.purge import holders
from kindling.store.sqlite.search import SqliteSearchMixin


class SqliteStore(SqliteSearchMixin, ObservationIndexMixin, ForgetMixin, SqlStore):
    """The embedded SQLite backend of the ``Store`` protocol."""

    db: Database

    def __init__(
        self,
        path: str | PathLike[str],
        *,
        busy_timeout_s: float = BUSY_TIMEOUT_S,
        check_before_write: bool = True,
        read_only: bool = False,
    ) -> None:
        self.db = Database(
            path,
            busy_timeout_s=busy_timeout_s,
            check_before_write=check_before_write,
            read_only=read_only,
        )
        local = None if self.db.path == ":memory:" else self.db.path
        self._capabilities = Capabilities(backend="sqlite", thread_safe=False, local_path=local)

    @property
    def capabilities(self) -> Capabilities:
        """One connection, used by one thread at a time; the file is ``local_path``."""
        return self._capabilities

    def purge_state(self) -> PurgeState:
        """Whether the last forget's old pages left the WAL file, and if not, the other
        processes that have the file open (``purge.holders``: one of them holds it)."""
        if self.db.wal_purged:
            return PurgeState(True)
        return PurgeState(False, holders(self.db.path))

    @property
    def path(self) -> str:
        return self.db.path

    @property
    def read_only(self) -> bool:
        """Opened ``mode=ro`` (see ``store.files``): asked for, or the file is not writable."""
        return self.db.read_only

    def vectors_version(self) -> object | None:
        """Changes with every commit: ``PRAGMA data_version`` counts other connections' and
        ``total_changes`` this one's (both without reading a table)."""
        return (int(self.db.read("PRAGMA data_version")[0][0]), self.db.conn.total_changes)

    @property
    def wal_purged(self) -> bool:
        """The last forget's old pages left the WAL file."""
        return self.db.wal_purged

    @property
    def connection(self) -> sqlite3.Connection:
        """The raw connection, for maintenance tools and tests; not for domain code."""
        return self.db.conn

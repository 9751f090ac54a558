"""``SqliteStore``: the embedded SQLite backend of the ``Store`` protocol, assembled.

The store is one ``Database`` (``connection``: the connection, pragmas, transactions, busy
retries and migrations) and the verb groups mixed in from their modules, each of which reaches
the database only through ``self.db``'s public methods. The schema is the TypeScript Kindling's
v5 layout plus additive migrations (``migrations``); opening a store migrates it. Full-text
search drives every query from the FTS5 index (``search``; ``CROSS JOIN`` keeps SQLite from
scanning the scope index and probing FTS row by row, the plan that made repo-scoped searches
take seconds in the TypeScript tool).

Must not import anything from Kindling except ``model``, ``errors`` and ``store``.
"""

from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager
from os import PathLike

from kindling.store.base import StoreStats
from kindling.store.sqlite.capsules import CapsulesMixin
from kindling.store.sqlite.connection import BUSY_TIMEOUT_S, Database
from kindling.store.sqlite.details import SummaryDetailsMixin
from kindling.store.sqlite.export import ExportMixin
from kindling.store.sqlite.forget import ForgetMixin
from kindling.store.sqlite.observations import ObservationsMixin
from kindling.store.sqlite.pins import PinsMixin
from kindling.store.sqlite.search import SearchMixin
from kindling.store.sqlite.summaries import SummariesMixin
from kindling.store.sqlite.tokens import SqliteTokensMixin
from kindling.store.sqlite.vectors import VectorsMixin


class SqliteStore(
    ObservationsMixin,
    CapsulesMixin,
    SummariesMixin,
    PinsMixin,
    SearchMixin,
    SummaryDetailsMixin,
    ForgetMixin,
    ExportMixin,
    SqliteTokensMixin,
    VectorsMixin,
):
    """The embedded SQLite backend of the ``Store`` protocol."""

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

    def close(self) -> None:
        self.db.close()

    @property
    def path(self) -> str:
        return self.db.path

    @property
    def read_only(self) -> bool:
        """Opened ``mode=ro`` (see ``store.files``): asked for, or the file is not writable."""
        return self.db.read_only

    @property
    def wal_purged(self) -> bool:
        """The last forget's old pages left the WAL file."""
        return self.db.wal_purged

    @property
    def connection(self) -> sqlite3.Connection:
        """The raw connection, for maintenance tools and tests; not for domain code."""
        return self.db.conn

    def transaction(self) -> AbstractContextManager[None]:
        """One write transaction; nested calls join the outer one."""
        return self.db.transaction()

    def schema_version(self) -> int:
        return self.db.schema_version()

    def stats(self) -> StoreStats:
        read = self.db.read
        by_kind = dict(read("SELECT kind, COUNT(*) FROM observations GROUP BY kind"))
        redacted = read("SELECT COUNT(*) FROM observations WHERE redacted = 1")[0][0]
        by_status = dict(read("SELECT status, COUNT(*) FROM capsules GROUP BY status"))
        summaries = read("SELECT COUNT(*) FROM summaries")[0][0]
        pins = read("SELECT COUNT(*) FROM pins")[0][0]
        return StoreStats(by_kind, redacted, by_status, summaries, pins, self.schema_version())

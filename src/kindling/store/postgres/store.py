"""PostgreSQL backend of the ``Store`` protocol: the same verbs and meaning as ``SqliteStore``.

The store is one ``PgDatabase`` (``connection``: the dialect, a connection pool, per-thread
transactions, error mapping and migrations), the verbs every backend shares (``store.sql``)
and PostgreSQL's own: search (``search``), observation writes that keep the search documents
(``observations``) and the forget steps that rebuild documents and vacuum (``forget``).
Row shapes are the shared ones (``store.rows``), so both backends build the same values.

Concurrency: appends to one capsule lock the capsule row, so sequence numbers never collide;
a unique partial index keeps one open session capsule per session even when two writers race
(the loser gets ``ConflictError``).

Must not import anything from Kindling except ``model``, ``errors`` and ``store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Unpack

from kindling.store.base import Capabilities, PurgeState
from kindling.store.postgres.connection import PgDatabase, PgOptions
from kindling.store.postgres.forget import PURGE_REMAINS, PgForgetMixin
from kindling.store.postgres.observations import PgObservationsMixin
from kindling.store.postgres.search import PgSearchMixin
from kindling.store.sql.store import SqlStore

_CAPABILITIES = Capabilities(
    backend="postgresql", thread_safe=True, local_path=None, purge_remains=PURGE_REMAINS
)


class PostgresStore(PgObservationsMixin, PgSearchMixin, PgForgetMixin, SqlStore):
    """A shared store on a PostgreSQL server; thread-safe (one pooled connection per
    transaction)."""

    db: PgDatabase

    def __init__(self, conninfo: str, **options: Unpack[PgOptions]) -> None:
        self.db = PgDatabase(conninfo, on_forgotten=self.after_forget, **options)
        self.stats_cache = self.db.stats_cache

    @property
    def capabilities(self) -> Capabilities:
        """One pooled connection per transaction and thread: safe to share between threads."""
        return _CAPABILITIES

    def purge_state(self) -> PurgeState:
        return PurgeState(self.wal_purged, self.purge_holders)

    # ``search`` runs its SQL through these (``self.db``'s own).

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return self.db.read(sql, params)

    def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self.db.write(sql, params)

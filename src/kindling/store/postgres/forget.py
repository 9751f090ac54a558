"""The forgetting steps of ``PostgresStore`` that touch its documents and its old row versions
(the rest are shared: ``store.sql.forget``; the same meaning as ``store.sqlite.forget``).

Texts are rewritten in place (``[redacted]``), and the search documents that quoted them
rebuilt in the same transaction. An ``UPDATE`` leaves the old
row version (with the text) in the table until VACUUM: so once the forgetting transaction has
committed, the store runs ``VACUUM`` on the tables it touched (from an autocommit connection),
which removes the old versions unless a snapshot taken before the commit still needs them.
Such snapshots are looked up first (``pg_stat_activity``, replication slots, prepared
transactions): with one, ``wal_purged`` is False and ``purge_holders`` names it, as the SQLite
store reports a reader that keeps the WAL; ``finish_purge`` vacuums again once they are gone.
What VACUUM does not remove (freed page space, the GIN index's words, WAL, backups) is said in
``purge_remains`` and docs/privacy.md.

Must not import anything from Kindling except ``store``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kindling.model import REDACTED
from kindling.store.postgres.connection import PgDatabase

# Where forgotten text can be; ``finish_purge`` vacuums them all.
_TEXT_TABLES = (
    "capsules",
    "observations",
    "pins",
    "summaries",
    "summary_details",
    "observation_vectors",
    "summary_vectors",
)
FINISH_POLL_S = 0.1
PURGE_REMAINS = (
    "PostgreSQL can keep the bytes in freed page space, in the search index's word list,"
    " in WAL and in backups until `VACUUM FULL` and their expiry (docs/privacy.md)"
)


class PgForgetMixin:
    wal_purged = True  # False while a snapshot older than the last forget keeps old versions
    purge_holders: tuple[str, ...] = ()

    db: PgDatabase

    if TYPE_CHECKING:

        def index_observations(self, obs_ids: Sequence[str]) -> None: ...

    def after_forget(self, tables: Sequence[str], xid: int | None) -> None:
        """Vacuum ``tables`` now that the forget of transaction ``xid`` has committed, and
        name the snapshots that may still see the old versions."""
        holders = self._snapshot_holders(xid)
        self.db.outside_transaction(f"VACUUM (INDEX_CLEANUP OFF) {', '.join(tables)}")
        self.purge_holders, self.wal_purged = holders, not holders

    def _snapshot_holders(self, xid: int | None) -> tuple[str, ...]:
        """Snapshots of this database that may still see versions deleted by transaction
        ``xid`` (None: by any transaction that has committed), oldest first."""
        if xid is None:  # the next transaction id: every snapshot open now
            xid = int(self.db.read("SELECT pg_snapshot_xmax(pg_current_snapshot())::text")[0][0])
        rows = self.db.read(
            "SELECT who FROM (SELECT age(backend_xmin) AS a, 'PostgreSQL connection ' || pid"
            " || ' (' || usename || '@' || COALESCE(NULLIF(application_name, ''),"
            " client_addr::text, 'local') || ', ' || state || ')' AS who"
            " FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND backend_xmin IS NOT NULL"
            " UNION ALL SELECT age(xmin), 'replication slot ' || slot_name"
            " FROM pg_replication_slots WHERE xmin IS NOT NULL"
            " UNION ALL SELECT age(transaction), 'prepared transaction ' || gid"
            " FROM pg_prepared_xacts WHERE database = current_database()) h"
            " WHERE a >= age(%s::text::xid) ORDER BY a DESC, who",
            (str(xid % 2**32),),
        )
        return tuple(r[0] for r in rows)

    def forget_capsule_intent(self, capsule_id: str) -> bool:
        """Forget a capsule's intent, and rebuild the documents that carried it."""
        with self.db.transaction():
            self.db.forgetting("capsules", "observations")
            done = self.db.write(
                "UPDATE capsules SET intent = %s WHERE id = %s", (REDACTED, capsule_id)
            )
            rows = self.db.read(
                "SELECT observation_id FROM capsule_observations WHERE capsule_id = %s",
                (capsule_id,),
            )
            self.index_observations([r[0] for r in rows])
        return done > 0

    def finish_purge(self, *, wait_ms: int = 0) -> bool:
        """Vacuum every table that holds text once no snapshot older than now is left (waiting
        up to ``wait_ms`` for that); False, with ``purge_holders`` set, while one is."""
        deadline = time.monotonic() + wait_ms / 1000
        holders = self._snapshot_holders(None)
        while holders and time.monotonic() < deadline:
            time.sleep(FINISH_POLL_S)
            holders = self._snapshot_holders(None)
        self.db.outside_transaction(f"VACUUM (INDEX_CLEANUP OFF) {', '.join(_TEXT_TABLES)}")
        self.purge_holders, self.wal_purged = holders, not holders
        return self.wal_purged

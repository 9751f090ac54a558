"""The forgetting verbs of ``PostgresStore`` (the same meaning as ``store.sqlite.forget``).

Texts are rewritten in place (``[redacted]``), pin reasons and capsule intents cleared, and the
search documents that quoted them rebuilt in the same transaction. An ``UPDATE`` leaves the old
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
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from kindling.model import REDACTED
from kindling.store.base import TextMatches
from kindling.store.rows import SUMMARY_DETAIL_TEXT, like_pattern

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


class PgForgetMixin:
    wal_purged = True  # False while a snapshot older than the last forget keeps old versions
    purge_holders: tuple[str, ...] = ()
    purge_remains = (
        "PostgreSQL can keep the bytes in freed page space, in the search index's word list,"
        " in WAL and in backups until `VACUUM FULL` and their expiry (docs/privacy.md)"
    )

    if TYPE_CHECKING:

        def outside_transaction(self, sql: str) -> None: ...

        def write(self, sql: str, params: Sequence[Any] = ()) -> int: ...
        def read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...
        def transaction(self) -> AbstractContextManager[None]: ...
        def index_summary(self, summary_id: str) -> None: ...
        def index_observations(self, obs_ids: Sequence[str]) -> None: ...

        def mark_forgotten(self, *tables: str) -> None: ...

    def after_forget(self, tables: Sequence[str], xid: int | None) -> None:
        """Vacuum ``tables`` now that the forget of transaction ``xid`` has committed, and
        name the snapshots that may still see the old versions."""
        holders = self._snapshot_holders(xid)
        self.outside_transaction(f"VACUUM (INDEX_CLEANUP OFF) {', '.join(tables)}")
        self.purge_holders, self.wal_purged = holders, not holders

    def _snapshot_holders(self, xid: int | None) -> tuple[str, ...]:
        """Snapshots of this database that may still see versions deleted by transaction
        ``xid`` (None: by any transaction that has committed), oldest first."""
        if xid is None:  # the next transaction id: every snapshot open now
            xid = int(self.read("SELECT pg_snapshot_xmax(pg_current_snapshot())::text")[0][0])
        rows = self.read(
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

    def forget_summary(self, summary_id: str) -> bool:
        with self.transaction():
            self.mark_forgotten("summaries", "summary_details", "summary_vectors")
            done = self.write(
                "UPDATE summaries SET content = %s WHERE id = %s", (REDACTED, summary_id)
            )
            self.write("DELETE FROM summary_details WHERE summary_id = %s", (summary_id,))
            if done:
                self.index_summary(summary_id)
        return done > 0

    def delete_pin_purged(self, pin_id: str) -> bool:
        with self.transaction():
            self.mark_forgotten("pins")
            return self.write("DELETE FROM pins WHERE id = %s", (pin_id,)) > 0

    def clear_pin_reason(self, pin_id: str) -> bool:
        with self.transaction():
            self.mark_forgotten("pins")
            return self.write("UPDATE pins SET reason = NULL WHERE id = %s", (pin_id,)) > 0

    def forget_capsule_intent(self, capsule_id: str) -> bool:
        """Forget a capsule's intent, and rebuild the documents that carried it."""
        with self.transaction():
            self.mark_forgotten("capsules", "observations")
            done = self.write(
                "UPDATE capsules SET intent = %s WHERE id = %s", (REDACTED, capsule_id)
            )
            rows = self.read(
                "SELECT observation_id FROM capsule_observations WHERE capsule_id = %s",
                (capsule_id,),
            )
            self.index_observations([r[0] for r in rows])
        return done > 0

    def summaries_citing(self, obs_ids: Sequence[str]) -> list[str]:
        if not obs_ids:
            return []
        rows = self.read(
            "SELECT DISTINCT s.id FROM summaries s,"
            " jsonb_array_elements_text(s.evidence_refs::jsonb) AS e(ref)"
            " WHERE e.ref = ANY(%s)",
            (list(obs_ids),),
        )
        return sorted(r[0] for r in rows)

    def find_text(self, text: str) -> TextMatches:
        """Every entity whose stored text contains ``text`` (case-insensitive)."""
        like = like_pattern(text)

        def ids(sql: str, n: int) -> tuple[str, ...]:
            return tuple(sorted({r[0] for r in self.read(sql, (like,) * n)}))

        detail_where = " OR ".join(f"d.{c} ILIKE %s" for c in SUMMARY_DETAIL_TEXT)
        return TextMatches(
            observations=ids(
                "SELECT id FROM observations WHERE content ILIKE %s OR provenance ILIKE %s", 2
            ),
            summaries=ids(
                "SELECT s.id FROM summaries s LEFT JOIN summary_details d"
                f" ON d.summary_id = s.id WHERE s.content ILIKE %s OR {detail_where}"
                " OR d.refs ILIKE %s",
                len(SUMMARY_DETAIL_TEXT) + 2,
            ),
            pins=ids("SELECT id FROM pins WHERE reason ILIKE %s", 1),
            capsules=ids("SELECT id FROM capsules WHERE intent ILIKE %s", 1),
        )

    def finish_purge(self, *, wait_ms: int = 0) -> bool:
        """Vacuum every table that holds text once no snapshot older than now is left (waiting
        up to ``wait_ms`` for that); False, with ``purge_holders`` set, while one is."""
        deadline = time.monotonic() + wait_ms / 1000
        holders = self._snapshot_holders(None)
        while holders and time.monotonic() < deadline:
            time.sleep(FINISH_POLL_S)
            holders = self._snapshot_holders(None)
        self.outside_transaction(f"VACUUM (INDEX_CLEANUP OFF) {', '.join(_TEXT_TABLES)}")
        self.purge_holders, self.wal_purged = holders, not holders
        return self.wal_purged

"""The forgetting verbs of ``SqliteStore`` that touch its index and files (the rest are
shared: ``store.sql.forget``).

Forgetting rewrites rows in place (an observation keeps its id and shape; its text becomes
``[redacted]``), takes the text out of the index rows that quoted it, and marks the
transaction so that its commit merges the FTS segments and truncates the WAL (``purge``).
``finish_purge`` retries that truncation for a later process, once the reader that held an old
snapshot has gone.

Must not import anything from Kindling except ``model``, ``errors`` and ``store``.
"""

from __future__ import annotations

import sqlite3

import kindling.store.sqlite.index as index
from kindling.model import REDACTED
from kindling.store.sqlite.connection import Database, store_error
from kindling.store.sqlite.purge import truncate_wal


class ForgetMixin:
    """``forget_observation``, ``forget_capsule_intent`` and ``finish_purge``."""

    db: Database

    def forget_observation(self, obs_id: str) -> bool:
        """Forget an observation's text everywhere, including on disk (see ``purge``): its
        row, its index entry, and the index entry of the neighbour whose context held it.

        Runs again on an already redacted row, so that text left in the index or the WAL by
        an older tool is purged too."""
        db = self.db
        try:
            with db.transaction():
                db.index_pending()
                found = db.conn.execute(
                    "SELECT rowid FROM observations WHERE id = ?", (obs_id,)
                ).fetchone()
                if found is None:
                    return False
                touched = index.dependents(db.conn, int(found[0]))
                with index.reindexing(db.conn, touched):
                    db.conn.execute(  # the split identifiers of its content are its text too
                        "UPDATE observation_context SET parts = '' WHERE rowid = ?", (found[0],)
                    )
                    db.conn.execute(
                        "UPDATE observations SET content = '[redacted]', provenance = '{}',"
                        " redacted = 1 WHERE id = ?",
                        (obs_id,),
                    )
                db.purge_on_commit()
        except sqlite3.DatabaseError as exc:
            raise store_error(exc, db.path) from exc
        return True

    def forget_capsule_intent(self, capsule_id: str) -> bool:
        """Forget a capsule's intent, and the copy of it its observations are indexed with."""
        with self.db.transaction():
            self.db.index_pending()  # appends of this transaction get their context rows first
            rows = [
                int(r[0])
                for r in self.db.conn.execute(
                    "SELECT x.rowid FROM observation_context x"
                    " JOIN observations o ON o.rowid = x.rowid"
                    " JOIN capsule_observations co ON co.observation_id = o.id"
                    " JOIN capsules c ON c.id = co.capsule_id"
                    " WHERE c.id = ? AND x.intent = c.intent",
                    (capsule_id,),
                )
            ]
            with index.reindexing(self.db.conn, rows):
                for start in range(0, len(rows), 500):
                    chunk = rows[start : start + 500]
                    marks = ",".join("?" * len(chunk))
                    self.db.conn.execute(
                        f"UPDATE observation_context SET intent = ? WHERE rowid IN ({marks})",
                        (REDACTED, *chunk),
                    )
            self.db.forgetting("capsules")
            return (
                self.db.write("UPDATE capsules SET intent = ? WHERE id = ?", (REDACTED, capsule_id))
                > 0
            )

    def finish_purge(self, *, wait_ms: int = 0) -> bool:
        """Checkpoint and empty the WAL now; False while a reader still holds old pages."""
        db = self.db
        if db.path == ":memory:":
            return True
        try:
            db.wal_purged = truncate_wal(db.conn, wait_ms=wait_ms)
        except sqlite3.DatabaseError as exc:
            raise store_error(exc, db.path) from exc
        return db.wal_purged

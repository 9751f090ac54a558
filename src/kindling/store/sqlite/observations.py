"""The observation writes of ``SqliteStore``: append (one or a batch) and link to a capsule.

Appends do not index: they mark the rows for ``Database.index_pending``, which indexes a
transaction's appends in one step (see ``connection``). Linking an indexed observation to its
first capsule gives its index row that capsule's intent. The reads are shared
(``store.sql.observations``).

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from kindling.model import Observation
from kindling.store.rows import observation_values
from kindling.store.sqlite import index
from kindling.store.sqlite.connection import Database, store_error


class ObservationWritesMixin:
    """``insert_observations`` and ``link_observation``."""

    db: Database

    def insert_observations(self, items: Sequence[tuple[Observation, str | None]]) -> None:
        """Insert observations (each with the capsule it joins, or None) and index them, in
        one transaction and a fixed number of statements whatever the batch size."""
        if not items:
            return
        db = self.db
        try:
            with db.transaction():
                conn = db.conn
                first = conn.execute(
                    "SELECT COALESCE(MAX(rowid), 0) + 1 FROM observations"
                ).fetchone()[0]
                conn.executemany(
                    "INSERT INTO observations (id, kind, content, provenance, ts, scope_ids,"
                    " redacted, session_id, repo_id, agent_id, user_id)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [observation_values(obs) for obs, _ in items],
                )
                links = [(cid, obs.id, cid) for obs, cid in items if cid is not None]
                if links:
                    conn.executemany(
                        "INSERT INTO capsule_observations (capsule_id, observation_id, seq)"
                        " SELECT ?, ?, COALESCE(MAX(seq) + 1, 0) FROM capsule_observations"
                        " WHERE capsule_id = ?",
                        links,
                    )
                db.appended(int(first))
        except sqlite3.DatabaseError as exc:
            raise store_error(exc, db.path) from exc

    def link_observation(self, capsule_id: str, obs_id: str) -> bool:
        """Append an existing observation to a capsule; False if it was already there. An
        observation indexed without a capsule takes this one's intent as context."""
        db = self.db
        try:
            with db.transaction():
                cur = db.conn.execute(
                    "INSERT OR IGNORE INTO capsule_observations (capsule_id, observation_id, seq)"
                    " SELECT ?, ?, COALESCE(MAX(seq) + 1, 0) FROM capsule_observations"
                    " WHERE capsule_id = ?",
                    (capsule_id, obs_id, capsule_id),
                )
                if cur.rowcount <= 0:
                    return False
                # An observation appended in this transaction is not indexed yet: it has no
                # context row, and indexing it at commit will find this link.
                row = db.conn.execute(
                    "SELECT x.rowid FROM observation_context x JOIN observations o"
                    " ON o.rowid = x.rowid WHERE o.id = ? AND x.intent = ''",
                    (obs_id,),
                ).fetchone()
                if row is not None:
                    with index.reindexing(db.conn, [row[0]]):
                        db.conn.execute(
                            "UPDATE observation_context SET intent ="
                            " (SELECT intent FROM capsules WHERE id = ?) WHERE rowid = ?",
                            (capsule_id, row[0]),
                        )
        except sqlite3.DatabaseError as exc:
            raise store_error(exc, db.path) from exc
        return True

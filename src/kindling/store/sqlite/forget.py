"""The forgetting verbs of ``SqliteStore``: every copy of a text, then the files.

Forgetting rewrites rows in place (an observation or summary keeps its id, shape and
``evidence_refs``; its text becomes ``[redacted]``), clears pin reasons and capsule intents,
and marks the transaction so that its commit merges the FTS segments and truncates the WAL
(``purge``). ``finish_purge`` retries that truncation for a later process, once the reader
that held an old snapshot has gone.

Text search here is a plain, case-insensitive (ASCII) substring match over every stored text:
it has to find what FTS tokenisation would split or stem.

Must not import anything from Kindling except ``model``, ``errors`` and ``store``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from kindling.model import REDACTED
from kindling.store.base import TextMatches, iter_chunks
from kindling.store.rows import SUMMARY_DETAIL_TEXT, like_pattern, store_error
from kindling.store.sqlite import index
from kindling.store.sqlite.connection import Database
from kindling.store.sqlite.purge import truncate_wal


class ForgetMixin:
    """Forgetting verbs of the ``Store`` protocol, for ``SqliteStore``."""

    db: Database

    def _purging(self, sql: str, params: Sequence[Any]) -> bool:
        db = self.db
        try:
            with db.transaction():
                cur = db.conn.execute(sql, params)
                db.purge_on_commit()
        except sqlite3.DatabaseError as exc:
            raise store_error(exc, db.path) from exc
        return cur.rowcount > 0

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

    def forget_summary(self, summary_id: str) -> bool:
        """Forget a summary's text (content and structured fields); its id and refs stay."""
        with self.db.transaction():
            done = self._purging(
                "UPDATE summaries SET content = ?, segments = NULL WHERE id = ?",
                (REDACTED, summary_id),
            )
            self._purging("DELETE FROM summary_details WHERE summary_id = ?", (summary_id,))
        return done

    def delete_pin_purged(self, pin_id: str) -> bool:
        return self._purging("DELETE FROM pins WHERE id = ?", (pin_id,))

    def clear_pin_reason(self, pin_id: str) -> bool:
        return self._purging("UPDATE pins SET reason = NULL WHERE id = ?", (pin_id,))

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
            return self._purging(
                "UPDATE capsules SET intent = ? WHERE id = ?", (REDACTED, capsule_id)
            )

    def summaries_citing(self, obs_ids: Sequence[str]) -> list[str]:
        """Ids of summaries whose evidence refs name one of ``obs_ids`` (sorted)."""
        found: set[str] = set()
        for chunk in iter_chunks(list(obs_ids)):
            marks = ",".join("?" * len(chunk))
            rows = self.db.read(
                "SELECT DISTINCT s.id FROM summaries s, json_each(s.evidence_refs) e"
                f" WHERE e.value IN ({marks})",
                chunk,
            )
            found.update(r[0] for r in rows)
        return sorted(found)

    def find_text(self, text: str) -> TextMatches:
        """Every entity whose stored text contains ``text`` (ASCII case-insensitive)."""
        like = like_pattern(text)

        def ids(sql: str, n: int) -> tuple[str, ...]:
            return tuple(sorted({r[0] for r in self.db.read(sql, (like,) * n)}))

        detail_where = " OR ".join(f"d.{c} LIKE ? ESCAPE '\\'" for c in SUMMARY_DETAIL_TEXT)
        return TextMatches(
            observations=ids(
                "SELECT id FROM observations WHERE content LIKE ? ESCAPE '\\'"
                " OR provenance LIKE ? ESCAPE '\\'",
                2,
            ),
            summaries=ids(
                "SELECT s.id FROM summaries s LEFT JOIN summary_details d"
                " ON d.summary_id = s.id WHERE s.content LIKE ? ESCAPE '\\'"
                f" OR {detail_where} OR d.refs LIKE ? ESCAPE '\\'",
                len(SUMMARY_DETAIL_TEXT) + 2,
            ),
            pins=ids("SELECT id FROM pins WHERE reason LIKE ? ESCAPE '\\'", 1),
            capsules=ids("SELECT id FROM capsules WHERE intent LIKE ? ESCAPE '\\'", 1),
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

"""The forgetting verbs of ``SqliteStore``: every copy of a text, then the files.

Forgetting rewrites rows in place (an observation or summary keeps its id, shape and
``evidence_refs``; its text becomes ``[redacted]``), clears pin reasons and capsule intents,
and marks the transaction so that its commit merges the FTS segments and truncates the WAL
(``store.purge``). ``finish_purge`` retries that truncation for a later process, once the reader
that held an old snapshot has gone.

Text search here is a plain, case-insensitive (ASCII) substring match over every stored text:
it has to find what FTS tokenisation would split or stem.

Must not import anything from Kindling except ``model``, ``errors`` and ``store``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from kindling.store import sqlite_index
from kindling.store.base import TextMatches, iter_chunks
from kindling.store.purge import truncate_wal
from kindling.store.rows import store_error

REDACTED = "[redacted]"
_SUMMARY_TEXT = ("topic", "context", "decisions", "rationale", "open_questions", "next_steps")


def like_pattern(text: str) -> str:
    """``text`` as a LIKE pattern matching it anywhere (with ``ESCAPE '\\'``)."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


class ForgetMixin:
    """Forgetting verbs of the ``Store`` protocol, for ``SqliteStore``."""

    if TYPE_CHECKING:
        path: str
        wal_purged: bool
        _conn: sqlite3.Connection
        _purge_pending: bool

        def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...
        def _index_pending(self) -> None: ...
        def transaction(self) -> AbstractContextManager[None]: ...

    def _purging(self, sql: str, params: Sequence[Any]) -> bool:
        try:
            with self.transaction():
                cur = self._conn.execute(sql, params)
                self._purge_pending = True
        except sqlite3.DatabaseError as exc:
            raise store_error(exc, self.path) from exc
        return cur.rowcount > 0

    def redact_summary(self, summary_id: str) -> bool:
        """Forget a summary's text (content and structured fields); its id and refs stay."""
        with self.transaction():
            done = self._purging(
                "UPDATE summaries SET content = ? WHERE id = ?", (REDACTED, summary_id)
            )
            self._purging("DELETE FROM summary_details WHERE summary_id = ?", (summary_id,))
        return done

    def delete_pin_purged(self, pin_id: str) -> bool:
        return self._purging("DELETE FROM pins WHERE id = ?", (pin_id,))

    def clear_pin_reason(self, pin_id: str) -> bool:
        return self._purging("UPDATE pins SET reason = NULL WHERE id = ?", (pin_id,))

    def redact_capsule_intent(self, capsule_id: str) -> bool:
        """Forget a capsule's intent, and the copy of it its observations are indexed with."""
        with self.transaction():
            self._index_pending()  # appends of this transaction get their context rows first
            rows = [
                int(r[0])
                for r in self._conn.execute(
                    "SELECT x.rowid FROM observation_context x"
                    " JOIN observations o ON o.rowid = x.rowid"
                    " JOIN capsule_observations co ON co.observation_id = o.id"
                    " JOIN capsules c ON c.id = co.capsule_id"
                    " WHERE c.id = ? AND x.intent = c.intent",
                    (capsule_id,),
                )
            ]
            with sqlite_index.reindexing(self._conn, rows):
                for start in range(0, len(rows), 500):
                    chunk = rows[start : start + 500]
                    marks = ",".join("?" * len(chunk))
                    self._conn.execute(
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
            rows = self._read(
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
            return tuple(sorted({r[0] for r in self._read(sql, (like,) * n)}))

        detail_where = " OR ".join(f"d.{c} LIKE ? ESCAPE '\\'" for c in _SUMMARY_TEXT)
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
                len(_SUMMARY_TEXT) + 2,
            ),
            pins=ids("SELECT id FROM pins WHERE reason LIKE ? ESCAPE '\\'", 1),
            capsules=ids("SELECT id FROM capsules WHERE intent LIKE ? ESCAPE '\\'", 1),
        )

    def finish_purge(self, *, wait_ms: int = 0) -> bool:
        """Checkpoint and empty the WAL now; False while a reader still holds old pages."""
        if self.path == ":memory:":
            return True
        try:
            self.wal_purged = truncate_wal(self._conn, wait_ms=wait_ms)
        except sqlite3.DatabaseError as exc:
            raise store_error(exc, self.path) from exc
        return self.wal_purged


def database_files(path: str) -> Iterator[str]:
    """The database file and its WAL companions."""
    yield path
    yield f"{path}-wal"
    yield f"{path}-shm"

"""The summary verbs of ``SqliteStore``: one summary per capsule, written and read back.

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from kindling.model import Scope, Summary
from kindling.store.base import iter_chunks
from kindling.store.rows import SUMMARY_COLUMNS, scope_where, store_error, summary_row
from kindling.store.sqlite.connection import Database
from kindling.store.sqlite.index import summary_segments


class SummariesMixin:
    """Summary verbs of the ``Store`` protocol (the structured fields are in ``details``)."""

    db: Database

    def upsert_summary(self, summary: Summary) -> Summary:
        db = self.db
        try:
            with db.transaction():
                existing = self.summary_for_capsule(summary.capsule_id)
                if existing is None:
                    db.conn.execute(
                        "INSERT INTO summaries (id, capsule_id, content, confidence, created_at,"
                        " evidence_refs, segments) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (
                            summary.id,
                            summary.capsule_id,
                            summary.content,
                            summary.confidence,
                            summary.created_at,
                            json.dumps(list(summary.evidence_refs)),
                            summary_segments(summary.content),
                        ),
                    )
                    return summary
                db.conn.execute(
                    "UPDATE summaries SET content = ?, confidence = ?, created_at = ?,"
                    " evidence_refs = ?, segments = ? WHERE id = ?",
                    (
                        summary.content,
                        summary.confidence,
                        summary.created_at,
                        json.dumps(list(summary.evidence_refs)),
                        summary_segments(summary.content),
                        existing.id,
                    ),
                )
                return Summary(
                    id=existing.id,
                    capsule_id=summary.capsule_id,
                    content=summary.content,
                    confidence=summary.confidence,
                    created_at=summary.created_at,
                    evidence_refs=summary.evidence_refs,
                )
        except sqlite3.DatabaseError as exc:
            raise store_error(exc, db.path) from exc

    def get_summary(self, summary_id: str) -> Summary | None:
        return self.get_summaries([summary_id]).get(summary_id)

    def get_summaries(self, ids: Sequence[str]) -> dict[str, Summary]:
        found: dict[str, Summary] = {}
        for chunk in iter_chunks(list(ids)):
            marks = ",".join("?" * len(chunk))
            for row in self.db.read(
                f"SELECT {SUMMARY_COLUMNS} FROM summaries s WHERE s.id IN ({marks})", chunk
            ):
                found[row[0]] = summary_row(row)
        return found

    def summary_for_capsule(self, capsule_id: str) -> Summary | None:
        rows = self.db.read(
            f"SELECT {SUMMARY_COLUMNS} FROM summaries s WHERE s.capsule_id = ?", (capsule_id,)
        )
        return summary_row(rows[0]) if rows else None

    def list_summaries(self, *, scope: Scope, limit: int) -> list[Summary]:
        where, params = scope_where(scope, "c")
        rows = self.db.read(
            f"SELECT {SUMMARY_COLUMNS} FROM summaries s JOIN capsules c ON c.id = s.capsule_id"
            f" WHERE {where} ORDER BY s.created_at DESC, s.id LIMIT ?",
            [*params, limit],
        )
        return [summary_row(r) for r in rows]

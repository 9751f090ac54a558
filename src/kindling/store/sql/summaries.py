"""The summary verbs, written once: one summary per capsule, and the structured fields of
chat memories (seed 002: the ``summary_details`` table).

A backend whose search index does not follow the ``summaries`` table by itself rebuilds a
summary's document in ``index_summary`` (PostgreSQL); SQLite's triggers need nothing.

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from kindling.model import Scope, Summary
from kindling.store.rows import SUMMARY_COLUMNS, json_list, scope_where, summary_row
from kindling.store.sql.dialect import UsesDatabase, read_by_ids

if TYPE_CHECKING:  # the chat memories' values load when a memory is read, not on open
    from kindling.model import SummaryDetails

_DETAIL_COLUMNS = (
    "summary_id",
    "topic",
    "status",
    "created_at",
    "updated_at",
    "context",
    "topic_id",
    "plan_id",
    "session_id",
    "source_created_at",
    "decisions",
    "rationale",
    "open_questions",
    "next_steps",
    "refs",
)
_DETAIL_SELECT = ", ".join(f"d.{c}" for c in _DETAIL_COLUMNS)


def _details(row: Sequence[Any]) -> SummaryDetails:
    from kindling.model import SummaryDetails

    return SummaryDetails(
        summary_id=row[0],
        topic=row[1],
        status=row[2],
        created_at=row[3],
        updated_at=row[4],
        context=row[5],
        topic_id=row[6],
        plan_id=row[7],
        session_id=row[8],
        source_created_at=row[9],
        decisions=json_list(row[10]),
        rationale=json_list(row[11]),
        open_questions=json_list(row[12]),
        next_steps=json_list(row[13]),
        references=json_list(row[14]),
    )


class SummariesMixin(UsesDatabase):
    """Summary verbs of the ``Store`` protocol, structured fields included."""

    def index_summary(self, summary_id: str) -> None:
        """Rebuild the search document of a summary just written (nothing by default: the
        backend's index follows the table itself)."""

    def upsert_summary(self, summary: Summary) -> Summary:
        refs = json.dumps(list(summary.evidence_refs))
        db = self.db
        with db.transaction():
            # Two writers setting one capsule's summary must not both insert.
            db.lock_rows("capsules", [summary.capsule_id])
            existing = self.summary_for_capsule(summary.capsule_id)
            if existing is None:
                db.write(
                    "INSERT INTO summaries (id, capsule_id, content, confidence, created_at,"
                    " evidence_refs) VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        summary.id,
                        summary.capsule_id,
                        summary.content,
                        summary.confidence,
                        summary.created_at,
                        refs,
                    ),
                )
                self.index_summary(summary.id)
                return summary
            db.write(
                "UPDATE summaries SET content = ?, confidence = ?, created_at = ?,"
                " evidence_refs = ? WHERE id = ?",
                (summary.content, summary.confidence, summary.created_at, refs, existing.id),
            )
            self.index_summary(existing.id)
            return replace(summary, id=existing.id)

    def get_summary(self, summary_id: str) -> Summary | None:
        return self.get_summaries([summary_id]).get(summary_id)

    def get_summaries(self, ids: Sequence[str]) -> dict[str, Summary]:
        rows = read_by_ids(self.db, f"SELECT {SUMMARY_COLUMNS} FROM summaries s", "s.id", ids)
        return {row[0]: summary_row(row) for row in rows}

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

    def insert_summary_details(self, details: SummaryDetails) -> None:
        lists = (
            details.decisions,
            details.rationale,
            details.open_questions,
            details.next_steps,
            details.references,
        )
        self.db.write(
            f"INSERT INTO summary_details ({', '.join(_DETAIL_COLUMNS)})"
            f" VALUES ({', '.join('?' * len(_DETAIL_COLUMNS))})",
            (
                details.summary_id,
                details.topic,
                details.status,
                details.created_at,
                details.updated_at,
                details.context,
                details.topic_id,
                details.plan_id,
                details.session_id,
                details.source_created_at,
                *(json.dumps(list(items), ensure_ascii=False) for items in lists),
            ),
        )

    def get_summary_details(self, summary_ids: Sequence[str]) -> dict[str, SummaryDetails]:
        select = f"SELECT {_DETAIL_SELECT} FROM summary_details d"
        rows = read_by_ids(self.db, select, "d.summary_id", summary_ids)
        return {row[0]: _details(row) for row in rows}

    def supersede_active(
        self, repo_id: str, topic_id: str, *, keep_id: str, updated_at: int
    ) -> list[str]:
        """Mark Superseded every Active memory of ``topic_id`` in workspace ``repo_id`` except
        ``keep_id``; return their summary ids, sorted."""
        db = self.db
        with db.transaction():
            ids = sorted(
                r[0]
                for r in db.read(
                    "SELECT d.summary_id FROM summary_details d"
                    " JOIN summaries s ON s.id = d.summary_id"
                    " JOIN capsules c ON c.id = s.capsule_id"
                    " WHERE d.topic_id = ? AND d.status = 'Active' AND c.repo_id = ?"
                    " AND d.summary_id <> ?",
                    (topic_id, repo_id, keep_id),
                )
            )
            for condition, chunk in db.dialect.in_ids("summary_id", ids):
                db.write(
                    f"UPDATE summary_details SET status = 'Superseded', updated_at = ?"
                    f" WHERE {condition}",
                    (updated_at, *chunk),
                )
        return ids

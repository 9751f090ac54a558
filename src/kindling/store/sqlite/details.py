"""SQLite storage of structured summaries (chat memories, seed 002): the ``summary_details``
table of migration 8, mixed into ``SqliteStore``.

Reaches the database only through ``Database.read``/``write``/``transaction`` (see
``connection``).

Must not import anything from Kindling except ``model`` and ``store.base``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kindling.store.base import iter_chunks
from kindling.store.sqlite.connection import Database

if TYPE_CHECKING:  # the chat memories' values load when a memory is read, not on open
    from kindling.model import SummaryDetails

_COLUMNS = (
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
_SELECT = ", ".join(f"d.{c}" for c in _COLUMNS)


def _strings(text: str | None) -> tuple[str, ...]:
    try:
        value = json.loads(text or "[]")
    except ValueError:
        return ()
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


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
        decisions=_strings(row[10]),
        rationale=_strings(row[11]),
        open_questions=_strings(row[12]),
        next_steps=_strings(row[13]),
        references=_strings(row[14]),
    )


class SummaryDetailsMixin:
    """The structured-summary verbs of the ``Store`` protocol, for ``SqliteStore``."""

    db: Database

    def insert_summary_details(self, details: SummaryDetails) -> None:
        lists = (
            details.decisions,
            details.rationale,
            details.open_questions,
            details.next_steps,
            details.references,
        )
        self.db.write(
            f"INSERT INTO summary_details ({', '.join(_COLUMNS)})"
            f" VALUES ({', '.join('?' * len(_COLUMNS))})",
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
        found: dict[str, SummaryDetails] = {}
        for chunk in iter_chunks(list(summary_ids)):
            marks = ",".join("?" * len(chunk))
            for row in self.db.read(
                f"SELECT {_SELECT} FROM summary_details d WHERE d.summary_id IN ({marks})", chunk
            ):
                found[row[0]] = _details(row)
        return found

    def supersede_active(
        self, repo_id: str, topic_id: str, *, keep_id: str, updated_at: int
    ) -> list[str]:
        """Mark Superseded every Active memory of ``topic_id`` in workspace ``repo_id`` except
        ``keep_id``; return their summary ids, sorted."""
        with self.db.transaction():
            ids = sorted(
                r[0]
                for r in self.db.read(
                    "SELECT d.summary_id FROM summary_details d"
                    " JOIN summaries s ON s.id = d.summary_id"
                    " JOIN capsules c ON c.id = s.capsule_id"
                    " WHERE d.topic_id = ? AND d.status = 'Active' AND c.repo_id = ?"
                    " AND d.summary_id != ?",
                    (topic_id, repo_id, keep_id),
                )
            )
            for chunk in iter_chunks(ids):
                self.db.write(
                    "UPDATE summary_details SET status = 'Superseded', updated_at = ?"
                    f" WHERE summary_id IN ({','.join('?' * len(chunk))})",
                    (updated_at, *chunk),
                )
        return ids

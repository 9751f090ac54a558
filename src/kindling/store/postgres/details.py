"""PostgreSQL storage of structured summaries (chat memories, seed 002), mixed into
``PostgresStore``; the same verbs and meaning as ``store.sqlite.details``.

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

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


def _strings(text: str | None) -> tuple[str, ...]:
    try:
        value = json.loads(text or "[]")
    except ValueError:
        return ()
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


class PgSummaryDetailsMixin:
    """``insert_summary_details``, ``get_summary_details`` and ``supersede_active``."""

    if TYPE_CHECKING:

        def write(self, sql: str, params: Sequence[Any] = ()) -> int: ...
        def read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...
        def transaction(self) -> AbstractContextManager[None]: ...

    def insert_summary_details(self, details: SummaryDetails) -> None:
        lists = (
            details.decisions,
            details.rationale,
            details.open_questions,
            details.next_steps,
            details.references,
        )
        self.write(
            f"INSERT INTO summary_details ({', '.join(_COLUMNS)})"
            f" VALUES ({', '.join(['%s'] * len(_COLUMNS))})",
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
        if not summary_ids:
            return {}
        rows = self.read(
            f"SELECT {', '.join(_COLUMNS)} FROM summary_details WHERE summary_id = ANY(%s)",
            (list(summary_ids),),
        )
        return {
            r[0]: SummaryDetails(
                summary_id=r[0],
                topic=r[1],
                status=r[2],
                created_at=r[3],
                updated_at=r[4],
                context=r[5],
                topic_id=r[6],
                plan_id=r[7],
                session_id=r[8],
                source_created_at=r[9],
                decisions=_strings(r[10]),
                rationale=_strings(r[11]),
                open_questions=_strings(r[12]),
                next_steps=_strings(r[13]),
                references=_strings(r[14]),
            )
            for r in rows
        }

    def supersede_active(
        self, repo_id: str, topic_id: str, *, keep_id: str, updated_at: int
    ) -> list[str]:
        with self.transaction():
            rows = self.read(
                "UPDATE summary_details d SET status = 'Superseded', updated_at = %s"
                " FROM summaries s JOIN capsules c ON c.id = s.capsule_id"
                " WHERE s.id = d.summary_id AND d.topic_id = %s AND d.status = 'Active'"
                " AND c.repo_id = %s AND d.summary_id <> %s RETURNING d.summary_id",
                (updated_at, topic_id, repo_id, keep_id),
            )
        return sorted(r[0] for r in rows)

"""The search verbs of the SQLite store: ranked candidate search and match highlighting,
mixed into ``SqliteStore`` so that ``sqlite.py`` stays small. The SQL text itself is built by
``store.search_sql``.

Uses only the store's ``_read`` (which owns the connection and turns SQLite errors into
``KindlingError``).

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kindling.model import SCOPE_FIELDS, Scope, TargetType
from kindling.store.base import BaseRank, ObservationMatch, SummaryMatch
from kindling.store.rows import (
    OBS_COLUMNS,
    SUMMARY_COLUMNS,
    observation_row,
    row_scope,
    scope_where,
    summary_row,
)
from kindling.store.search_sql import ranked_search

HIGHLIGHT_OPEN = "\x02"
HIGHLIGHT_CLOSE = "\x03"


class SearchMixin:
    """``search_observations``, ``search_summaries`` and ``highlight`` for ``SqliteStore``."""

    if TYPE_CHECKING:

        def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...

    def search_observations(
        self,
        match: str | None,
        scope: Scope,
        *,
        rank: BaseRank,
        exclude_ids: Sequence[str],
        include_redacted: bool,
        limit: int,
    ) -> list[ObservationMatch]:
        where, params = scope_where(scope, "o")
        if exclude_ids:
            where += f" AND o.id NOT IN ({','.join('?' * len(exclude_ids))})"
            params.extend(exclude_ids)
        if not include_redacted:
            where += " AND o.redacted = 0"
        sql, args = ranked_search(
            fts="observations_fts",
            table="observations o",
            joins="",
            columns=f"{OBS_COLUMNS}, o.rowid",
            ts="o.ts",
            id_col="o.id",
            where=where,
            params=params,
            match=match,
            rank=rank,
            limit=limit,
        )
        return [
            ObservationMatch(observation=observation_row(r), rowid=int(r[10]), bm25=float(r[11]))
            for r in self._read(sql, args)
        ]

    def search_summaries(
        self,
        match: str | None,
        scope: Scope,
        *,
        rank: BaseRank,
        exclude_ids: Sequence[str],
        limit: int,
    ) -> list[SummaryMatch]:
        where, params = scope_where(scope, "c")
        if exclude_ids:
            where += f" AND s.id NOT IN ({','.join('?' * len(exclude_ids))})"
            params.extend(exclude_ids)
        sql, args = ranked_search(
            fts="summaries_fts",
            table="summaries s",
            joins="JOIN capsules c ON c.id = s.capsule_id",
            columns=f"{SUMMARY_COLUMNS}, c.intent, "
            + ", ".join(f"c.{col}" for col, _ in SCOPE_FIELDS)
            + ", s.rowid",
            ts="s.created_at",
            id_col="s.id",
            where=where,
            params=params,
            match=match,
            rank=rank,
            limit=limit,
            confidence="s.confidence",
        )
        return [
            SummaryMatch(
                summary=summary_row(r),
                intent=r[6],
                scope=row_scope(r, 7),
                rowid=int(r[11]),
                bm25=float(r[12]),
            )
            for r in self._read(sql, args)
        ]

    def highlight(
        self, target_type: TargetType, match: str, rowids: Sequence[int]
    ) -> dict[int, str]:
        """Matches marked by FTS5 itself (real tokenizer, stemming included). The few winners
        are copied into a temporary FTS5 table first: ``highlight()`` on the big index would
        re-run the whole MATCH, which for common or prefix terms costs more than the search."""
        if not rowids:
            return {}
        source = "observations" if target_type == "observation" else "summaries"
        marks = ",".join("?" * len(rowids))
        self._read(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.kindling_highlight"
            " USING fts5(content, tokenize='porter unicode61')"
        )
        self._read("DELETE FROM temp.kindling_highlight")
        self._read(
            "INSERT INTO temp.kindling_highlight(rowid, content)"
            f" SELECT rowid, content FROM {source} WHERE rowid IN ({marks})",
            list(rowids),
        )
        rows = self._read(
            "SELECT rowid, highlight(kindling_highlight, 0, ?, ?) FROM temp.kindling_highlight"
            " WHERE kindling_highlight MATCH ?",
            [HIGHLIGHT_OPEN, HIGHLIGHT_CLOSE, match],
        )
        return {int(r[0]): r[1] for r in rows if r[1] is not None}

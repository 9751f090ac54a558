"""SQLite's half of the search verbs (``store.sql.search`` writes them once): the FTS5 MATCH,
its bm25 and the documents' context, as that module's hooks.

Observations: the MATCH runs on ``observations_fts`` (see ``index``) with the scope tokens
ANDed in, so FTS5 reads only the scope's part of each doclist and never looks a row up to
filter it; only the winners' rows are read afterwards, and ties in bm25 go to the newest insert
(rowid), so the cut never needs a row lookup. Summaries (one per capsule, few) are filtered
through their capsule and ordered by bm25, then newer, then id.

Reaches the database only through ``Database.read`` and ``Database.index_pending`` (see
``connection``).

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kindling.model import Scope
from kindling.store.base import ObservationMatch, iter_chunks
from kindling.store.fts import QueryPlan, term_match
from kindling.store.rows import OBS_COLUMNS
from kindling.store.sql.search import SummaryText, observation_match
from kindling.store.sqlite.connection import Database
from kindling.store.sqlite.index import BM25_BODY_ONLY, BM25_WEIGHTS, CONTEXT_SQL, scoped_match

# The winners' rows with what their index documents hold besides their own text.
_ROWS_WITH_CONTEXT = (
    f"SELECT {OBS_COLUMNS}, o.rowid, COALESCE(x.intent, ''), {CONTEXT_SQL},"
    " p.kind = 'message' AND json_valid(p.provenance)"
    " AND json_extract(p.provenance, '$.role') = 'user'"
    " FROM observations o LEFT JOIN observation_context x ON x.rowid = o.rowid"
    " LEFT JOIN observations p ON p.rowid = x.prev_rowid WHERE o.rowid IN ({marks})"
)
# Matches first (CROSS JOIN pins the order), then their capsules' scope.
_SUMMARY_SOURCE = (
    "summaries_fts CROSS JOIN summaries s ON s.rowid = summaries_fts.rowid"
    " CROSS JOIN capsules c ON c.id = s.capsule_id"
)


class SqliteSearchMixin:
    """The FTS5 hooks of ``store.sql.search.SearchMixin``."""

    db: Database

    def match_observations(
        self, plan: QueryPlan, scope: Scope, *, exclude_ids: Sequence[str], limit: int
    ) -> list[ObservationMatch]:
        assert plan.match is not None  # the shared verb reads an empty query itself
        self.db.index_pending()  # appends earlier in this transaction are searchable too
        match = scoped_match(plan.match, scope)
        # Excluded ids are few (pins and the current summary's evidence): read past them.
        top = self.db.read(
            f"SELECT rowid, bm25(observations_fts, {BM25_WEIGHTS}),"
            f" bm25(observations_fts, {BM25_BODY_ONLY})"
            " FROM observations_fts WHERE observations_fts MATCH ?"
            f" ORDER BY 2, rowid DESC LIMIT ?",
            [match, limit + len(exclude_ids)],
        )
        rows: dict[int, Any] = {}
        for chunk in iter_chunks([int(r[0]) for r in top]):
            marks = ",".join("?" * len(chunk))
            for row in self.db.read(_ROWS_WITH_CONTEXT.format(marks=marks), chunk):
                rows[int(row[10])] = row
        excluded = set(exclude_ids)
        found = []
        for rowid, bm25, body_bm25 in top:
            row = rows.get(int(rowid))
            if row is None or row[0] in excluded:
                continue
            found.append(
                observation_match(
                    row,
                    float(bm25),
                    context_only=float(body_bm25) == 0.0,
                    context=row[12] or "",
                    context_prompt=bool(row[13]),
                    intent=row[11],
                )
            )
        return found[:limit]

    def summary_text(self, plan: QueryPlan) -> SummaryText | None:
        return SummaryText(
            relevance="bm25(summaries_fts) AS b",
            source=_SUMMARY_SOURCE,
            condition="summaries_fts MATCH ?",
            order="b",
            params=[plan.summary_match or plan.match],
        )

    def count_documents(self, words: Sequence[str], *, total: int, cap: int) -> dict[str, int]:
        """Each word's count in the observations' own text (the ``body`` column), up to
        ``cap``."""
        counts: dict[str, int] = {}
        for word in words:
            counts[word] = int(
                self.db.read(
                    "SELECT count(*) FROM (SELECT 1 FROM observations_fts"
                    " WHERE observations_fts MATCH ? LIMIT ?)",
                    [f"{{body}} : ({term_match(word)})", cap],
                )[0][0]
            )
        return counts

    def indexed_observations(self) -> int:
        self.db.index_pending()
        return int(self.db.read("SELECT COALESCE(MAX(rowid), 0) FROM observation_context")[0][0])

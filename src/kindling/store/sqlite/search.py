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

# A question with more matches than this is ranked among its newest ones (see ``_ranked``):
# ranking the 60,000 matches of one file name in a million rows took 200-270 ms of CPU.
RANK_WINDOW = 5_000
# Document counts (term weights, common words) of a bigger store are estimated from its newest
# this many rows (``count_documents``), as PostgreSQL estimates them from ANALYZE's statistics
# above as many rows (``store.postgres.search.DF_EXACT_BELOW``).
COUNT_SAMPLE = 50_000

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


def _timed(until: int | None) -> tuple[str, str, list[Any]]:
    """The FROM item, condition and parameters that keep matches recorded by ``until``."""
    if until is None:
        return "observations_fts", "", []
    return (
        "observations_fts JOIN observations t ON t.rowid = observations_fts.rowid",
        " AND t.ts <= ?",
        [until],
    )


class SqliteSearchMixin:
    """The FTS5 hooks of ``store.sql.search.SearchMixin``."""

    db: Database

    def match_observations(
        self,
        plan: QueryPlan,
        scope: Scope,
        *,
        exclude_ids: Sequence[str],
        limit: int,
        until: int | None = None,
    ) -> list[ObservationMatch]:
        self.db.index_pending()  # appends earlier in this transaction are searchable too
        # Excluded ids are few (pins and the current summary's evidence): read past them.
        top = self._ranked(plan, scope, limit + len(exclude_ids), until)
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

    def _ranked(
        self, plan: QueryPlan, scope: Scope, limit: int, until: int | None = None
    ) -> list[Any]:
        """``(rowid, bm25, body-only bm25)`` of the best matches, best first; with ``until``,
        only rows recorded at or before it (each match's time is looked up in its row).

        bm25 costs a row lookup and a walk of the row's positions for every match, so a
        question matching more than ``RANK_WINDOW`` rows (one common word in a million) is
        ranked among its newest ``RANK_WINDOW`` matches (as PostgreSQL ranks such a question
        among the newest rows in scope). One statement: the inner query walks the match newest
        first and stops at the window's edge, scoring each row it passes; the outer one orders
        that window (ties in bm25 to the newest insert)."""
        match = scoped_match(plan.match, scope)
        source, timed, args = _timed(until)
        return self.db.read(
            "SELECT r, b, body FROM (SELECT observations_fts.rowid AS r,"
            f" bm25(observations_fts, {BM25_WEIGHTS}) AS b,"
            f" bm25(observations_fts, {BM25_BODY_ONLY}) AS body"
            f" FROM {source} WHERE observations_fts MATCH ?{timed}"
            " ORDER BY observations_fts.rowid DESC LIMIT ?) ORDER BY b, r DESC LIMIT ?",
            [match, *args, RANK_WINDOW, limit],
        )

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
        ``cap``. A store of more than ``COUNT_SAMPLE`` rows has its counts estimated from its
        newest ``COUNT_SAMPLE`` rows, scaled to ``total`` (an estimate, as PostgreSQL's are
        on big tables; counting a common word to its cap walked 50,000 entries at a million
        rows). A word the sample misses is looked for in every row: one found anywhere counts
        at least 1, so "matches nothing" stays exact."""
        sample = total > COUNT_SAMPLE
        floor = total - COUNT_SAMPLE if sample else 0
        limit = cap * COUNT_SAMPLE // total + 1 if sample else cap
        counts: dict[str, int] = {}
        for word in words:
            match = f"{{body}} : ({term_match(word)})"
            n = self._count(match, floor, limit)
            if sample:
                n = min(cap, n * total // COUNT_SAMPLE) if n else self._count(match, 0, 1)
            counts[word] = n
        return counts

    def _count(self, match: str, floor: int, limit: int) -> int:
        """How many rows above ``floor`` match, counted up to ``limit``."""
        return int(
            self.db.read(
                "SELECT count(*) FROM (SELECT 1 FROM observations_fts"
                " WHERE observations_fts MATCH ? AND observations_fts.rowid > ? LIMIT ?)",
                [match, floor, limit],
            )[0][0]
        )

    def indexed_observations(self) -> int:
        self.db.index_pending()
        return int(self.db.read("SELECT COALESCE(MAX(rowid), 0) FROM observation_context")[0][0])

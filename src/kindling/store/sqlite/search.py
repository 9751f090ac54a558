"""The search verbs of ``SqliteStore``. A store finds and orders matches by text relevance
only; the score is computed in one place, ``retrieval.scoring``.

Observations: the MATCH runs on ``observations_fts`` (see ``index``) with the
scope tokens ANDed in, so FTS5 reads only the scope's part of each doclist and never looks a
row up to filter it; only the winners' rows are read afterwards, and ties in bm25 go to the
newest insert (rowid), so the cut never needs a row lookup. Summaries (one per capsule, few)
are filtered through their capsule and ordered by bm25, then newer, then id.

Reaches the database only through ``Database.read`` and ``Database.index_pending`` (see
``connection``).

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kindling.model import SCOPE_FIELDS, Scope
from kindling.store.base import ObservationMatch, RepoActivity, SummaryMatch, iter_chunks
from kindling.store.fts import QueryPlan, term_match
from kindling.store.rows import (
    OBS_COLUMNS,
    SUMMARY_COLUMNS,
    observation_row,
    row_scope,
    scope_where,
    summary_row,
)
from kindling.store.sqlite.connection import Database
from kindling.store.sqlite.index import BM25_BODY_ONLY, BM25_WEIGHTS, CONTEXT_SQL, scoped_match

# A question with more matches than this is ranked among its newest ones (see ``_ranked``):
# ranking the 60,000 matches of one file name in a million rows took 200-270 ms of CPU.
RANK_WINDOW = 5_000

# The winners' rows with what their index documents hold besides their own text.
_ROWS_WITH_CONTEXT = (
    f"SELECT {OBS_COLUMNS}, o.rowid, COALESCE(x.intent, ''), {CONTEXT_SQL},"
    " p.kind = 'message' AND json_valid(p.provenance)"
    " AND json_extract(p.provenance, '$.role') = 'user'"
    " FROM observations o LEFT JOIN observation_context x ON x.rowid = o.rowid"
    " LEFT JOIN observations p ON p.rowid = x.prev_rowid WHERE o.rowid IN ({marks})"
)


class SearchMixin:
    """``search_observations``, ``search_summaries``, ``document_counts`` and ``newest_ts``."""

    db: Database

    def search_observations(
        self,
        plan: QueryPlan | None,
        scope: Scope,
        *,
        exclude_ids: Sequence[str],
        include_redacted: bool,
        limit: int,
    ) -> list[ObservationMatch]:
        if plan is None or plan.match is None:
            return self._recent_observations(scope, exclude_ids, include_redacted, limit)
        self.db.index_pending()  # appends earlier in this transaction are searchable too
        # Excluded ids are few (pins and the current summary's evidence): read past them.
        top = self._ranked(plan, scope, limit + len(exclude_ids))
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
                ObservationMatch(
                    observation=observation_row(row),
                    bm25=float(bm25),
                    rowid=int(rowid),
                    context_only=float(body_bm25) == 0.0,
                    context=row[12] or "",
                    context_prompt=bool(row[13]),
                    intent=row[11],
                )
            )
        return found[:limit]

    def _ranked(self, plan: QueryPlan, scope: Scope, limit: int) -> list[Any]:
        """``(rowid, bm25, body-only bm25)`` of the best matches, best first.

        bm25 costs a row lookup and a walk of the row's positions for every match, so a
        question matching more than ``RANK_WINDOW`` rows (one common word in a million) is
        ranked among its newest ``RANK_WINDOW`` matches: the window's edge is found by walking
        the match newest first, which stops there (as PostgreSQL ranks such a question among
        the newest rows in scope)."""
        match = scoped_match(plan.match, scope)
        floor = self._window_floor(match)
        bound = "" if floor is None else f" AND rowid >= {floor}"
        return self.db.read(
            f"SELECT rowid, bm25(observations_fts, {BM25_WEIGHTS}),"
            f" bm25(observations_fts, {BM25_BODY_ONLY})"
            f" FROM observations_fts WHERE observations_fts MATCH ?{bound}"
            " ORDER BY 2, rowid DESC LIMIT ?",
            [match, limit],
        )

    def _window_floor(self, match: str | None) -> int | None:
        """The rowid of the ``RANK_WINDOW``-th newest match, or None when there are fewer."""
        rows = self.db.read(
            "SELECT rowid FROM observations_fts WHERE observations_fts MATCH ?"
            " ORDER BY rowid DESC LIMIT 1 OFFSET ?",
            [match, RANK_WINDOW - 1],
        )
        return int(rows[0][0]) if rows else None

    def _recent_observations(
        self, scope: Scope, exclude_ids: Sequence[str], include_redacted: bool, limit: int
    ) -> list[ObservationMatch]:
        """Newest first, through the scope's timestamp index."""
        where, params = scope_where(scope, "o")
        if exclude_ids:
            where += f" AND o.id NOT IN ({','.join('?' * len(exclude_ids))})"
            params.extend(exclude_ids)
        if not include_redacted:
            where += " AND o.redacted = 0"
        rows = self.db.read(
            f"SELECT {OBS_COLUMNS}, o.rowid FROM observations o WHERE {where}"
            " ORDER BY o.ts DESC, o.id ASC LIMIT ?",
            [*params, limit],
        )
        return [
            ObservationMatch(observation=observation_row(r), bm25=0.0, rowid=int(r[10]))
            for r in rows
        ]

    def search_summaries(
        self,
        plan: QueryPlan | None,
        scope: Scope,
        *,
        exclude_ids: Sequence[str],
        limit: int,
    ) -> list[SummaryMatch]:
        where, params = scope_where(scope, "c")
        if exclude_ids:
            where += f" AND s.id NOT IN ({','.join('?' * len(exclude_ids))})"
            params.extend(exclude_ids)
        columns = (
            f"{SUMMARY_COLUMNS}, c.intent, "
            + ", ".join(f"c.{col}" for col, _ in SCOPE_FIELDS)
            + ", s.rowid"
        )
        if plan is None or plan.match is None:
            sql = (
                f"SELECT {columns}, 0.0 FROM summaries s JOIN capsules c ON c.id = s.capsule_id"
                f" WHERE {where} ORDER BY s.created_at DESC, s.id ASC LIMIT ?"
            )
            args: list[Any] = [*params, limit]
        else:
            # Matches first (CROSS JOIN pins the order), then their capsules' scope.
            sql = (
                f"SELECT {columns}, bm25(summaries_fts) AS b FROM summaries_fts"
                " CROSS JOIN summaries s ON s.rowid = summaries_fts.rowid"
                " CROSS JOIN capsules c ON c.id = s.capsule_id"
                f" WHERE summaries_fts MATCH ? AND {where}"
                " ORDER BY b, s.created_at DESC, s.id ASC LIMIT ?"
            )
            args = [plan.summary_match or plan.match, *params, limit]
        return [
            SummaryMatch(
                summary=summary_row(r),
                intent=r[6],
                scope=row_scope(r, 7),
                rowid=int(r[11]),
                bm25=float(r[12]),
            )
            for r in self.db.read(sql, args)
        ]

    def document_counts(
        self, words: Sequence[str], *, share: float, minimum: int
    ) -> tuple[int, dict[str, int]]:
        """``(threshold, counts)``: the threshold is ``max(minimum, share * indexed
        observations)``; each count is the number of observations whose own text contains the
        word, counted only up to ``threshold + 1`` (enough to tell a common word: counting
        further would cost the scan that dropping it avoids)."""
        total = self.indexed_observations()
        threshold = max(minimum, int(total * share))
        counts: dict[str, int] = {}
        for word in words:
            counts[word] = int(
                self.db.read(
                    "SELECT count(*) FROM (SELECT 1 FROM observations_fts"
                    " WHERE observations_fts MATCH ? LIMIT ?)",
                    [f"{{body}} : ({term_match(word)})", threshold + 1],
                )[0][0]
            )
        return threshold, counts

    def indexed_observations(self) -> int:
        self.db.index_pending()
        return int(self.db.read("SELECT COALESCE(MAX(rowid), 0) FROM observation_context")[0][0])

    def newest_ts(self, scope: Scope) -> int | None:
        obs_where, obs_params = scope_where(scope, "o")
        sum_where, sum_params = scope_where(scope, "c")
        row = self.db.read(  # two rows and one MAX: SQLite's MAX(a, b) is NULL if either is
            f"SELECT MAX(t) FROM (SELECT MAX(ts) t FROM observations o WHERE {obs_where} UNION"
            f" ALL SELECT MAX(created_at) FROM summaries s JOIN capsules c ON c.id = capsule_id"
            f" WHERE {sum_where})",
            [*obs_params, *sum_params],
        )[0]
        return None if row[0] is None else int(row[0])

    def list_repos(self, *, scope: Scope, limit: int) -> list[RepoActivity]:
        """Repositories with observations in ``scope``: newest activity first, ties by id."""
        where, params = scope_where(scope, "o")
        rows = self.db.read(
            "SELECT o.repo_id, COUNT(*), MAX(o.ts) FROM observations o"
            f" WHERE o.repo_id IS NOT NULL AND {where} GROUP BY o.repo_id"
            " ORDER BY MAX(o.ts) DESC, o.repo_id LIMIT ?",
            [*params, limit],
        )
        return [RepoActivity(str(r[0]), int(r[1]), int(r[2])) for r in rows]

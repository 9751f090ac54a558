"""The search verbs, written once over the dialect: ``search_observations``,
``search_summaries``, ``document_counts``, ``newest_ts`` and ``list_repos``, the newest-first
reads of an empty query, and the assembly of every match.

A store finds and orders matches by text relevance only; the score is computed in one place,
``retrieval.scoring``. What only a backend's text index can do, it gives through four hooks:

- ``match_observations``: the observations matching a query, best first, with what their
  index documents hold besides their own text (FTS5: ``store.sqlite.search``; the weighted
  ``tsvector``: ``store.postgres.search``), each made by ``observation_match``;
- ``summary_text``: the FROM item, condition and relevance of a summary search (a
  ``SummaryText``), which the shared statement wraps with the scope and the order;
- ``count_documents``: how many observations' own text holds each word, up to a cap;
- ``indexed_observations``: how many observations the text index covers;

and ``BM25_SCALE``, what its relevance is multiplied by to read as FTS5's bm25 (lower is
better).

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from kindling.model import SCOPE_FIELDS, Scope
from kindling.store.base import ObservationMatch, RepoActivity, SummaryMatch
from kindling.store.rows import (
    OBS_COLUMNS,
    SUMMARY_COLUMNS,
    observation_row,
    row_scope,
    scope_where,
    summary_row,
)
from kindling.store.sql.dialect import UsesDatabase

if TYPE_CHECKING:
    from kindling.store.fts import QueryPlan

# What a summary search selects before its relevance: the summary, its capsule's intent and
# scope, its rowid (the relevance comes 13th, at index 12).
SUMMARY_MATCH_COLUMNS = (
    f"{SUMMARY_COLUMNS}, c.intent, "
    + ", ".join(f"c.{col}" for col, _ in SCOPE_FIELDS)
    + ", s.rowid"
)


@dataclass(frozen=True, slots=True)
class SummaryText:
    """A backend's half of a summary text search: ``SELECT <columns>, {relevance} FROM
    {source} WHERE {condition} AND <scope> ORDER BY {order}, newer, id``, with ``params``
    for the placeholders of ``relevance``, ``source`` and ``condition``, in that order.
    ``source`` joins ``summaries s`` and ``capsules c``."""

    relevance: str
    source: str
    condition: str
    order: str
    params: list[Any]


def observation_match(
    row: Sequence[Any],
    bm25: float,
    *,
    context_only: bool = False,
    context: str = "",
    context_prompt: bool = False,
    intent: str = "",
) -> ObservationMatch:
    """A match from a row of ``OBS_COLUMNS`` then the rowid."""
    return ObservationMatch(
        observation=observation_row(row),
        bm25=bm25,
        rowid=int(row[10]),
        context_only=context_only,
        context=context,
        context_prompt=context_prompt,
        intent=intent,
    )


class SearchMixin(UsesDatabase):
    """``search_observations``, ``search_summaries``, ``document_counts``, ``newest_ts`` and
    ``list_repos`` for every SQL backend, over the backend's hooks (module docstring)."""

    BM25_SCALE: ClassVar[float] = 1.0

    if TYPE_CHECKING:

        def match_observations(
            self,
            plan: QueryPlan,
            scope: Scope,
            *,
            exclude_ids: Sequence[str],
            limit: int,
            until: int | None = None,
        ) -> list[ObservationMatch]: ...
        def summary_text(self, plan: QueryPlan) -> SummaryText | None: ...
        def count_documents(
            self, words: Sequence[str], *, total: int, cap: int
        ) -> dict[str, int]: ...
        def indexed_observations(self) -> int: ...

    def search_observations(
        self,
        plan: QueryPlan | None,
        scope: Scope,
        *,
        exclude_ids: Sequence[str],
        include_redacted: bool,
        limit: int,
        until: int | None = None,
    ) -> list[ObservationMatch]:
        """Text matches, best first (forgotten rows have no text to match); an empty query:
        the newest in ``scope``, through the scope's time index. ``until``: nothing recorded
        after that time."""
        if plan is not None and plan.match is not None:
            return self.match_observations(
                plan, scope, exclude_ids=exclude_ids, limit=limit, until=until
            )
        dialect = self.db.dialect
        where, params = scope_where(scope, "o")
        if until is not None:
            where += " AND o.ts <= ?"
            params.append(until)
        excluded, excluded_params = dialect.not_in_ids("o.id", exclude_ids)
        if excluded:
            where += f" AND {excluded}"
            params += excluded_params
        if not include_redacted:
            where += f" AND {dialect.is_false('o.redacted')}"
        rows = self.db.read(
            f"SELECT {OBS_COLUMNS}, o.rowid FROM observations o WHERE {where}"
            " ORDER BY o.ts DESC, o.id ASC LIMIT ?",
            [*params, limit],
        )
        return [observation_match(r, 0.0) for r in rows]

    def search_summaries(
        self,
        plan: QueryPlan | None,
        scope: Scope,
        *,
        exclude_ids: Sequence[str],
        limit: int,
        until: int | None = None,
    ) -> list[SummaryMatch]:
        """Summaries whose capsule is in ``scope``: text matches best first, then newer, then
        id; an empty query: newest first. ``until``: nothing written after that time."""
        where, params = scope_where(scope, "c")
        if until is not None:
            where += " AND s.created_at <= ?"
            params.append(until)
        excluded, excluded_params = self.db.dialect.not_in_ids("s.id", exclude_ids)
        if excluded:
            where += f" AND {excluded}"
            params += excluded_params
        if plan is None or plan.match is None:
            sql = (
                f"SELECT {SUMMARY_MATCH_COLUMNS}, 0.0 FROM summaries s"
                f" JOIN capsules c ON c.id = s.capsule_id WHERE {where}"
                " ORDER BY s.created_at DESC, s.id ASC LIMIT ?"
            )
            args: list[Any] = [*params, limit]
        else:
            text = self.summary_text(plan)
            if text is None:  # nothing in the query the index could match
                return []
            sql = (
                f"SELECT {SUMMARY_MATCH_COLUMNS}, {text.relevance} FROM {text.source}"
                f" WHERE {text.condition} AND {where}"
                f" ORDER BY {text.order}, s.created_at DESC, s.id ASC LIMIT ?"
            )
            args = [*text.params, *params, limit]
        return [
            SummaryMatch(
                summary=summary_row(r),
                bm25=float(r[12]) * self.BM25_SCALE,
                rowid=int(r[11]),
                scope=row_scope(r, 7),
                intent=r[6],
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
        counts = self.count_documents(words, total=total, cap=threshold + 1)
        return threshold, {word: min(n, threshold + 1) for word, n in counts.items()}

    def newest_ts(self, scope: Scope) -> int | None:
        """The newest observation or summary time in ``scope`` (two index-served maxima; one
        MAX over both rows, since SQLite's two-argument MAX is NULL when either is)."""
        obs_where, obs_params = scope_where(scope, "o")
        sum_where, sum_params = scope_where(scope, "c")
        row = self.db.read(
            f"SELECT MAX(t) FROM (SELECT MAX(o.ts) AS t FROM observations o WHERE {obs_where}"
            " UNION ALL SELECT MAX(s.created_at) FROM summaries s"
            f" JOIN capsules c ON c.id = s.capsule_id WHERE {sum_where}) m",
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

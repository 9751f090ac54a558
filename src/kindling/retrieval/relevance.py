"""Text relevance of summaries alone: the ``relevance`` factor of the scoring model without
recency or multipliers, for callers that combine it with factors of their own (the chat-memory
bridge, seed 002). The value equals the local provider's ``explanation.relevance`` for the same
summary and query, and does not depend on which other summaries matched.

Must not import anything from Kindling except ``model``, ``store`` and ``retrieval``.
"""

from __future__ import annotations

from dataclasses import dataclass

from kindling.model import Scope, Summary
from kindling.retrieval.scoring import DEFAULT_WEIGHTS, ScoringWeights, relevance
from kindling.store.base import Store
from kindling.store.fts import build_query


@dataclass(frozen=True, slots=True)
class SummaryRelevance:
    summary: Summary
    relevance: float


def summaries_by_relevance(
    store: Store,
    query: str,
    scope: Scope,
    *,
    limit: int,
    weights: ScoringWeights = DEFAULT_WEIGHTS,
) -> list[SummaryRelevance]:
    """In-scope summaries matching ``query``, most relevant first (then newer, then id).

    A query without a searchable word matches nothing: relevance needs a text match.
    """
    plan = build_query(query)
    if plan.match is None or limit <= 0:
        return []
    rows = store.search_summaries(plan, scope, exclude_ids=(), limit=limit)
    return [
        SummaryRelevance(
            m.summary,
            round(relevance(m.bm25, plan.clauses, weights.relevance_k, weights.match_floor), 6),
        )
        for m in rows
    ]

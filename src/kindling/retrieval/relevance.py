"""Text relevance of summaries alone: the ``relevance`` factor of the scoring model without
recency or multipliers, for callers that combine it with factors of their own (the chat-memory
bridge, seed 002). The value equals the local provider's ``explanation.relevance`` for the same
summary and query, and does not depend on which other summaries matched.

Must not import anything from Kindling except ``model``, ``store`` and ``retrieval``.
"""

from __future__ import annotations

from dataclasses import dataclass

from kindling.model import Scope, Summary
from kindling.retrieval.scoring import DEFAULT_WEIGHTS, ScoreInputs, ScoringWeights, relevance
from kindling.retrieval.terms import TextTerms, coverage, term_weights
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
    items = list(dict.fromkeys((*plan.terms, *plan.phrases)))
    counts: dict[str, int] = {}
    total = 0
    if len(items) > 1:
        total = store.indexed_observations()
        _, counts = store.document_counts(items, share=0.05, minimum=500)
    term_w = term_weights(items, total, counts)
    out = []
    for m in rows:
        cover = coverage(term_w, TextTerms.of(m.summary.content), [TextTerms.of(m.intent)])
        inputs = ScoreInputs(
            m.bm25, plan.clauses, 0, 0, 1.0, 1.0, 1.0, True,
            own=cover.own, context=weights.context * cover.context,
        )  # fmt: skip
        out.append(SummaryRelevance(m.summary, round(relevance(inputs, weights), 6)))
    return out

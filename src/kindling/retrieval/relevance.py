"""Text relevance of summaries alone: the ``relevance`` factor of the scoring model without
recency or multipliers, for callers that combine it with factors of their own (the chat-memory
bridge, seed 002): calibrated as the provider's (``scoring.relevance``), with term weights
counted among the in-scope memories that match (see ``summaries_by_relevance``).

Must not import anything from Kindling except ``model``, ``store`` and ``retrieval``.
"""

from __future__ import annotations

from dataclasses import dataclass

from kindling.model import Scope, Summary
from kindling.retrieval.scoring import DEFAULT_WEIGHTS, ScoreInputs, ScoringWeights, relevance
from kindling.retrieval.terms import TermMatcher, term_weights
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
    """In-scope summaries matching ``query``, in bm25 order, each with its relevance.

    A query without a searchable word matches nothing: relevance needs a text match.
    """
    plan = build_query(query)
    if plan.match is None or limit <= 0:
        return []
    rows = store.search_summaries(plan, scope, exclude_ids=(), limit=limit)
    items = list(dict.fromkeys((*plan.terms, *plan.phrases)))
    matcher = TermMatcher(items)
    texts = [matcher.held(m.summary.content) for m in rows]
    # Term weights among the in-scope memories that match (plus one that does not): a
    # memory store is small and its rendered memories share their field labels ("Topic",
    # "Decisions"), which must weigh little; the observation index knows nothing of them.
    counts = {t: sum(1 for text in texts if t in text) for t in items}
    term_w = term_weights(
        items, len(rows) + 1, counts if len(items) > 1 else None, typed=plan.words
    )
    out = []
    total = sum(term_w.values()) or 1.0
    for m, text in zip(rows, texts, strict=True):
        intent = matcher.held(m.intent)
        own = sum(w for t, w in term_w.items() if t in text) / total
        rest = sum(w for t, w in term_w.items() if t in intent and t not in text) / total
        inputs = ScoreInputs(
            m.bm25, plan.clauses, 0, 0, 1.0, 1.0, 1.0, True,
            own=own, context=weights.context * rest,
            support=0.5 * sum(w for t, w in term_w.items() if t in intent) / total,
        )  # fmt: skip
        out.append(SummaryRelevance(m.summary, round(relevance(inputs, weights), 6)))
    return out

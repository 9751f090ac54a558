"""The bridge's own arithmetic (seed 002), pure functions:

    score = text_relevance * recency_multiplier * status_multiplier
    recency_multiplier = exp(-ln 2 / half_life_days * age_days)

``text_relevance`` is Kindling's BM25 text relevance in [0, 1] (wire name ``semantic_score``,
fixed by seed 002: it is no semantic similarity); the age is counted from
``source_created_at``, else ``created_at``, and a memory with neither (legacy) gets 1.0. Order:
score desc, then DecisionRecord > Active (and legacy) > Superseded, then id. A memory whose
text relevance is below Kindling's one "nothing relevant" cut (``RELEVANCE_THRESHOLD``) is
dropped; age alone never drops a relevant memory: the recency multiplier stops decaying at
``RECENCY_FLOOR``, so every returned score stays above ``MIN_SCORE`` (clients read 0.0 as a
synthesized answer, and Flowbaby's own bridge drops scores at or below 0.01). Results are
added in that order, up to ``max_results``, while they fit in the token budget; the first is
kept even when it alone is over (an answer cut to nothing helps no one, and Flowbaby's bridge
does the same).

Must not import anything from Kindling except ``model`` and ``retrieval.budget`` (the one token
estimate and budget cut).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from kindling.model import RELEVANCE_THRESHOLD, ChatMemoryMatch, SummaryStatus
from kindling.retrieval.budget import CharTokenizer, fit_to_budget

TOKENIZER = CharTokenizer()  # the core's estimate: one token per four characters

DAY_MS = 86_400_000
# Seed 002: an authoritative DecisionRecord is boosted, a Superseded memory kept but pushed down
# (0.4: it still beats a weak match of an Active one only when clearly more relevant).
STATUS_MULTIPLIERS: dict[SummaryStatus | None, float] = {
    "DecisionRecord": 1.1,
    "Active": 1.0,
    "Superseded": 0.4,
    None: 1.0,
}
# Tie-break between equal scores; legacy memories (no status) rank like Active ones.
STATUS_RANK: dict[SummaryStatus | None, int] = {
    "DecisionRecord": 0,
    "Active": 1,
    None: 1,
    "Superseded": 2,
}
PLACES = 6  # scores are rounded so that equal-looking values tie exactly
MIN_SCORE = 0.01
# Recency never falls below this (after ~3.2 half-lives): the least relevant memory that is
# still relevant (RELEVANCE_THRESHOLD), Superseded (0.4), scores 0.011, above MIN_SCORE.
RECENCY_FLOOR = 0.11


def recency_multiplier(reference_ms: int | None, now_ms: int, half_life_days: float) -> float:
    """Halves every ``half_life_days`` down to ``RECENCY_FLOOR``; 1.0 without a time or for a
    time in the future."""
    if reference_ms is None:
        return 1.0
    age_days = max(0, now_ms - reference_ms) / DAY_MS
    return round(max(RECENCY_FLOOR, math.exp(-math.log(2) / half_life_days * age_days)), PLACES)


def status_multiplier(status: SummaryStatus | None) -> float:
    return STATUS_MULTIPLIERS[status]


def final_score(text_relevance: float, recency: float, status: float) -> float:
    return round(text_relevance * recency * status, PLACES)


def order_key(score: float, status: SummaryStatus | None, memory_id: str) -> tuple[float, int, str]:
    return (-score, STATUS_RANK[status], memory_id)


def take_within_budget(tokens: Sequence[int], max_results: int, max_tokens: int) -> int:
    """How many of the ranked results (a prefix) to return: stop at ``max_results`` or at the
    first one that does not fit (rank order is the contract: no smaller one jumps ahead); the
    first result is always kept."""
    within = tokens[:max_results]
    kept = fit_to_budget(0, within, max_tokens).kept  # the core's cut, in rank order
    return kept if kept or not within else 1


@dataclass(frozen=True, slots=True)
class Scored:
    """One hit with every factor of its score."""

    match: ChatMemoryMatch
    text_relevance: float
    recency: float
    status: float
    score: float
    tokens: int


def rank_matches(
    matches: Sequence[ChatMemoryMatch],
    *,
    now_ms: int,
    half_life_days: float,
    include_superseded: bool,
) -> list[Scored]:
    """Every hit considered, scored and in final order; Superseded ones dropped unless asked,
    and those whose text relevance is below ``RELEVANCE_THRESHOLD``."""
    scored = []
    for match in matches:
        details = match.memory.details
        status = details.status if details is not None else None
        if status == "Superseded" and not include_superseded:
            continue
        reference = None
        if details is not None:
            reference = (
                details.source_created_at
                if details.source_created_at is not None
                else details.created_at
            )
        text_relevance = round(match.relevance, PLACES)
        if text_relevance < RELEVANCE_THRESHOLD:
            continue
        recency = recency_multiplier(reference, now_ms, half_life_days)
        multiplier = status_multiplier(status)
        score = final_score(text_relevance, recency, multiplier)
        if score <= MIN_SCORE:  # cannot happen above the threshold (RECENCY_FLOOR); kept safe
            continue
        scored.append(
            Scored(
                match=match,
                text_relevance=text_relevance,
                recency=recency,
                status=multiplier,
                score=score,
                tokens=TOKENIZER.count(match.memory.summary.content),
            )
        )
    scored.sort(
        key=lambda s: order_key(
            s.score,
            s.match.memory.details.status if s.match.memory.details else None,
            s.match.memory.summary.id,
        )
    )
    return scored

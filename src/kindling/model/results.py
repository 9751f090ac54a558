"""What ``retrieve()`` answers: pins, candidates, their explanations and the provenance.

``to_dict()`` gives seed 000's JSON (camelCase, the TypeScript Kindling's field names).

Must not import anything from Kindling except ``errors`` and ``model``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kindling.model.entities import (
    Entity,
    JsonObject,
    Pin,
    QueryMode,
    Scope,
    Summary,
    TargetType,
    entity_type,
)

# "Nothing relevant": a candidate whose ``explanation.relevance`` is below this holds less than
# about a quarter of the question's weight (in its own text, its context or its episode).
# Relevance does not depend on the store's size, so the hooks, the MCP server and the
# chat-memory bridge share this one cut (docs/ranking.md).
RELEVANCE_THRESHOLD = 0.25


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why a candidate ranks where it does: every factor of the scoring model, and the result.

    ``score = (w_fts * relevance + w_recency * recency) * scope_mult * source * intent_mult
    * conf_mult``;
    see ``docs/ranking.md``.
    """

    relevance: float
    bm25: float | None
    recency: float
    age_ms: int
    scope: float
    intent: float
    confidence: float
    source: float  # 1 for summaries, 1 - w_observation for observations
    score: float
    matched_terms: tuple[str, ...]
    why: str
    # True when the text query matched only the item's context (its session neighbour or its
    # capsule's intent), not its own text.
    context_only: bool = False
    # What the question asks for, read by rules on its words (``retrieval.needs``): "fix",
    # "error", "check", "decision", "location", or None.
    need: str | None = None
    # Every named value the score is made of (coverage of the question in the item's own
    # text and context, bm25 strength, episode, recency, and each multiplier): a new signal
    # is a new name here, not a new field.
    signals: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> JsonObject:
        return {
            "relevance": self.relevance,
            "bm25": self.bm25,
            "recency": self.recency,
            "ageMs": self.age_ms,
            "scope": self.scope,
            "intent": self.intent,
            "confidence": self.confidence,
            "source": self.source,
            "score": self.score,
            "matchedTerms": list(self.matched_terms),
            "contextOnly": self.context_only,
            "need": self.need,
            "signals": dict(self.signals),
            "why": self.why,
        }


@dataclass(frozen=True, slots=True)
class PinResult:
    """An active pin and the entity it points at."""

    pin: Pin
    target: Entity

    def to_dict(self) -> JsonObject:
        return {"pin": self.pin.to_dict(), "target": self.target.to_dict()}


@dataclass(frozen=True, slots=True)
class CandidateResult:
    """One ranked candidate: the entity, its score, the matched text and why it ranked there."""

    entity: Entity
    score: float
    match_context: str | None
    explanation: Explanation

    @property
    def target_type(self) -> TargetType:
        return entity_type(self.entity)

    def to_dict(self) -> JsonObject:
        return {
            "targetType": self.target_type,
            "entity": self.entity.to_dict(),
            "score": self.score,
            "matchContext": self.match_context,
            "explanation": self.explanation.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class RetrieveProvenance:
    """How a retrieval was produced: the seed-000 fields plus how the query was read."""

    query: str
    scope: Scope
    total_candidates: int
    returned_candidates: int
    truncated_due_to_token_budget: bool
    provider_used: str
    query_mode: QueryMode
    fts_query: str | None
    token_budget: int | None
    tokens_used: int
    now: int | None
    # Query words left out: stop words, unusable tokens, clauses past the limit, and words so
    # common in the store that they would make it score most of the index.
    dropped_terms: tuple[str, ...] = ()
    # Quoted phrases that matched nothing and were searched as their words instead.
    phrase_fallback: tuple[str, ...] = ()

    def to_dict(self) -> JsonObject:
        return {
            "query": self.query,
            "scopeIds": self.scope.to_dict(),
            "totalCandidates": self.total_candidates,
            "returnedCandidates": self.returned_candidates,
            "truncatedDueToTokenBudget": self.truncated_due_to_token_budget,
            "providerUsed": self.provider_used,
            "queryMode": self.query_mode,
            "ftsQuery": self.fts_query,
            "tokenBudget": self.token_budget,
            "tokensUsed": self.tokens_used,
            "now": self.now,
            "droppedTerms": list(self.dropped_terms),
            "phraseFallback": list(self.phrase_fallback),
        }


@dataclass(frozen=True, slots=True)
class RetrieveResult:
    """The three tiers: pins, the current summary, ranked candidates; and provenance."""

    pins: tuple[PinResult, ...]
    current_summary: Summary | None
    candidates: tuple[CandidateResult, ...]
    provenance: RetrieveProvenance = field(repr=False)

    def relevant(self, threshold: float = RELEVANCE_THRESHOLD) -> tuple[CandidateResult, ...]:
        """The candidates a text query found relevant (relevance at or above ``threshold``);
        every candidate of the empty query ("where was I?"), which has no relevance."""
        if self.provenance.fts_query is None:
            return self.candidates
        return tuple(c for c in self.candidates if c.explanation.relevance >= threshold)

    def to_dict(self) -> JsonObject:
        return {
            "pins": [p.to_dict() for p in self.pins],
            "currentSummary": (
                self.current_summary.to_dict() if self.current_summary is not None else None
            ),
            "candidates": [c.to_dict() for c in self.candidates],
            "provenance": self.provenance.to_dict(),
        }

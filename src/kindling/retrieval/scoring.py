"""The scoring model of the local provider: pure functions, one documented formula, and the
only place it is written (stores order matches by bm25 alone and never evaluate it).

    text query:   base = w_fts * relevance + w_recency * recency
    empty query:  base = recency
    score = base * source
            * (1 - w_scope + w_scope * scope)
            * (1 - w_intent + w_intent * intent)
            * (1 - w_confidence + w_confidence * confidence)

Every factor lies in [0, 1] and ``w_fts + w_recency = 1``, so the score lies in [0, 1]. For a
text query relevance decides the order and recency only breaks near-ties (``w_recency =
0.05``); the empty query ("where was I?") is ordered by recency. The multipliers can only lower
a score; that is what lets the provider find the exact top from a bm25-ordered pool (see
``provider``). ``docs/ranking.md`` gives each factor's default and why.

Must not import anything from Kindling except ``model`` and ``errors``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from kindling.errors import InvalidInputError
from kindling.model import Scope

DAY_MS = 86_400_000


@dataclass(frozen=True, slots=True)
class ScoringWeights:
    """Weights and shape constants of the scoring model."""

    # Text relevance decides; recency breaks near-ties. Seed 000's 0.7 / 0.3 buried weeks-old
    # answers under fresh items sharing one common word (Recall@10 0.24 against 0.61 for bare
    # FTS5 on an outside benchmark; docs/ranking.md). It stays available as SEED_000_WEIGHTS.
    fts: float = 0.95
    recency: float = 0.05
    # Multiplier strengths: how much a factor at 0 can take off a score (0.1 = 10 %).
    scope: float = 0.1
    intent: float = 0.2
    confidence: float = 0.5
    # Raw observations weigh less than summaries, which condense a whole capsule's work (and are
    # what "what did we decide" and "where was I" questions want). See docs/ranking.md.
    observation: float = 0.3
    # A hit whose BM25 is this much per query clause gets relevance 0.5: about one occurrence of
    # a term found in one document in twenty, at average length. Fixed, so a hit's relevance
    # does not depend on which other hits matched and thresholds mean the same for every query.
    relevance_k: float = 3.0
    # A match always counts for something: FTS5 gives a term found in half the documents or
    # more an IDF of ~0, so in a small store (a handful of summaries) every match would
    # otherwise score zero. 0.5 is a sixth of relevance_k: a floor, not a signal.
    match_floor: float = 0.5
    # Recency halves at this age and decays hyperbolically after it (a quarter at three
    # half-lives): a week of work stays fresh, and old decisions fade but never vanish.
    half_life_days: float = 7.0

    def __post_init__(self) -> None:
        for name in ("fts", "recency", "scope", "intent", "confidence", "observation"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise InvalidInputError(f"weight {name} must be in [0, 1], got {value}")
        if abs(self.fts + self.recency - 1.0) > 1e-9:
            raise InvalidInputError("weights fts and recency must add up to 1")
        if self.relevance_k <= 0 or self.half_life_days <= 0 or self.match_floor < 0:
            raise InvalidInputError(
                "relevance_k and half_life_days must be positive, match_floor not negative"
            )

    @property
    def half_life_ms(self) -> float:
        return self.half_life_days * DAY_MS


DEFAULT_WEIGHTS = ScoringWeights()
# Seed 000's formula as written for the TypeScript design: a documented configuration, not the
# default (see docs/ranking.md for why).
SEED_000_WEIGHTS = ScoringWeights(fts=0.7, recency=0.3)

# Seed 003: session > repo > agent/user. Under the AND scope filter every hit of one request
# matches the same dimensions, so this sets the level of a request's scores, never the order.
SCOPE_LADDER: tuple[tuple[str, float], ...] = (
    ("session_id", 1.0),
    ("repo_id", 0.75),
    ("agent_id", 0.5),
    ("user_id", 0.5),
)
UNSCOPED = 0.5

_WORD = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class ScoreInputs:
    """What the score of one hit is computed from."""

    bm25: float | None  # FTS5 bm25(): <= 0, lower is better; None without a text query
    clauses: int  # positive clauses of the query (>= 1 when there is a text query)
    ts: int
    reference_ms: int
    scope: float
    intent: float
    confidence: float
    summary: bool = False  # summaries are not discounted by ``ScoringWeights.observation``


@dataclass(frozen=True, slots=True)
class Score:
    """One hit's score and its factors."""

    relevance: float
    recency: float
    age_ms: int
    score: float  # rounded to 6 places: what results are ordered and shown by
    raw: float  # unrounded: what the exactness bound of the provider compares


def relevance(bm25: float | None, clauses: int, k: float, floor: float) -> float:
    """``s / (s + K)`` with ``s = max(-bm25, floor)`` and ``K = k * clauses``; 0 without a
    text match. Monotone in bm25, so a bm25-ordered pool is relevance-ordered."""
    if bm25 is None:
        return 0.0
    strength = max(-bm25, floor)
    return strength / (strength + k * max(1, clauses))


def recency(ts: int, reference_ms: int, half_life_ms: float) -> float:
    return half_life_ms / (half_life_ms + max(0, reference_ms - ts))


def multiplier(weight: float, factor: float) -> float:
    return 1.0 - weight + weight * factor


def calculate_score(inputs: ScoreInputs, weights: ScoringWeights = DEFAULT_WEIGHTS) -> Score:
    """The full score of one hit: the one definition of the model."""
    rel = relevance(inputs.bm25, inputs.clauses, weights.relevance_k, weights.match_floor)
    rec = recency(inputs.ts, inputs.reference_ms, weights.half_life_ms)
    source = 1.0 if inputs.summary else 1.0 - weights.observation
    base = rec if inputs.bm25 is None else weights.fts * rel + weights.recency * rec
    value = base * (
        (multiplier(weights.scope, inputs.scope) * source)
        * multiplier(weights.intent, inputs.intent)
        * multiplier(weights.confidence, inputs.confidence)
    )
    return Score(
        relevance=round(rel, 6),
        recency=round(rec, 6),
        age_ms=max(0, inputs.reference_ms - inputs.ts),
        score=round(min(1.0, max(0.0, value)), 6),
        raw=value,
    )


def scope_factor(request: Scope, hit: Scope) -> float:
    """How specific the shared context is: the most specific requested dimension matched."""
    requested = dict(request.items())
    if not requested:
        return UNSCOPED
    for name, value in SCOPE_LADDER:
        if name in requested and getattr(hit, name) == requested[name]:
            return value
    return 0.0


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if len(w) > 1}


def intent_factor(requested: str | None, capsule_intent: str | None) -> float:
    """1 with no requested intent; else the share of its words found in the capsule's intent."""
    if requested is None:
        return 1.0
    wanted = _words(requested)
    if not wanted:
        return 1.0
    if not capsule_intent:
        return 0.0
    return round(len(wanted & _words(capsule_intent)) / len(wanted), 6)


class Rankable(Protocol):
    """Anything ``stable_sort`` can order (``ProviderHit`` is one)."""

    @property
    def score(self) -> float: ...
    @property
    def ts_ms(self) -> int: ...
    @property
    def target_type(self) -> str: ...
    @property
    def target_id(self) -> str: ...


R = TypeVar("R", bound=Rankable)


def stable_sort(hits: Iterable[R]) -> list[R]:
    """Seed 004's order: score descending, then newer first, then id ascending. Pure; the
    local provider's results are always already in this order."""
    return sorted(hits, key=lambda h: stable_sort_key(h.score, h.ts_ms, h.target_type, h.target_id))


def stable_sort_key(
    score: float, ts: int, target_type: str, target_id: str
) -> tuple[float, int, str, str]:
    """Score desc, then newer first, then id asc (then type, for ids shared across types)."""
    return (-score, -ts, target_id, target_type)


def describe_age(age_ms: int) -> str:
    if age_ms < 3_600_000:
        return f"{age_ms // 60_000} min old"
    if age_ms < DAY_MS:
        return f"{age_ms // 3_600_000} h old"
    return f"{age_ms // DAY_MS} d old"


def describe(
    matched: Iterable[str], age_ms: int, *, text_query: bool, via_context: bool = False
) -> str:
    terms = list(matched)
    if text_query and via_context:
        head = "matched its context (neighbour or capsule intent), not its own text"
    elif text_query and terms:
        head = "matched " + ", ".join(terms[:5]) + (" …" if len(terms) > 5 else "")
    elif text_query:
        head = "matched"
    else:
        head = "recent"
    return f"{head}; {describe_age(age_ms)}"

"""The scoring model of the local provider: pure functions, one documented formula, and the
only place it is written (stores order matches by bm25 alone and never evaluate it).

    text query:   base = w_fts * relevance + w_recency * recency
    empty query:  base = recency
    score = base * source * prod(1 - w_s + w_s * s for each multiplier signal s)

    relevance = max((1 - w_tie - w_support) * min(1, own + context)
                    + w_support * support + w_tie * bm25_strength,
                    w_episode * episode)

The multiplier signals are named (``Signal``): scope, intent, confidence, the question's
need (``retrieval.needs``), a prompt asked for a step, and proximity (the question's adjacent
word pairs held as written); a later signal (a semantic one) is one more name. Every factor lies
in [0, 1] and ``w_fts + w_recency = 1``, so the score lies in [0, 1]. Relevance is the share
of the question's IDF weight a hit holds in its own text (``retrieval.terms``), a context match
counting partly: it does not depend on the store's size, so one threshold
(``RELEVANCE_THRESHOLD``) means "nothing relevant" everywhere. ``docs/ranking.md`` gives each
factor's default and why.

Must not import anything from Kindling except ``model`` and ``errors``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from kindling.errors import InvalidInputError
from kindling.model import RELEVANCE_THRESHOLD, Scope

DAY_MS = 86_400_000
__all__ = ["RELEVANCE_THRESHOLD"]  # re-exported: "nothing relevant" (kindling.model)


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
    # The bm25 strength that counts as half: only a tie-break inside one coverage level.
    relevance_k: float = 3.0
    # Share of relevance given to bm25 strength (term frequency, length): a tie-break among
    # hits that hold the same share of the question, never more than this.
    tie_break: float = 0.1
    # Share of relevance given to support: the question's weight found in the item's context
    # (its neighbour and its capsule's intent, half each) whether or not its own text holds it
    # too. An answer recorded in a session about the question outranks a line that only
    # repeats the question's words (what FTS5's context columns did in retrieval v2).
    support: float = 0.3
    # A question term found only in an item's context (its session neighbour, its capsule's
    # intent) counts this much of its weight; when the neighbour is a person's prompt, it
    # counts ``prompt_context``: the step after a task prompt does not inherit the task.
    context: float = 0.5
    prompt_context: float = 0.2
    # A step of a matched episode (session) inherits this share of the episode's relevance
    # when the question asks for a kind of step (``retrieval.needs``).
    episode: float = 0.8
    # How much a hit that does not fit what the question asks for loses, at most: the less of
    # the question it holds in its own text, the more (``spared``): a strong text match is
    # never buried by a rule about kinds of steps.
    need: float = 0.6
    # How much a person's prompt loses when the question asks for a step (a fix, an error, a
    # check): it states the task and answers none of these (the step after it does).
    prompt: float = 0.5
    # How much a hit holding none of the question's adjacent word pairs loses against one
    # holding all of them (term proximity: a pasted error line, "custom_coord object", a
    # phrase typed without quotes): the words together, as asked, beat the words scattered
    # through a long listing. No effect on a question of one word (``proximity`` None).
    proximity: float = 0.5
    # Length normalisation of own-text coverage (``terms.saturated``): BM25's ``b`` (0: off),
    # its ``k1`` and the reference length in characters up to which a text gets full credit.
    length: float = 0.75
    saturation: float = 1.2
    reference_chars: int = 1000
    # Term weights are ``idf ** idf_power``: above 1, rare terms (an identifier) carry the
    # question against common ones.
    idf_power: float = 1.0
    # At most this many of a repository-wide question's first page from one session unless
    # fewer sessions match (``provider.spread_sessions``); 0: no cap.
    session_cap: int = 3
    # The share of the question an item of another session must hold in its own text (and
    # clear the relevance threshold) to take a place from a session past its cap.
    spread_own: float = 0.5
    # Recency halves at this age and decays hyperbolically after it (a quarter at three
    # half-lives): a week of work stays fresh, and old decisions fade but never vanish.
    half_life_days: float = 7.0

    def __post_init__(self) -> None:
        for name in (
            "fts",
            "recency",
            "scope",
            "intent",
            "confidence",
            "observation",
            "tie_break",
            "support",
            "context",
            "prompt_context",
            "episode",
            "need",
            "prompt",
            "proximity",
            "length",
            "spread_own",
        ):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise InvalidInputError(f"weight {name} must be in [0, 1], got {value}")
        if abs(self.fts + self.recency - 1.0) > 1e-9:
            raise InvalidInputError("weights fts and recency must add up to 1")
        if self.tie_break + self.support > 1.0:
            raise InvalidInputError("weights tie_break and support must add up to 1 at most")
        if self.saturation <= 0 or self.reference_chars <= 0 or self.idf_power <= 0:
            raise InvalidInputError("saturation, reference_chars and idf_power must be positive")
        if self.session_cap < 0:
            raise InvalidInputError("session_cap must be 0 (no cap) or more")
        if self.relevance_k <= 0 or self.half_life_days <= 0:
            raise InvalidInputError("relevance_k and half_life_days must be positive")

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
class Signal:
    """A named multiplier: ``1 - weight + weight * value``, both in [0, 1]."""

    name: str
    value: float
    weight: float

    @property
    def factor(self) -> float:
        return 1.0 - self.weight + self.weight * self.value


@dataclass(frozen=True, slots=True)
class ScoreInputs:
    """What the score of one hit is computed from."""

    bm25: float | None  # bm25 (<= 0, lower is better; 0.0 = no text match); None: empty query
    clauses: int  # positive clauses of the query (>= 1 when there is a text query)
    ts: int
    reference_ms: int
    scope: float
    intent: float
    confidence: float
    summary: bool = False  # summaries are not discounted by ``ScoringWeights.observation``
    own: float = 0.0  # coverage of the question in the item's own text (``retrieval.terms``)
    context: float = 0.0  # coverage found only in its context, already weighted
    support: float = 0.0  # the question's weight found in its context, own text or not
    episode: float = 0.0  # relevance of the episode the item is a step of (0: none)
    need: float = 1.0  # how well the item fits what the question asks for (``needs``)
    prompt: bool = False  # a person's prompt, asked for a step (a fix, an error, a check)
    # the share of the question's adjacent word pairs the item holds as written (None: the
    # question has no pair; ``terms.PairMatcher``)
    proximity: float | None = None
    extra: tuple[Signal, ...] = ()  # further named multipliers (a semantic signal)


@dataclass(frozen=True, slots=True)
class Score:
    """One hit's score and its factors."""

    relevance: float
    recency: float
    age_ms: int
    score: float  # rounded to 6 places: what results are ordered and shown by
    raw: float  # unrounded: what the exactness bound of the provider compares
    signals: tuple[Signal, ...] = ()  # every multiplier, by name


def bm25_strength(bm25: float | None, clauses: int, k: float) -> float:
    """``s / (s + k * clauses)``, ``s = -bm25``: monotone in bm25, in [0, 1)."""
    if bm25 is None:
        return 0.0
    s = -bm25 if bm25 < 0 else 0.0  # not max(-bm25, 0.0): for bm25 == 0 that is -0.0
    return s / (s + k * max(1, clauses))


def relevance(inputs: ScoreInputs, weights: ScoringWeights = DEFAULT_WEIGHTS) -> float:
    """Calibrated relevance in [0, 1]: the share of the question the item holds (own text,
    context partly), bm25 as a bounded tie-break, or the share its episode passes on."""
    if inputs.bm25 is None:
        return 0.0
    cover = min(1.0, inputs.own + inputs.context)
    strength = bm25_strength(inputs.bm25, inputs.clauses, weights.relevance_k)
    text = (
        (1.0 - weights.tie_break - weights.support) * cover
        + weights.support * inputs.support
        + weights.tie_break * strength
    )
    # A step of a matched episode is lifted to a share of the episode's relevance (the need
    # then ranks the steps); a lift never lowers a text match.
    return max(text, weights.episode * inputs.episode)


def recency(ts: int, reference_ms: int, half_life_ms: float) -> float:
    return half_life_ms / (half_life_ms + max(0, reference_ms - ts))


def multiplier(weight: float, factor: float) -> float:
    return 1.0 - weight + weight * factor


def spared(own: float) -> float:
    """How much of a rule's weight applies to an item holding ``own`` of the question in its
    own text: all of it up to half the question, then less, none for all of it (a strong text
    match is never buried by a rule about kinds of steps)."""
    return min(1.0, 2.0 * (1.0 - min(1.0, own)))


def signals_of(
    inputs: ScoreInputs, weights: ScoringWeights = DEFAULT_WEIGHTS
) -> tuple[Signal, ...]:
    """The named multipliers of one hit, in a fixed order."""
    return (
        Signal("scope", inputs.scope, weights.scope),
        Signal("intent", inputs.intent, weights.intent),
        Signal("confidence", inputs.confidence, weights.confidence),
        # A strong text match is never buried by a rule about kinds of steps: the need takes
        # less the more of the question the item holds in its own text.
        # (A summary is no step: the need always weighs fully on it.)
        Signal(
            "need",
            inputs.need,
            weights.need if inputs.summary else round(weights.need * spared(inputs.own), 6),
        ),
        Signal("prompt", 0.0 if inputs.prompt else 1.0, weights.prompt),
        *(
            ()
            if inputs.proximity is None
            else (Signal("proximity", inputs.proximity, weights.proximity),)
        ),
        *inputs.extra,
    )


def calculate_score(inputs: ScoreInputs, weights: ScoringWeights = DEFAULT_WEIGHTS) -> Score:
    """The full score of one hit and its named factors (``raw_score`` is its value)."""
    rel = relevance(inputs, weights)
    rec = recency(inputs.ts, inputs.reference_ms, weights.half_life_ms)
    value = raw_score(inputs, weights)
    return Score(
        relevance=round(rel, 6),
        recency=round(rec, 6),
        age_ms=max(0, inputs.reference_ms - inputs.ts),
        score=rounded(value),
        raw=value,
        signals=signals_of(inputs, weights),
    )


def rounded(raw: float) -> float:
    """What results are ordered and shown by: the raw score clamped to [0, 1], 6 places."""
    return round(min(1.0, max(0.0, raw)), 6)


def raw_score(inputs: ScoreInputs, weights: ScoringWeights = DEFAULT_WEIGHTS) -> float:
    """The one definition of the model's value: the base, the source, then each multiplier of
    ``signals_of`` in its order (the same factors, computed without building them, so that a
    pool of hundreds is ranked cheaply; a test holds the two equal to the last bit)."""
    rec = recency(inputs.ts, inputs.reference_ms, weights.half_life_ms)
    if inputs.bm25 is None:
        base = rec
    else:
        base = weights.fts * relevance(inputs, weights) + weights.recency * rec
    value = base * (1.0 if inputs.summary else 1.0 - weights.observation)
    value *= 1.0 - weights.scope + weights.scope * inputs.scope
    value *= 1.0 - weights.intent + weights.intent * inputs.intent
    value *= 1.0 - weights.confidence + weights.confidence * inputs.confidence
    need = weights.need if inputs.summary else round(weights.need * spared(inputs.own), 6)
    value *= 1.0 - need + need * inputs.need
    value *= 1.0 - weights.prompt + weights.prompt * (0.0 if inputs.prompt else 1.0)
    if inputs.proximity is not None:
        value *= 1.0 - weights.proximity + weights.proximity * inputs.proximity
    for signal in inputs.extra:
        value *= signal.factor
    return value


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

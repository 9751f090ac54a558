"""The per-hit signals of a text query and their explanation: coverage of the question in the
item's own text and context (``retrieval.terms``), the question's need (``retrieval.needs``),
and every named value of the score (``Explanation.signals``).

A candidate is a ``Scored`` record the provider fills in stages (the store's match, then
these signals, then the episode's); ``explain`` turns its inputs into the ``Explanation``,
generically over the named signals, so a new signal (a semantic one) is one more name here
and in ``scoring.signals_of``.

Must not import anything from Kindling except ``model``, ``store`` and ``retrieval``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kindling.model import Entity, Explanation, Observation, TargetType
from kindling.retrieval.needs import Need, prompt_for_step, read_need, step_fit
from kindling.retrieval.scoring import (
    Score,
    ScoreInputs,
    ScoringWeights,
    bm25_strength,
    describe_age,
)
from kindling.retrieval.terms import PairMatcher, TermMatcher, saturated, term_weights
from kindling.store.fts import QueryPlan


@dataclass(slots=True)
class Scored:
    """One candidate while it is being ranked."""

    target_type: TargetType
    entity: Entity
    ts: int
    bm25: float | None
    scope: float
    intent: float
    confidence: float
    context_only: bool = False
    session: str | None = None  # its session (a summary's: its capsule's), for the page's spread
    key: tuple[float, int, str, str] = (0.0, 0, "", "")
    score: float = 0.0
    raw: float = 0.0
    # what the index holds besides its own text (observations of a text query)
    context_text: str = ""
    context_prompt: bool = False
    capsule_intent: str = ""
    own: float = 0.0
    context: float = 0.0
    support: float = 0.0
    episode: float = 0.0
    need: float = 1.0
    prompt: bool = False  # a person's prompt asked for a step (``scoring.ScoreInputs.prompt``)
    matched: tuple[str, ...] = ()
    relevance: float = 0.0  # its calibrated relevance at the last ``_rescore``
    semantic: float | None = None  # the semantic signal's value (retrieval.semantic), if on
    proximity: float | None = None  # the question's word pairs it holds (``fill_proximity``)


@dataclass(frozen=True, slots=True)
class Query:
    """A text query as the signals read it: the plan, its need and its term weights."""

    plan: QueryPlan
    need: Need | None
    total: int  # indexed observations when the counts were taken
    counts: dict[str, int] = field(default_factory=dict)
    pairs: PairMatcher = field(default_factory=lambda: PairMatcher(""))

    @classmethod
    def read(cls, plan: QueryPlan, question: str, total: int, counts: dict[str, int]) -> Query:
        """The question as the signals read it: its need (a text query's) and word pairs."""
        need = read_need(question) if plan.match else None
        return cls(plan, need, total, counts, PairMatcher(question))

    @property
    def items(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((*self.plan.terms, *self.plan.phrases)))

    @property
    def words(self) -> frozenset[str]:
        return frozenset(w.lower() for w in self.items)


def fill_text_signals(found: Sequence[Scored], query: Query, weights: ScoringWeights) -> None:
    """Coverage (own text, context) and need fit of every candidate of a text query."""
    term_w = term_weights(
        query.items, query.total, query.counts, weights.idf_power, query.plan.words
    )
    total = sum(term_w.values())
    words = query.words
    matcher = TermMatcher(list(term_w))
    # Texts repeat within one question (a capsule's intent, a neighbour that is a candidate
    # too): each is matched once.
    seen: dict[str, frozenset[str]] = {}

    def held_by(text: str) -> frozenset[str]:
        terms = seen.get(text)
        if terms is None:
            terms = seen[text] = matcher.held(text)
        return terms

    for item in found:
        item.need = step_fit(query.need, item.entity, None, words)
        item.prompt = prompt_for_step(query.need, item.entity)
        if total <= 0:
            continue
        own = held_by(item.entity.content)
        held = [t for t in term_w if t in own]
        credit = support = 0.0
        neighbour = held_by(item.context_text)
        intent = held_by(item.capsule_intent)
        n_credit = weights.prompt_context if item.context_prompt else weights.context
        n_support = n_credit / weights.context if weights.context > 0 else 0.0
        for t in term_w:
            in_n = t in neighbour
            in_i = t in intent
            support += term_w[t] * (0.5 * n_support * in_n + 0.5 * in_i)
            if t not in held:
                credit += term_w[t] * max(n_credit * in_n, weights.context * in_i)
        text = item.entity.content
        if weights.length > 0 and held and len(text) > weights.reference_chars:
            # only a text longer than the reference length has its credit cut (``saturated``)
            tf = matcher.counts(text, own)
            n = len(text)
            item.own = (
                sum(
                    term_w[t]
                    * saturated(
                        tf[t], n, weights.saturation, weights.length, weights.reference_chars
                    )
                    for t in held
                )
                / total
            )
        else:
            item.own = sum(term_w[t] for t in held) / total
        item.context = credit / total
        item.support = min(1.0, support / total)
        item.matched = tuple(held)


def fill_proximity(found: Sequence[Scored], query: Query) -> None:
    """Term proximity of every candidate (``terms.PairMatcher``): stays None when the question
    has no word pair."""
    for item in found:
        item.proximity = query.pairs.share(item.entity.content)


def _fmt(value: float) -> float:
    return round(value, 6)


def explain(
    result: Score,
    inputs: ScoreInputs,
    weights: ScoringWeights,
    query: Query,
    terms: Sequence[str],
    *,
    context_only: bool,
    entity: Entity,
) -> Explanation:
    """The explanation of one hit: every factor, the named signals, and ``why``."""
    text = inputs.bm25 is not None
    signals: dict[str, float] = {}
    if text:
        signals["own"] = _fmt(inputs.own)
        signals["context"] = _fmt(inputs.context)
        signals["support"] = _fmt(inputs.support)
        signals["bm25Strength"] = _fmt(
            bm25_strength(inputs.bm25, inputs.clauses, weights.relevance_k)
        )
        signals["episode"] = _fmt(inputs.episode)
    signals["recency"] = result.recency
    for signal in result.signals:
        signals[signal.name] = _fmt(signal.value)
    via_episode = text and weights.episode * inputs.episode > result.relevance - 1e-9 > 0
    via_context = text and context_only and not via_episode
    return Explanation(
        relevance=result.relevance,
        bm25=round(inputs.bm25, 6) if inputs.bm25 is not None else None,
        recency=result.recency,
        age_ms=result.age_ms,
        scope=inputs.scope,
        intent=inputs.intent,
        confidence=inputs.confidence,
        source=1.0 if inputs.summary else 1.0 - weights.observation,
        score=result.score,
        matched_terms=tuple(terms),
        why=_why(terms, result, query.need, inputs, entity, text, via_context, via_episode),
        context_only=via_context,
        need=query.need,
        signals=signals,
    )


def _why(
    terms: Sequence[str],
    result: Score,
    need: Need | None,
    inputs: ScoreInputs,
    entity: Entity,
    text: bool,
    via_context: bool,
    via_episode: bool,
) -> str:
    if via_episode:
        head = "a step of the session that matched the question"
    elif via_context:
        head = "matched its context (neighbour or capsule intent), not its own text"
    elif text and terms:
        head = "matched " + ", ".join(terms[:5]) + (" …" if len(terms) > 5 else "")
    elif text:
        head = "matched"
    else:
        head = "recent"
    parts = [head]
    if need is not None:
        what = entity.kind if isinstance(entity, Observation) else "summary"
        fit = "fits" if inputs.need >= 0.7 else "does not fit"
        article = "an" if need[0] in "aeiou" else "a"
        parts.append(f"{fit} {article} {need} question ({what}, fit {inputs.need:.2f})")
    parts.append(describe_age(result.age_ms))
    return "; ".join(parts)

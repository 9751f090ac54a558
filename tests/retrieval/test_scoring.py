"""Seed 004: the scoring model and stable sort; and the exactness of the pooled ranking."""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling import InvalidInputError, Kindling, Scope, ScoringWeights
from kindling.retrieval.provider import TEXT_POOL, LocalFtsProvider, ProviderRequest
from kindling.retrieval.scoring import (
    DEFAULT_WEIGHTS,
    RELEVANCE_THRESHOLD,
    ScoreInputs,
    bm25_strength,
    calculate_score,
    intent_factor,
    scope_factor,
    stable_sort,
    stable_sort_key,
)
from kindling.store.fts import build_query
from tests.support.paths import ROOT

DAY = 86_400_000
BASE = ScoreInputs(
    bm25=-4.0, clauses=1, ts=0, reference_ms=DAY, scope=1.0, intent=1.0, confidence=1.0, own=1.0
)


def score(**changes: object) -> float:
    return calculate_score(replace(BASE, **changes)).score  # type: ignore[arg-type]


def test_fts_match_increases_score() -> None:
    assert score(bm25=-8.0) > score(bm25=-4.0) > score(bm25=-0.1)
    assert score(own=1.0) > score(own=0.5) > score(own=0.0, context=0.3) > score(own=0.0)
    assert score(support=1.0) > score(support=0.0)


def test_the_formula_with_its_default_constants() -> None:
    """Pinned numbers: swapping w_fts/w_recency, changing the half-life or the relevance
    transform changes them. relevance = 0.6 * coverage 1 + 0.3 * support 0 + 0.1 * 4 / (4 + 3);
    recency = 7 d / (7 d + 1 d)."""
    rel, rec = 0.6 + 0.1 * 4.0 / 7.0, 7.0 / 8.0
    got = calculate_score(BASE)
    assert got.relevance == round(rel, 6)
    assert got.recency == round(rec, 6)
    assert got.raw == pytest.approx((0.95 * rel + 0.05 * rec) * 0.7, abs=1e-12)  # observation
    assert calculate_score(replace(BASE, summary=True)).raw == pytest.approx(
        0.95 * rel + 0.05 * rec, abs=1e-12
    )
    observation = calculate_score(replace(BASE, scope=0.75, intent=0.5, confidence=0.3, need=0.5))
    mults = (1 - 0.1 + 0.1 * 0.75) * 0.7 * (1 - 0.2 + 0.2 * 0.5) * (1 - 0.5 + 0.5 * 0.3)
    # the whole question in its own text: the need takes nothing (``spared``)
    assert observation.raw == pytest.approx((0.95 * rel + 0.05 * rec) * mults, abs=1e-12)
    assert [s.name for s in observation.signals] == [
        "scope",
        "intent",
        "confidence",
        "need",
        "prompt",
    ]
    # a quarter of it: the need takes its full weight; three quarters: half of it
    quarter = calculate_score(replace(BASE, own=0.25, need=0.5))
    rel_q = 0.6 * 0.25 + 0.1 * 4.0 / 7.0
    assert quarter.raw == pytest.approx(
        (0.95 * rel_q + 0.05 * rec) * 0.7 * (1 - 0.6 + 0.6 * 0.5), abs=1e-12
    )
    most = calculate_score(replace(BASE, own=0.75, need=0.5))
    rel_m = 0.6 * 0.75 + 0.1 * 4.0 / 7.0
    assert most.raw == pytest.approx(
        (0.95 * rel_m + 0.05 * rec) * 0.7 * (1 - 0.3 + 0.3 * 0.5), abs=1e-12
    )
    # a person's prompt asked for a step loses w_prompt
    prompt = calculate_score(replace(BASE, prompt=True))
    assert prompt.raw == pytest.approx((0.95 * rel + 0.05 * rec) * 0.7 * 0.5, abs=1e-12)
    # a step of a matched episode inherits w_episode of the episode's relevance
    step = calculate_score(replace(BASE, bm25=0.0, own=0.0, episode=0.9))
    assert step.relevance == pytest.approx(0.8 * 0.9)


def test_empty_query_is_ordered_by_recency_at_full_weight() -> None:
    assert calculate_score(replace(BASE, bm25=None)).raw == pytest.approx(7.0 / 8.0 * 0.7)
    assert score(bm25=None, ts=DAY) > score(bm25=None, ts=0) > score(bm25=None, ts=-DAY)


def test_relevance_outweighs_any_recency_for_text_queries() -> None:
    """A month-old item holding the whole question beats a brand-new one holding half of it:
    recency only breaks near-ties (seed 000's 0.7/0.3 would put the new one first)."""
    old_strong = score(own=1.0, ts=DAY - 40 * DAY)
    new_weak = score(own=0.5, ts=DAY)
    assert old_strong > new_weak
    near_tie_new = score(bm25=-4.0, ts=DAY)
    near_tie_old = score(bm25=-4.05, ts=DAY - 40 * DAY)
    assert near_tie_new > near_tie_old


def test_recency_increases_score() -> None:
    assert score(ts=DAY) > score(ts=0) > score(ts=-30 * DAY)


def test_scope_match_increases_score() -> None:
    assert score(scope=1.0) > score(scope=0.5)


def test_intent_match_increases_score() -> None:
    assert score(intent=1.0) > score(intent=0.0)


def test_confidence_increases_score() -> None:
    assert score(confidence=0.9) > score(confidence=0.3)


@given(
    st.one_of(st.none(), st.floats(-1e6, 0)),
    st.integers(1, 40),
    st.integers(0, 10**13),
    st.integers(0, 10**13),
    st.floats(0, 1),
    st.floats(0, 1),
    st.floats(0, 1),
)
def test_score_is_normalised(
    bm25: float | None, clauses: int, ts: int, ref: int, sc: float, it: float, conf: float
) -> None:
    result = calculate_score(ScoreInputs(bm25, clauses, ts, ref, sc, it, conf, own=it))
    assert 0.0 <= result.score <= 1.0
    assert 0.0 <= result.relevance < 1.0
    assert 0.0 < result.recency <= 1.0


def test_relevance_is_independent_of_other_hits() -> None:
    """A hit's relevance is a function of its own coverage, context and bm25: thresholds mean
    something. A full own-text match stays within 0.1 whatever bm25 says (store size)."""
    alone = calculate_score(BASE).relevance
    assert alone == calculate_score(BASE).relevance
    assert alone == pytest.approx(0.6 + 0.1 * 4.0 / (4.0 + DEFAULT_WEIGHTS.relevance_k))
    weakest = calculate_score(replace(BASE, bm25=-1e-6)).relevance
    strongest = calculate_score(replace(BASE, bm25=-1e6)).relevance
    assert RELEVANCE_THRESHOLD < weakest <= strongest <= weakest + 0.1


def test_stable_sort_score_then_newer_then_id() -> None:
    hits = [(0.5, 10, "b"), (0.5, 10, "a"), (0.5, 20, "z"), (0.9, 0, "y")]
    ordered = sorted(hits, key=lambda h: stable_sort_key(h[0], h[1], "observation", h[2]))
    assert [h[2] for h in ordered] == ["y", "z", "a", "b"]
    random.Random(7).shuffle(hits)
    again = sorted(hits, key=lambda h: stable_sort_key(h[0], h[1], "observation", h[2]))
    assert again == ordered


def test_scope_and_intent_factors() -> None:
    req = Scope(session_id="s", repo_id="/r")
    assert scope_factor(req, Scope(session_id="s", repo_id="/r")) == 1.0
    assert scope_factor(Scope(repo_id="/r"), Scope(session_id="x", repo_id="/r")) == 0.75
    assert scope_factor(Scope(), Scope(repo_id="/r")) == 0.5
    assert intent_factor(None, "anything") == 1.0
    assert intent_factor("debug auth", "Debug the auth flow") == 1.0
    assert intent_factor("debug auth", "write docs") == 0.0
    assert intent_factor("debug auth", None) == 0.0


def test_weights_are_validated() -> None:
    with pytest.raises(InvalidInputError):
        ScoringWeights(fts=0.9, recency=0.3)
    with pytest.raises(InvalidInputError):
        ScoringWeights(scope=1.5)


def _brute_force(
    kd: Kindling, query: str, scope: Scope, limit: int, intent: str | None
) -> list[str]:
    """The oracle: every match from the store, the TEXT_POOL best by bm25 (ties: newest
    insert first, the store's documented order), each scored in Python, sorted. Coverage is
    computed here from plain word lists (the test's words are plain): IDF over every row's own
    text, a term held in the intent only counts w_context, support is half the intent's share."""
    provider = kd.provider
    assert isinstance(provider, LocalFtsProvider)
    plan = build_query(query)
    request = ProviderRequest(query=query, scope=scope, limit=limit, intent=intent, now=50 * DAY)
    reference = 50 * DAY
    rows = kd.store.search_observations(
        plan, scope, exclude_ids=(), include_redacted=False, limit=10**6
    )
    if plan.match is not None:
        depth = max(TEXT_POOL, limit + TEXT_POOL // 4)
        rows = sorted(rows, key=lambda r: (r.bm25, -r.rowid))[:depth]
    intents = kd.store.capsule_intents_of([r.observation.id for r in rows])
    every = kd.list_observations(limit=10_000)
    terms = list(plan.terms)
    weight = dict.fromkeys(terms, 1.0)
    if len(terms) > 1:
        n = len(every)
        for t in terms:
            df = sum(1 for o in every if t in o.content.split())
            weight[t] = math.log(1 + (n - df + 0.5) / (df + 0.5))
    total = sum(weight.values())
    asked = query.split()
    pairs = list(dict.fromkeys(itertools.pairwise(asked)))  # term proximity
    keyed = []
    for r in rows:
        obs = r.observation
        own = [t for t in terms if t in obs.content.split()]
        said = obs.content.split()
        adjacent = set(itertools.pairwise(said))
        proximity = sum(p in adjacent for p in pairs) / len(pairs) if pairs else None
        in_intent = [t for t in terms if t in intents.get(obs.id, "").split()]
        raw = calculate_score(
            ScoreInputs(
                r.bm25 if plan.match else None,
                plan.clauses,
                obs.ts,
                reference,
                scope_factor(request.scope, obs.scope),
                intent_factor(intent, intents.get(obs.id)),
                1.0,
                own=sum(weight[t] for t in own) / total if terms else 0.0,
                context=sum(0.5 * weight[t] for t in in_intent if t not in own) / total
                if terms
                else 0.0,
                support=sum(0.5 * weight[t] for t in in_intent) / total if terms else 0.0,
                proximity=proximity,
            )
        ).raw
        keyed.append((stable_sort_key(raw, obs.ts, "observation", obs.id), obs.id))
    return [i for _, i in sorted(keyed)][:limit]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["alpha", "beta gamma", "delta alpha", ""]))
def test_pooled_ranking_equals_full_ranking(seed: int, query: str) -> None:
    """The provider reads a pool first; its top-k must equal the oracle's (the empty query:
    the top over every match)."""
    rng = random.Random(seed)
    words = ["alpha", "beta", "gamma", "delta", "noise", "filler", "other"]
    with Kindling.open(":memory:") as kd:
        caps = [kd.open_capsule(intent=rng.choice(words), scope=Scope(repo_id="/r"))]
        with kd.batch():
            for i in range(300):
                kd.append_observation(
                    kind="message",
                    content=" ".join(rng.choices(words, k=rng.randint(1, 12))),
                    scope=Scope(repo_id=rng.choice(["/r", "/s"])),
                    ts=rng.randint(0, 50 * DAY),
                    capsule_id=caps[0].id if i % 3 == 0 else None,
                )
        for limit in (1, 5, 20):
            for intent in (None, "alpha"):
                got = kd.retrieve(
                    query, scope=Scope(repo_id="/r"), max_candidates=limit, now=50 * DAY,
                    intent=intent,
                )  # fmt: skip
                assert [c.entity.id for c in got.candidates] == _brute_force(
                    kd, query, Scope(repo_id="/r"), limit, intent
                )


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_recency_ranking_of_summaries_with_confidence_is_exact(seed: int) -> None:
    """Summaries come from the store newest first; their confidence can reorder them, so the
    provider must widen its pool until the top is certain."""
    rng = random.Random(seed)
    with Kindling.open(":memory:") as kd:
        for i in range(150):
            cap = kd.open_capsule(
                intent=f"task {i}", scope=Scope(repo_id="/r"), type="pocketflow_node"
            )
            kd.add_summary(
                cap.id,
                content=f"summary {i}",
                confidence=rng.random(),
                created_at=rng.randint(0, 50 * DAY),
            )
        full = kd.retrieve("", scope=Scope(repo_id="/r"), max_candidates=10_000, now=50 * DAY)
        for limit in (1, 3, 10):
            got = kd.retrieve("", scope=Scope(repo_id="/r"), max_candidates=limit, now=50 * DAY)
            assert [c.entity.id for c in got.candidates] == [c.entity.id for c in full.candidates][
                :limit
            ]


def test_stable_sort_orders_hits_and_provider_output_is_already_sorted() -> None:
    with Kindling.open(":memory:") as kd:
        for i in range(30):
            kd.append_observation(
                kind="message", content=f"alpha beta {'alpha ' * (i % 4)}", ts=(i % 5) * DAY
            )
        provider = kd.provider
        assert isinstance(provider, LocalFtsProvider)
        hits = provider.search(ProviderRequest(query="alpha", scope=Scope(), now=10 * DAY)).hits
        assert len(hits) == 30
        assert stable_sort(hits) == list(hits)
        assert stable_sort(reversed(hits)) == list(hits)
        keys = [(-h.score, -h.ts_ms, h.target_id) for h in hits]
        assert keys == sorted(keys)


def test_docs_state_the_default_weights() -> None:
    """docs/ranking.md's factor table names every default; a changed default must change it."""
    import re

    doc = (ROOT / "docs" / "ranking.md").read_text("utf-8")
    stated = {m[0]: float(m[1]) for m in re.findall(r"`(w_\w+|k) = ([\d.]+)", doc)}
    w = DEFAULT_WEIGHTS
    assert stated == {
        "w_fts": w.fts,
        "w_recency": w.recency,
        "w_scope": w.scope,
        "w_intent": w.intent,
        "w_confidence": w.confidence,
        "w_observation": w.observation,
        "k": w.relevance_k,
        "w_tie": w.tie_break,
        "w_support": w.support,
        "w_context": w.context,
        "w_prompt_context": w.prompt_context,
        "w_episode": w.episode,
        "w_need": w.need,
        "w_proximity": w.proximity,
    }
    assert f"`H = {w.half_life_days:g} days`" in doc


@given(st.floats(min_value=-50.0, max_value=50.0, allow_nan=False), st.integers(1, 8))
def test_bm25_strength_is_in_0_1_and_never_a_negative_zero(bm25: float, clauses: int) -> None:
    """A zero strength is +0.0: ``-0.0`` would print as ``-0.00`` in ``--explain`` and as
    ``-0.0`` in the JSON of ``explanation.signals`` (bm25 is exactly 0 when a term's IDF is)."""
    value = bm25_strength(bm25, clauses, DEFAULT_WEIGHTS.relevance_k)
    assert 0.0 <= value < 1.0
    assert math.copysign(1.0, value) == 1.0
    assert math.copysign(1.0, bm25_strength(0.0, clauses, DEFAULT_WEIGHTS.relevance_k)) == 1.0


_unit = st.floats(0, 1)


@given(
    st.one_of(st.none(), st.floats(-1e6, 0)),
    st.integers(0, 10**13),
    st.integers(0, 10**13),
    st.tuples(_unit, _unit, _unit, _unit, _unit, _unit, _unit, _unit, _unit),
    st.booleans(),
    st.booleans(),
    st.lists(st.tuples(_unit, _unit), max_size=2),
)
def test_raw_score_is_the_product_of_the_named_factors(
    bm25: float | None,
    ts: int,
    ref: int,
    values: tuple[float, ...],
    summary: bool,
    prompt: bool,
    extra: list[tuple[float, float]],
) -> None:
    """The provider ranks its pool by ``raw_score``; the hits show ``signals_of``: the value
    is the base times the source times every named factor, to the last bit."""
    from kindling.retrieval.scoring import Signal, raw_score, recency, relevance, signals_of

    sc, it, conf, own, ctx, sup, ep, need, _ = values
    inputs = ScoreInputs(
        bm25, 3, ts, ref, sc, it, conf, summary, own=own, context=ctx, support=sup,
        episode=ep, need=need, prompt=prompt,
        extra=tuple(Signal(f"x{i}", v, w) for i, (v, w) in enumerate(extra)),
    )  # fmt: skip
    w = DEFAULT_WEIGHTS
    rec = recency(ts, ref, w.half_life_ms)
    base = rec if bm25 is None else w.fts * relevance(inputs, w) + w.recency * rec
    value = base * (1.0 if summary else 1.0 - w.observation)
    for signal in signals_of(inputs, w):
        value *= signal.factor
    assert raw_score(inputs, w) == value
    result = calculate_score(inputs, w)
    assert result.raw == value
    assert result.score == round(min(1.0, max(0.0, value)), 6)

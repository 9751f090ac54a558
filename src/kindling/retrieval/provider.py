"""Retrieval providers: the contract (seeds 001, 004) and the local FTS provider.

``LocalFtsProvider`` scores candidates with ``retrieval.scoring``; the store only finds and
orders them. For a text query the store returns the ``TEXT_POOL`` most relevant matches by
bm25, and the full score orders that pool: calibrated relevance and the question's need
(``signals``), the steps of the best episodes (``episodes``), then recency and the bounded
multipliers (term proximity among them); nothing further down is read, unless a caller asks
for more results than that gives (then deeper matches follow, in their own score order).
(An exact top over every match would have to read ever deeper pools whenever many matches
tie on relevance, as single common words do: measured 100-1,000 ms at 100k observations.)
For the empty query the store returns newest first; the recency order is final except for
per-hit factors (summary confidence, intent), and a bound settles those exactly: a match
outside the pool has at most the last row's recency and every factor at its best, so when the
``limit``-th best score beats that bound the top is exact; otherwise the pool grows fourfold.

``plans`` chooses which plan of a text question is searched (without its very common words).

Must not import anything from Kindling except ``model``, ``errors``, ``store`` and
``retrieval``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from kindling.model import Entity, Explanation, Observation, Scope, Summary, TargetType
from kindling.retrieval import union as _union
from kindling.retrieval.episodes import expand_episodes
from kindling.retrieval.needs import Need
from kindling.retrieval.plans import read_terms, search_plans
from kindling.retrieval.scoring import (
    DEFAULT_WEIGHTS,
    ScoreInputs,
    ScoringWeights,
    calculate_score,
    intent_factor,
    raw_score,
    relevance,
    rounded,
    scope_factor,
    stable_sort_key,
)
from kindling.retrieval.semantic import (
    SEMANTIC_WEIGHT,
    SemanticScorer,
    semantic_signal,
    semantic_values,
)
from kindling.retrieval.signals import Query, explain, fill_proximity, fill_text_signals
from kindling.retrieval.signals import Scored as _Scored
from kindling.retrieval.snippets import find_terms, make_snippet
from kindling.retrieval.spread import placed_scores, spread_sessions
from kindling.store.base import ObservationMatch, Store, SummaryMatch
from kindling.store.fts import QueryPlan, build_query

DEFAULT_LIMIT = 50
MIN_POOL = 64
# How deep into the bm25 order a text query's full score looks, whatever the limit, so the
# first results are the same for a limit of 10, 50 or 200 (a larger limit reads deeper matches
# and places them after the pool). 80 ranks as 200 did on every tuning set, at 2.5x less cost.
TEXT_POOL = 80


@dataclass(frozen=True, slots=True)
class ProviderRequest:
    """What a provider is asked for."""

    query: str | None
    scope: Scope
    limit: int = DEFAULT_LIMIT
    intent: str | None = None
    exclude_ids: tuple[str, ...] = ()
    include_redacted: bool = False
    now: int | None = None  # reference time for recency; None = newest item in the scope


@dataclass(frozen=True, slots=True)
class ProviderHit:
    """One scored hit of a provider."""

    target_type: TargetType
    target_id: str
    score: float
    why: str
    evidence_refs: tuple[str, ...]
    ts_ms: int
    entity: Entity = field(repr=False)
    explanation: Explanation = field(repr=False)
    match_context: str | None = None


@dataclass(frozen=True, slots=True)
class ProviderResult:
    """A provider's hits, best first, and what it searched with."""

    hits: tuple[ProviderHit, ...]
    plan: QueryPlan
    need: Need | None = None
    phrase_fallback: tuple[str, ...] = ()  # quoted phrases that matched nothing: read as terms


class RetrievalProvider(Protocol):
    name: str

    def search(self, request: ProviderRequest) -> ProviderResult: ...


class LocalFtsProvider:
    """Calibrated text relevance over the observation and summary indexes, the question's
    need and episode, recency, scope, intent and confidence; deterministic for a given store
    state, request and reference time."""

    name = "local-fts"

    def __init__(
        self,
        store: Store,
        weights: ScoringWeights = DEFAULT_WEIGHTS,
        *,
        semantic: SemanticScorer | None = None,
        semantic_weight: float = SEMANTIC_WEIGHT,
        union: _union.UnionSettings | None = None,
    ) -> None:
        self.store = store
        self.weights = weights
        self.semantic = semantic  # the optional semantic signal (retrieval.semantic)
        self.semantic_weight = semantic_weight
        self.union = union  # nearest neighbours join the candidates (retrieval.union)

    def search(self, request: ProviderRequest) -> ProviderResult:
        full = build_query(request.query or "")
        if request.limit <= 0:
            return ProviderResult((), full)
        newest = self.store.newest_ts(request.scope)
        reference = request.now if request.now is not None else (newest or 0)
        if request.now is not None and (newest is None or newest <= request.now):
            # Nothing in scope was recorded after ``now``: no time filter to pay for (it costs
            # a row look-up per match).
            request = replace(request, now=None)
        scope = scope_factor(request.scope, request.scope)
        full, counts, fallback = read_terms(self.store, full)
        query = Query.read(full, request.query or "", *counts)
        plan, found = search_plans(
            full,
            query,
            self.weights,
            lambda p: self._candidates(request, p, reference, scope),
        )
        near: list[_Scored] = []
        if plan.match is not None:
            found += expand_episodes(self.store, request, found, query, self.weights, scope)
            if self.union is not None and isinstance(self.semantic, _union.NeighbourFinder):
                near = _union.neighbour_candidates(self, request, found, query, self.union, scope)
                found += near
            if self.semantic is not None:
                self._fill_semantic(found, request.query or "")
            fill_proximity(found, query)
            self._rescore(found, plan, reference)
            if near and self.union is not None:
                _union.place_neighbours(found, near, self.union, self.semantic_weight)
        ranked = sorted(found, key=lambda s: s.key)
        if plan.match is not None and request.scope.session_id is None and self.weights.session_cap:
            ranked = spread_sessions(
                ranked, cap=self.weights.session_cap, own=self.weights.spread_own
            )
        pooled = len(ranked)
        if plan.match is not None and len(ranked) < request.limit and request.limit > TEXT_POOL:
            ranked += self._deeper(request, plan, reference, scope, query, ranked)
        ranked = ranked[: request.limit]
        hits = tuple(self._finish(ranked, plan, reference, query))
        if plan.match is not None and near:
            hits = _union.mark_neighbours(hits, near)
        hits = placed_scores(hits, pooled)
        return ProviderResult(hits, plan, query.need, fallback)

    def _fill_semantic(self, found: list[_Scored], query: str) -> None:
        assert self.semantic is not None
        keys = [(s.target_type, s.entity.id) for s in found]
        values = semantic_values(self.semantic, query, keys)
        for item, key in zip(found, keys, strict=True):
            item.semantic = values.get(key)

    def _rescore(self, found: list[_Scored], plan: QueryPlan, reference: int) -> None:
        for item in found:
            inputs = self._inputs(item, plan, reference)
            item.raw = raw_score(inputs, self.weights)
            item.score = rounded(item.raw)
            item.relevance = round(relevance(inputs, self.weights), 6)
            item.key = stable_sort_key(item.score, item.ts, item.target_type, item.entity.id)

    def _candidates(
        self,
        request: ProviderRequest,
        plan: QueryPlan,
        reference: int,
        scope: float,
        depth: int = TEXT_POOL,
    ) -> list[_Scored]:
        observations = self._exact_pool(request, plan, reference, scope, "observation", depth)
        return observations + self._exact_pool(request, plan, reference, scope, "summary", depth)

    def _deeper(
        self,
        request: ProviderRequest,
        plan: QueryPlan,
        reference: int,
        scope: float,
        query: Query,
        ranked: Sequence[_Scored],
    ) -> list[_Scored]:
        """Matches below the pool, for a caller asking for more than it holds: scored the
        same way and placed after the pool's results, so the first results never depend on
        how many are asked for."""
        seen = {(s.target_type, s.entity.id) for s in ranked}
        deeper = [
            s
            for s in self._candidates(request, plan, reference, scope, TEXT_POOL + request.limit)
            if (s.target_type, s.entity.id) not in seen
        ]
        fill_text_signals(deeper, query, self.weights)
        fill_proximity(deeper, query)
        if self.semantic is not None:
            self._fill_semantic(deeper, request.query or "")
        self._rescore(deeper, plan, reference)
        return sorted(deeper, key=lambda s: s.key)

    # -- exact top-k ---------------------------------------------------------------------

    def _exact_pool(
        self,
        request: ProviderRequest,
        plan: QueryPlan,
        reference: int,
        scope: float,
        target: TargetType,
        depth: int = TEXT_POOL,
    ) -> list[_Scored]:
        """The top ``limit`` of ``target`` (see the module docstring for the pool and bound);
        a text query's ``depth`` best matches by bm25."""
        if plan.match is not None:
            return self._fetch(request, plan, reference, scope, target, depth)[0]
        if target == "observation" and request.intent is None:
            # Newest first is already the order: observations have no per-hit factor here.
            return self._fetch(request, plan, reference, scope, target, request.limit)[0]
        pool = max(MIN_POOL, request.limit * 2)
        while True:
            scored, bound = self._fetch(request, plan, reference, scope, target, pool)
            if bound is None or len(scored) < request.limit:
                return scored
            kth = sorted(s.raw for s in scored)[-request.limit]
            if kth > bound:
                return scored
            pool *= 4

    def _fetch(
        self,
        request: ProviderRequest,
        plan: QueryPlan,
        reference: int,
        scope: float,
        target: TargetType,
        pool: int,
    ) -> tuple[list[_Scored], float | None]:
        """Score a pool; the bound (empty query) is None when the pool holds every match."""
        text = plan.match is not None
        scored: list[_Scored]
        if target == "observation":
            obs_rows = self.store.search_observations(
                plan if text else None,
                request.scope,
                exclude_ids=request.exclude_ids,
                include_redacted=request.include_redacted,
                limit=pool,
                until=request.now,
            )
            scored = self._score_observations(obs_rows, request, text, scope)
            rows: Sequence[ObservationMatch | SummaryMatch] = obs_rows
        else:
            sum_rows = self.store.search_summaries(
                plan if text else None,
                request.scope,
                exclude_ids=request.exclude_ids,
                limit=pool,
                until=request.now,
            )
            scored = self._score_summaries(sum_rows, request, text, scope)
            rows = sum_rows
        if text:
            return scored, None  # scored with the text signals later (``_rescore``)
        self._rescore(scored, plan, reference)
        if len(rows) < pool or not scored:
            return scored, None
        # The best any unread match can do: the last row's time (the pool is newest first) with
        # every per-hit factor at its best.
        best = replace(scored[-1], intent=1.0, confidence=1.0)
        return scored, raw_score(self._inputs(best, plan, reference), self.weights)

    def _inputs(self, item: _Scored, plan: QueryPlan, reference: int) -> ScoreInputs:
        return ScoreInputs(
            item.bm25,
            plan.clauses,
            item.ts,
            reference,
            item.scope,
            item.intent,
            item.confidence,
            item.target_type == "summary",
            own=item.own,
            context=item.context,
            support=item.support,
            episode=item.episode,
            need=item.need,
            prompt=item.prompt,
            proximity=item.proximity,
            extra=semantic_signal(item.semantic, self.semantic_weight),
        )

    def _score_observations(
        self, rows: Sequence[ObservationMatch], request: ProviderRequest, text: bool, scope: float
    ) -> list[_Scored]:
        intents: dict[str, str] = {}
        if request.intent is not None and rows:
            intents = self.store.capsule_intents_of([m.observation.id for m in rows])
        return [
            _Scored(
                target_type="observation",
                entity=m.observation,
                ts=m.observation.ts,
                bm25=m.bm25 if text else None,
                scope=scope,
                intent=intent_factor(request.intent, intents.get(m.observation.id)),
                confidence=1.0,
                context_only=m.context_only,
                session=m.observation.scope.session_id,
                context_text=m.context,
                context_prompt=m.context_prompt,
                capsule_intent=m.intent,
            )
            for m in rows
        ]

    def _score_summaries(
        self, rows: Sequence[SummaryMatch], request: ProviderRequest, text: bool, scope: float
    ) -> list[_Scored]:
        return [
            _Scored(
                target_type="summary",
                entity=m.summary,
                ts=m.summary.created_at,
                bm25=m.bm25 if text else None,
                scope=scope,
                intent=intent_factor(request.intent, m.intent),
                confidence=m.summary.confidence,
                session=m.scope.session_id,
                capsule_intent=m.intent,
            )
            for m in rows
        ]

    # -- explanation and evidence ----------------------------------------------------------

    def _finish(
        self, ranked: Sequence[_Scored], plan: QueryPlan, reference: int, query: Query
    ) -> list[ProviderHit]:
        hits = []
        for item in ranked:
            entity = item.entity
            redacted = isinstance(entity, Observation) and entity.redacted
            kind = entity.kind if isinstance(entity, Observation) else None
            spans = () if redacted or plan.match is None else find_terms(entity.content, plan.words)
            terms = tuple(dict.fromkeys(entity.content[a:b].lower() for a, b in spans))
            inputs = self._inputs(item, plan, reference)
            result = calculate_score(inputs, self.weights)
            explanation = explain(
                result,
                inputs,
                self.weights,
                query,
                terms,
                context_only=item.context_only,
                entity=entity,
            )
            hits.append(
                ProviderHit(
                    target_type=item.target_type,
                    target_id=entity.id,
                    score=result.score,
                    why=explanation.why,
                    evidence_refs=(
                        entity.evidence_refs if isinstance(entity, Summary) else (entity.id,)
                    ),
                    ts_ms=item.ts,
                    entity=entity,
                    match_context=make_snippet(entity.content, spans, kind=kind, redacted=redacted),
                    explanation=explanation,
                )
            )
        return hits

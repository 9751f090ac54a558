"""Retrieval providers: the contract (seeds 001, 004) and the local FTS provider.

``LocalFtsProvider`` ranks exactly over every in-scope match. The store evaluates the additive
part of the score (relevance + recency) in SQL and returns a pool in that order; the provider
applies the multipliers (scope, intent, confidence), which can only lower a score. A hit left
outside the pool therefore scores at most the pool's last additive value, and when the
``limit``-th best full score is above that bound the ranking is exact; otherwise the pool grows
(four times) and the step repeats, until it is exact or every match has been read.

Must not import anything from Kindling except ``model``, ``errors``, ``store`` and
``retrieval``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from kindling.model import Entity, Explanation, Observation, Scope, Summary, TargetType
from kindling.retrieval.scoring import (
    DEFAULT_WEIGHTS,
    ScoreInputs,
    ScoringWeights,
    calculate_score,
    describe,
    intent_factor,
    multiplier,
    scope_factor,
    stable_sort_key,
)
from kindling.retrieval.snippets import make_snippet, matched_terms
from kindling.store.base import BaseRank, ObservationMatch, Store, SummaryMatch
from kindling.store.fts import QueryPlan, build_query

DEFAULT_LIMIT = 50
MIN_POOL = 64


@dataclass(frozen=True, slots=True)
class ProviderRequest:
    query: str | None
    scope: Scope
    limit: int = DEFAULT_LIMIT
    intent: str | None = None
    exclude_ids: tuple[str, ...] = ()
    include_redacted: bool = False
    now: int | None = None  # reference time for recency; None = newest observation


@dataclass(frozen=True, slots=True)
class ProviderHit:
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
    hits: tuple[ProviderHit, ...]
    plan: QueryPlan


class RetrievalProvider(Protocol):
    name: str

    def search(self, request: ProviderRequest) -> ProviderResult: ...


@dataclass(slots=True)
class _Scored:
    target_type: TargetType
    entity: Entity
    ts: int
    rowid: int
    bm25: float | None
    scope: float
    intent: float
    confidence: float
    key: tuple[float, int, str, str] = (0.0, 0, "", "")
    score: float = 0.0
    raw: float = 0.0


class LocalFtsProvider:
    """BM25 over ``observations_fts`` and ``summaries_fts``, plus recency, scope, intent and
    confidence; deterministic for a given store state, request and reference time."""

    name = "local-fts"

    def __init__(self, store: Store, weights: ScoringWeights = DEFAULT_WEIGHTS) -> None:
        self.store = store
        self.weights = weights

    def search(self, request: ProviderRequest) -> ProviderResult:
        plan = build_query(request.query or "")
        reference = request.now if request.now is not None else (self.store.newest_ts() or 0)
        rank = BaseRank(
            w_fts=self.weights.fts,
            w_recency=self.weights.recency,
            relevance_k=self.weights.relevance_k * plan.clauses,
            match_floor=self.weights.match_floor,
            half_life_ms=self.weights.half_life_ms,
            reference_ms=reference,
            # Under the AND filter every hit matches the requested dimensions: one factor.
            scope_mult=multiplier(self.weights.scope, scope_factor(request.scope, request.scope)),
            intent_mult=multiplier(self.weights.intent, 1.0),
            w_confidence=self.weights.confidence,
        )
        if request.limit <= 0:
            return ProviderResult((), plan)
        # Same association as calculate_score: (scope * source) * intent * confidence.
        obs_rank = replace(rank, scope_mult=rank.scope_mult * (1.0 - self.weights.observation))
        observations = self._exact_pool(request, plan, obs_rank, "observation")
        summaries = self._exact_pool(request, plan, rank, "summary")
        ranked = sorted(observations + summaries, key=lambda s: s.key)[: request.limit]
        return ProviderResult(tuple(self._finish(ranked, plan, reference)), plan)

    # -- exact top-k ---------------------------------------------------------------------

    def _exact_pool(
        self, request: ProviderRequest, plan: QueryPlan, rank: BaseRank, target: TargetType
    ) -> list[_Scored]:
        """The exact top ``limit`` of ``target``. The store sorts by the full score except the
        per-hit intent factor (at most 1) and, for summaries without a text query, their
        confidence factor (at most 1; they come newest first). When neither applies its order
        is final; otherwise a match outside the pool scores at most the bound computed from
        the pool's last row with those factors at 1, and the pool grows until the limit-th
        best full score beats it."""
        sql_is_final = request.intent is None and not (plan.match is None and target == "summary")
        pool = max(MIN_POOL, request.limit * 2)
        while True:
            scored, last_bound, exhausted = self._fetch(request, plan, rank, target, pool)
            if exhausted or sql_is_final:
                return scored
            kth = sorted(s.raw for s in scored)[-request.limit]
            if kth > last_bound:
                return scored
            pool *= 4

    def _fetch(
        self,
        request: ProviderRequest,
        plan: QueryPlan,
        rank: BaseRank,
        target: TargetType,
        pool: int,
    ) -> tuple[list[_Scored], float, bool]:
        scored: list[_Scored]
        if target == "observation":
            obs_rows = self.store.search_observations(
                plan.match,
                request.scope,
                rank=rank,
                exclude_ids=request.exclude_ids,
                include_redacted=request.include_redacted,
                limit=pool,
            )
            scored = self._score_observations(obs_rows, request, plan)
        else:
            sum_rows = self.store.search_summaries(
                plan.match, request.scope, rank=rank, exclude_ids=request.exclude_ids, limit=pool
            )
            scored = self._score_summaries(sum_rows, request, plan)
        last_bound = 0.0
        for item in scored:
            inputs = ScoreInputs(
                item.bm25,
                plan.clauses,
                item.ts,
                rank.reference_ms,
                item.scope,
                item.intent,
                item.confidence,
                item.target_type == "summary",
            )
            result = calculate_score(inputs, self.weights)
            item.score = result.score
            item.raw = result.raw
            # The visible (rounded) score orders results, as stable_sort does; the pool above is
            # wide enough that a tie at the cut is settled by time and id, not by the pool.
            item.key = stable_sort_key(result.score, item.ts, item.target_type, item.entity.id)
            last_bound = calculate_score(
                replace(inputs, intent=1.0, confidence=1.0), self.weights
            ).raw
        return scored, last_bound, len(scored) < pool

    def _score_observations(
        self, rows: Sequence[ObservationMatch], request: ProviderRequest, plan: QueryPlan
    ) -> list[_Scored]:
        text_query = plan.match is not None
        intents: dict[str, str] = {}
        if request.intent is not None and rows:
            intents = self.store.capsule_intents_of([m.observation.id for m in rows])
        return [
            _Scored(
                target_type="observation",
                entity=m.observation,
                ts=m.observation.ts,
                rowid=m.rowid,
                bm25=m.bm25 if text_query else None,
                scope=scope_factor(request.scope, m.observation.scope),
                intent=intent_factor(request.intent, intents.get(m.observation.id)),
                confidence=1.0,
            )
            for m in rows
        ]

    def _score_summaries(
        self, rows: Sequence[SummaryMatch], request: ProviderRequest, plan: QueryPlan
    ) -> list[_Scored]:
        text_query = plan.match is not None
        return [
            _Scored(
                target_type="summary",
                entity=m.summary,
                ts=m.summary.created_at,
                rowid=m.rowid,
                bm25=m.bm25 if text_query else None,
                scope=scope_factor(request.scope, m.scope),
                intent=intent_factor(request.intent, m.intent),
                confidence=m.summary.confidence,
            )
            for m in rows
        ]

    # -- explanation and evidence ----------------------------------------------------------

    def _finish(
        self, ranked: Sequence[_Scored], plan: QueryPlan, reference: int
    ) -> list[ProviderHit]:
        highlights: dict[tuple[TargetType, int], str] = {}
        if plan.match is not None:
            for target in ("observation", "summary"):
                rowids = [s.rowid for s in ranked if s.target_type == target]
                for rowid, text in self.store.highlight(target, plan.match, rowids).items():
                    highlights[(target, rowid)] = text
        hits = []
        for item in ranked:
            highlighted = highlights.get((item.target_type, item.rowid))
            entity = item.entity
            redacted = isinstance(entity, Observation) and entity.redacted
            kind = entity.kind if isinstance(entity, Observation) else None
            terms = () if redacted else matched_terms(highlighted)
            result = calculate_score(
                ScoreInputs(
                    item.bm25,
                    plan.clauses,
                    item.ts,
                    reference,
                    item.scope,
                    item.intent,
                    item.confidence,
                    item.target_type == "summary",
                ),
                self.weights,
            )
            why = describe(terms, result.age_ms, text_query=plan.match is not None)
            explanation = Explanation(
                relevance=result.relevance,
                bm25=round(item.bm25, 6) if item.bm25 is not None else None,
                recency=result.recency,
                age_ms=result.age_ms,
                scope=item.scope,
                intent=item.intent,
                confidence=item.confidence,
                source=1.0 if item.target_type == "summary" else 1.0 - self.weights.observation,
                score=result.score,
                matched_terms=terms,
                why=why,
            )
            hits.append(
                ProviderHit(
                    target_type=item.target_type,
                    target_id=entity.id,
                    score=result.score,
                    why=why,
                    evidence_refs=(
                        entity.evidence_refs if isinstance(entity, Summary) else (entity.id,)
                    ),
                    ts_ms=item.ts,
                    entity=entity,
                    match_context=make_snippet(
                        entity.content, highlighted, kind=kind, redacted=redacted
                    ),
                    explanation=explanation,
                )
            )
        return hits

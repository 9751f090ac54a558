"""Retrieval orchestration (seed 000): pins, the current summary, then provider candidates.

Tier 1, pins: active at ``now`` (newest first), in scope, targets not redacted unless asked.
Tier 2, the current summary: the summary of the newest open capsule in scope (none for an
unscoped request: without a scope there is no "current" work). A pinned summary stays in tier 1.
Tier 3, candidates: the provider's ranking, minus everything already shown, cut to the token
budget in rank order. Tiers 1 and 2 are never cut.

Must not import anything from Kindling except ``model``, ``store`` and ``retrieval``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from kindling.model import (
    CandidateResult,
    Entity,
    Observation,
    Pin,
    PinResult,
    RetrieveProvenance,
    RetrieveResult,
    Scope,
    Summary,
)
from kindling.retrieval.budget import Tokenizer, fit_to_budget
from kindling.retrieval.provider import ProviderRequest, RetrievalProvider
from kindling.store.base import CapsuleRef

MAX_PINS = 200


class TierStore(Protocol):
    """The store reads the orchestrator makes: a narrow slice of ``store.base.Store`` (every
    ``Store`` is one); ``retrieval.fakes.FakeTierStore`` implements it without a database."""

    def list_pins(self, *, scope: Scope, active_at: int | None, limit: int) -> list[Pin]: ...
    def get_observations(self, ids: Sequence[str]) -> dict[str, Observation]: ...
    def get_summaries(self, ids: Sequence[str]) -> dict[str, Summary]: ...
    def find_open_capsule(self, scope: Scope, *, session_id: str | None) -> CapsuleRef | None: ...
    def summary_for_capsule(self, capsule_id: str) -> Summary | None: ...


@dataclass(frozen=True, slots=True)
class RetrieveRequest:
    """A retrieve call, its arguments checked."""

    query: str
    scope: Scope
    token_budget: int | None
    max_candidates: int
    include_redacted: bool
    intent: str | None
    now: int | None  # caller's clock; None = wall clock for pin expiry only


def _active_pins(store: TierStore, request: RetrieveRequest, now: int) -> list[PinResult]:
    pins = store.list_pins(scope=request.scope, active_at=now, limit=MAX_PINS)
    obs = store.get_observations([p.target_id for p in pins if p.target_type == "observation"])
    sums = store.get_summaries([p.target_id for p in pins if p.target_type == "summary"])
    results = []
    seen: set[tuple[str, str]] = set()
    for pin in pins:
        target: Entity | None = (
            obs.get(pin.target_id) if pin.target_type == "observation" else sums.get(pin.target_id)
        )
        if target is None or (pin.target_type, pin.target_id) in seen:
            continue  # target deleted, or already shown by a newer pin
        if isinstance(target, Observation) and target.redacted and not request.include_redacted:
            continue
        seen.add((pin.target_type, pin.target_id))
        results.append(PinResult(pin=pin, target=target))
    return results


def _current_summary(store: TierStore, scope: Scope, pinned: set[str]) -> Summary | None:
    if scope.is_empty():
        return None
    capsule = store.find_open_capsule(scope, session_id=None)
    if capsule is None:
        return None
    summary = store.summary_for_capsule(capsule.id)
    if summary is None or summary.id in pinned:
        return None
    return summary


def retrieve(
    store: TierStore,
    provider: RetrievalProvider,
    tokenizer: Tokenizer,
    request: RetrieveRequest,
    *,
    wall_clock_ms: int,
) -> RetrieveResult:
    pin_clock = request.now if request.now is not None else wall_clock_ms
    pins = _active_pins(store, request, pin_clock)
    pinned_ids = {p.target.id for p in pins}
    current = _current_summary(store, request.scope, pinned_ids)
    exclude = sorted(pinned_ids | ({current.id} if current else set()))
    found = provider.search(
        ProviderRequest(
            query=request.query,
            scope=request.scope,
            limit=request.max_candidates,
            intent=request.intent,
            exclude_ids=tuple(exclude),
            include_redacted=request.include_redacted,
            now=request.now,
        )
    )
    hits = [h for h in found.hits if h.target_id not in pinned_ids]
    fixed = sum(tokenizer.count(p.target.content) for p in pins)
    if current is not None:
        fixed += tokenizer.count(current.content)
    outcome = fit_to_budget(
        fixed, [tokenizer.count(h.entity.content) for h in hits], request.token_budget
    )
    candidates = tuple(
        CandidateResult(
            entity=h.entity,
            score=h.score,
            match_context=h.match_context,
            explanation=h.explanation,
        )
        for h in hits[: outcome.kept]
    )
    provenance = RetrieveProvenance(
        query=request.query,
        scope=request.scope,
        total_candidates=len(hits),
        returned_candidates=len(candidates),
        truncated_due_to_token_budget=outcome.truncated,
        provider_used=provider.name,
        query_mode=found.plan.mode,
        fts_query=found.plan.match,
        dropped_terms=found.plan.dropped,
        phrase_fallback=found.phrase_fallback,
        token_budget=request.token_budget,
        tokens_used=outcome.tokens_used,
        now=request.now,
    )
    return RetrieveResult(
        pins=tuple(pins), current_summary=current, candidates=candidates, provenance=provenance
    )

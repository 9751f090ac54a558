"""The union of candidates: the lexical candidates of a text query and the question's nearest
neighbours by meaning within the scope, ranked together (issue 35).

A question whose words do not occur in its answer can only be found by a candidate set built
from meaning. With the semantic signal on and a ``UnionSettings``, the provider adds the
``neighbours`` items of the scope with the highest cosine (nothing recorded after ``now``,
nothing excluded) that the lexical index did not find. Such an item has no text relevance of
its own, so it stands in for the lexical candidate at rank ``floor``: it takes that candidate's
score without its semantic factor, times its own (``1 - w + w * cosine``, the provider's
weight). It thus ranks above
the lexical candidate at ``floor`` exactly when its cosine beats that candidate's, and never
above one that is both a better text match and as close in meaning. Where the lexical list is
shorter than ``floor``, its last candidate stands in; with no lexical candidate at all the
neighbours rank by cosine alone (``EMPTY_BASE``).

Everything is exact and ordered: cosines from int8 vectors in integer arithmetic, rounded to 4
places; neighbours by cosine then (type, id); scores by the provider's stable key. The same
store, vectors, question, scope and ``now`` give the same bytes.

Nothing here imports the extra: ``NeighbourFinder`` is a Protocol that ``kindling.semantic``
implements.

Must not import anything from Kindling except ``model``, ``retrieval`` and ``store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from kindling.model import Scope, TargetType
from kindling.retrieval.scoring import stable_sort_key
from kindling.retrieval.semantic import ROUND

if TYPE_CHECKING:
    from kindling.retrieval.provider import LocalFtsProvider, ProviderHit, ProviderRequest
    from kindling.retrieval.signals import Query, Scored

EMPTY_BASE = 0.5  # the stand-in score when the lexical index found nothing
# One nearest neighbour: its type, id, session (a summary's: its capsule's) and cosine.
Neighbour = tuple[TargetType, str, str | None, float]


@dataclass(frozen=True, slots=True)
class UnionSettings:
    """How many nearest neighbours join the lexical candidates, and where they stand in."""

    neighbours: int = 10
    floor: int = 10

    def __post_init__(self) -> None:
        if self.neighbours < 1 or self.floor < 1:
            raise ValueError("union settings: neighbours and floor must be at least 1")


# What ``Kindling.open(..., semantic=...)`` ranks with when the signal is on: None, re-rank only.
# On the tuning parts (free-question set, Molweni) the best union (k 10, floor 30) tied the
# re-rank and never beat it, for a dearer question (docs/semantic.md).
DEFAULT_UNION: UnionSettings | None = None


@runtime_checkable
class NeighbourFinder(Protocol):
    """The nearest neighbours of a question in a scope (``kindling.semantic`` has one)."""

    def neighbours(
        self,
        query: str,
        scope: Scope,
        *,
        limit: int,
        until: int | None,
        exclude_ids: Sequence[str],
    ) -> list[Neighbour]:
        """At most ``limit`` items of ``scope`` with a vector, best cosine first (ties: type,
        id), none recorded after ``until``, none in ``exclude_ids``."""
        ...


def neighbour_candidates(
    provider: LocalFtsProvider,
    request: ProviderRequest,
    known: Sequence[Scored],
    query: Query,
    settings: UnionSettings,
    scope_value: float,
) -> list[Scored]:
    """The nearest neighbours that the lexical candidates (``known``) lack, as candidates of a
    text query with no text match (bm25 0), their text signals filled; their semantic value is
    their cosine."""
    from kindling.retrieval.signals import Scored, fill_text_signals

    finder = provider.semantic
    assert isinstance(finder, NeighbourFinder)
    store = provider.store
    keys = {(s.target_type, s.entity.id) for s in known}
    found = finder.neighbours(
        request.query or "",
        request.scope,
        limit=settings.neighbours + len(keys),
        until=request.now,
        exclude_ids=request.exclude_ids,
    )
    fresh = [n for n in found if (n[0], n[1]) not in keys][: settings.neighbours]
    observations = store.get_observations([n[1] for n in fresh if n[0] == "observation"])
    summaries = store.get_summaries([n[1] for n in fresh if n[0] == "summary"])
    out: list[Scored] = []
    for target, key, session, cosine in fresh:
        if target == "observation":
            obs = observations.get(key)
            if obs is None or obs.redacted:
                continue
            entity, ts, confidence = obs, obs.ts, 1.0
        else:
            summary = summaries.get(key)
            if summary is None:
                continue
            entity, ts, confidence = summary, summary.created_at, summary.confidence
        out.append(
            Scored(
                target_type=target,
                entity=entity,
                ts=ts,
                bm25=0.0,
                scope=scope_value,
                intent=1.0,
                confidence=confidence,
                session=session,
                semantic=round(min(1.0, max(0.0, cosine)), ROUND),
            )
        )
    fill_text_signals(out, query, provider.weights)
    return out


def _factor(value: float | None, weight: float) -> float:
    return 1.0 - weight + weight * (value if value is not None else 0.0)


def place_neighbours(
    found: Sequence[Scored], neighbours: Sequence[Scored], settings: UnionSettings, weight: float
) -> None:
    """Score each neighbour as the lexical candidate at ``floor`` without its semantic factor,
    times the neighbour's own (see the module docstring), unless its own score is higher."""
    mine = {id(n) for n in neighbours}
    lexical = sorted((s for s in found if id(s) not in mine), key=lambda s: s.key)
    if lexical:
        stand_in = lexical[min(settings.floor, len(lexical)) - 1]
        base = stand_in.raw / _factor(stand_in.semantic, weight)
    else:
        base = EMPTY_BASE
    for item in neighbours:
        value = base * _factor(item.semantic, weight)
        if value <= item.raw:
            continue
        score = round(min(1.0, max(0.0, value)), 6)
        item.raw = value
        item.score = score
        item.key = stable_sort_key(score, item.ts, item.target_type, item.entity.id)


def mark_neighbours(
    hits: Sequence[ProviderHit], neighbours: Sequence[Scored]
) -> tuple[ProviderHit, ...]:
    """Give each neighbour's hit the score it was placed with (``place_neighbours``; the hit's
    factors alone would give its lower score without text relevance) and say in ``why`` that it
    was found by meaning, not by the question's words."""
    placed = {(n.target_type, n.entity.id): n.score for n in neighbours}
    out = []
    for hit in hits:
        score = placed.get((hit.target_type, hit.target_id))
        if score is not None:
            value = hit.explanation.signals.get("semantic", 0.0)
            rest = hit.why.split("; ", 1)[1] if "; " in hit.why else ""
            why = f"close in meaning to the question (semantic {value:.2f}), not found by its words"
            why = f"{why}; {rest}" if rest else why
            explanation = replace(hit.explanation, why=why, score=score)
            hit = replace(hit, why=why, score=score, explanation=explanation)
        out.append(hit)
    return tuple(out)

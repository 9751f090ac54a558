"""Episode, then step: for a question that asks for a kind of step (a fix, an error, a check;
``needs.STEP_NEEDS``), find the episodes (sessions) the question matches, then rank the steps
inside them by what the question asks for.

An episode's relevance is the best relevance of its matched items (its prompt, intent and
steps; its summary). The ``EPISODES`` best episodes at or above ``RELEVANCE_THRESHOLD`` are
read whole (their newest ``STEP_LIMIT`` steps, in scope, one statement each); every step gets
the episode's relevance as its ``episode`` signal and its fit to the need with its phase in the
session (before the first edit, after the last one). The scoring model turns these into
``relevance = max(text relevance, w_episode * episode)`` and the need multiplier, so the edit
that fixed an issue ranks above the prompt that named it, although only the prompt holds the
question's words.

Must not import anything from Kindling except ``model``, ``store`` and ``retrieval``.
"""

from __future__ import annotations

from typing import Protocol

from kindling.model import Observation, Scope
from kindling.retrieval.needs import STEP_NEEDS, phase_of, prompt_for_step, step_fit
from kindling.retrieval.scoring import (
    RELEVANCE_THRESHOLD,
    ScoreInputs,
    ScoringWeights,
    intent_factor,
    relevance,
)
from kindling.retrieval.signals import Query, Scored
from kindling.store.base import Store


class EpisodeRequest(Protocol):
    """What the expansion reads of a ``provider.ProviderRequest`` (named here, so that this
    module, which the provider imports, does not import the provider back)."""

    @property
    def scope(self) -> Scope: ...
    @property
    def intent(self) -> str | None: ...
    @property
    def exclude_ids(self) -> tuple[str, ...]: ...
    @property
    def include_redacted(self) -> bool: ...
    @property
    def now(self) -> int | None: ...


EPISODES = 2
EPISODE_MARGIN = 0.15
STEP_LIMIT = 100


def _text_relevance(item: Scored, weights: ScoringWeights) -> float:
    inputs = ScoreInputs(
        item.bm25, 1, 0, 0, 1.0, 1.0, 1.0, own=item.own, context=item.context, support=item.support
    )
    return relevance(inputs, weights)


def _in_scope(wanted: Scope, scope: Scope) -> bool:
    return all(getattr(scope, name) == value for name, value in wanted.items())


def _session(item: Scored) -> str | None:
    entity = item.entity
    return entity.scope.session_id if isinstance(entity, Observation) else None


def expand_episodes(
    store: Store,
    request: EpisodeRequest,
    found: list[Scored],
    query: Query,
    weights: ScoringWeights,
    scope: float,
) -> list[Scored]:
    """Give the steps of the best episodes their ``episode`` and phased ``need`` signals, and
    return the steps that were not candidates yet (``found`` is updated in place)."""
    if query.need not in STEP_NEEDS:
        return []
    best: dict[str, float] = {}
    for item in found:
        sid = _session(item)
        if sid is None:
            continue
        rel = _text_relevance(item, weights)
        if rel > best.get(sid, 0.0):
            best[sid] = rel
    chosen = sorted(
        ((rel, sid) for sid, rel in best.items() if rel >= RELEVANCE_THRESHOLD),
        key=lambda p: (-p[0], p[1]),
    )[:EPISODES]
    # A runner-up well behind the best episode is not read: its steps would rank below the
    # best episode's anyway, and reading a session is most of this stage's cost.
    chosen = [(rel, sid) for rel, sid in chosen if rel >= chosen[0][0] - EPISODE_MARGIN]
    if not chosen:
        return []
    by_id = {item.entity.id: item for item in found}
    words = query.words
    excluded = set(request.exclude_ids)
    added: list[Scored] = []
    for rel, sid in chosen:
        # By session alone (its time index; with the repository too, SQLite walks the whole
        # repository's index), then the request's other scope dimensions, exactly.
        steps = [
            o
            for o in store.list_observations(
                kind=None,
                scope=Scope(session_id=sid),
                capsule_id=None,
                limit=STEP_LIMIT,
                # nothing recorded after ``now``: rows after (now, "") in newest-first order
                before=None if request.now is None else (request.now, ""),
            )
            if (request.include_redacted or not o.redacted)
            and o.id not in excluded
            and _in_scope(request.scope, o.scope)
        ]
        phase = phase_of(steps)
        for obs in steps:
            known = by_id.get(obs.id)
            if known is not None:
                item = known
            else:
                item = Scored(
                    "observation", obs, obs.ts, 0.0, scope, 1.0, 1.0, session=obs.scope.session_id
                )
                by_id[obs.id] = item
                added.append(item)
            item.episode = max(item.episode, rel)
            item.need = step_fit(query.need, obs, phase, words)
            item.prompt = prompt_for_step(query.need, obs)
    if added and request.intent is not None:
        intents = store.capsule_intents_of([item.entity.id for item in added])
        for item in added:
            item.intent = intent_factor(request.intent, intents.get(item.entity.id))
    return added

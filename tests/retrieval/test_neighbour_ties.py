"""A step's context is the step written just before it in its session, also when several share
its millisecond: the last inserted of them, on both backends. (SQLite took the first inserted,
so what a step was found by depended on how fast the machine wrote, and the backends differed.)"""

from __future__ import annotations

import pytest

from kindling import Kindling, NewObservation, Scope

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

HERE = Scope(session_id="s1", repo_id="/r")


def _found(kd: Kindling, query: str) -> dict[str, bool]:
    """Content -> whether it matched through its context only."""
    got = kd.retrieve(query, scope=Scope(repo_id="/r"), now=10_000, max_candidates=50)
    return {c.entity.content: c.explanation.context_only for c in got.candidates}


@pytest.mark.parametrize("batch", [True, False])
def test_the_neighbour_among_steps_of_one_millisecond_is_the_last_written(
    kd: Kindling, batch: bool
) -> None:
    steps = [
        NewObservation("command", "$ make alphabuild", HERE, ts=1_000),
        NewObservation("command", "$ make betacheck", HERE, ts=1_000),
        NewObservation("message", "it passed", HERE, ts=1_000),
    ]
    if batch:
        kd.append_many(steps)
    else:
        for s in steps:
            kd.append_observation(kind=s.kind, content=s.content, scope=s.scope, ts=s.ts)
    kd.append_many(
        NewObservation("message", f"unrelated note {i}", HERE, ts=2_000 + i) for i in range(20)
    )
    beta = _found(kd, "betacheck")
    assert beta.get("it passed") is True  # found through the step just before it
    alpha = _found(kd, "alphabuild")
    assert alpha.get("$ make betacheck") is True
    assert "it passed" not in alpha


@pytest.mark.parametrize("batch", [True, False])
def test_a_step_written_late_is_the_neighbour_of_the_step_after_it(
    kd: Kindling, batch: bool
) -> None:
    """A step that reaches the store after the one that followed it (a slow background hook,
    a transcript reconciled later) becomes its context, on both backends; the step before it
    stops being that context. (SQLite kept the context a step had when it was written.)"""
    kd.append_observation(kind="command", content="$ make alphabuild", scope=HERE, ts=1_000)
    kd.append_observation(kind="message", content="it passed", scope=HERE, ts=3_000)
    late = [NewObservation("command", "$ make betacheck", HERE, ts=2_000)]
    late.append(NewObservation("message", "note elsewhere", Scope(session_id="s2"), ts=2_500))
    if batch:
        kd.append_many(late)
    else:
        for s in late:
            kd.append_observation(kind=s.kind, content=s.content, scope=s.scope, ts=s.ts)
    kd.append_many(
        NewObservation("message", f"unrelated note {i}", HERE, ts=4_000 + i) for i in range(20)
    )
    beta = _found(kd, "betacheck")
    assert beta.get("it passed") is True  # the late step is now its context
    alpha = _found(kd, "alphabuild")
    assert alpha.get("$ make betacheck") is True
    assert "it passed" not in alpha  # no longer through the step before the late one

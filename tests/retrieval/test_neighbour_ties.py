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

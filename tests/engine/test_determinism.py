"""Determinism is a law: same store state, query, scope and now give byte-identical JSON."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from kindling import Kindling, Scope

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

WORDS = ["auth", "token", "jwt", "login", "orders", "cursor", "retry", "rate", "limit", "fix"]
entries = st.lists(
    st.tuples(
        st.sampled_from(["message", "error", "command", "file_diff", "tool_call"]),
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join),
        st.sampled_from(["s1", "s2"]),
        st.integers(0, 1_000_000),
    ),
    min_size=1,
    max_size=40,
)


def _build(rows: list[tuple[str, str, str, int]], pins: list[int]) -> Kindling:
    kd = Kindling.open(":memory:", clock=lambda: 2_000_000)
    ids = []
    with kd.batch():
        for i, (kind, text, session, ts) in enumerate(rows):
            obs = kd.append_observation(
                kind=kind,  # type: ignore[arg-type]
                content=text,
                scope=Scope(session_id=session, repo_id="/r"),
                ts=ts,
                id=f"obs-{i:03d}",
            )
            ids.append(obs.id)
    for p in pins:
        kd.pin("observation", ids[p % len(ids)])
    return kd


def _without_pin_ids(text: str) -> str:
    data = json.loads(text)
    for pin in data["pins"]:
        pin["pin"]["id"] = "-"
    # pins made in the same millisecond are ordered by their (random) id
    data["pins"].sort(key=lambda p: p["pin"]["targetId"])
    return json.dumps(data)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    entries,
    st.lists(st.integers(0, 100), max_size=3),
    st.text(max_size=30) | st.sampled_from(WORDS),
    st.sampled_from([Scope(), Scope(repo_id="/r"), Scope(session_id="s1")]),
    st.one_of(st.none(), st.integers(0, 400)),
)
# Found by a random run: one session's matches held below the first page (retrieval.spread)
# used to keep their own, higher scores there.
@example(
    rows=[("error", "auth", "s1", 900_000 - i) for i in range(12)] + [("tool_call", "x", "s2", 0)],
    pins=[],
    query="AUTH",
    scope=Scope(),
    budget=None,
).via("a session's items held below the first page")
@example(
    rows=[
        ("command", "auth token", "s1", 452975),
        ("file_diff", "auth token", "s1", 599186),
        ("message", "auth token", "s2", 114265),
        ("message", "auth auth", "s1", 987076),
        ("error", "auth token", "s2", 699632),
        ("tool_call", "auth", "s2", 19699),
        ("file_diff", "auth token", "s1", 563852),
        ("file_diff", "auth", "s1", 443516),
        ("error", "auth", "s1", 184137),
        ("error", "auth token", "s1", 832989),
        ("message", "auth auth", "s1", 734323),
    ],
    pins=[],
    query="AUTH",
    scope=Scope(),
    budget=None,
).via("a weaker match of a second session on the first page")
def test_same_inputs_same_bytes(
    rows: list[tuple[str, str, str, int]],
    pins: list[int],
    query: str,
    scope: Scope,
    budget: int | None,
) -> None:
    first = _build(rows, pins)
    second = _build(list(rows), pins)
    try:
        results = [
            json.dumps(
                kd.retrieve(query, scope=scope, token_budget=budget, now=1_500_000).to_dict()
            )
            for kd in (first, second, first)
        ]
    finally:
        first.close()
        second.close()
    assert results[0] == results[2]  # the same store, asked twice
    # an identically built store differs only in generated pin ids
    assert _without_pin_ids(results[0]) == _without_pin_ids(results[1])
    data = json.loads(results[0])
    scores = [c["score"] for c in data["candidates"]]
    assert scores == sorted(scores, reverse=True)
    assert all(0.0 <= s <= 1.0 for s in scores)
    if budget is not None:
        cut = data["provenance"]["truncatedDueToTokenBudget"]
        assert cut == (
            data["provenance"]["returnedCandidates"] < data["provenance"]["totalCandidates"]
        )

"""The synthetic corpus: deterministic, exact in size, valid for the engine, streaming."""

from __future__ import annotations

import itertools
import types

import pytest

from bench.corpus import (
    MIX_CLASSES,
    QUERY_CLASSES,
    CapsuleRecord,
    CloseRecord,
    ObservationRecord,
    generate,
    parse_size,
    plan_sessions,
    queries,
)
from kindling.model import OBSERVATION_KINDS


@pytest.mark.parametrize(
    ("text", "expected"), [("10k", 10_000), ("1m", 1_000_000), ("2500", 2500), ("1.5K", 1500)]
)
def test_parse_size(text: str, expected: int) -> None:
    assert parse_size(text) == expected


def test_same_seed_same_records_other_seed_other_records() -> None:
    a = list(generate(400, seed=7))
    assert a == list(generate(400, seed=7))
    assert a != list(generate(400, seed=8))


def test_exact_size_valid_kinds_and_time_order() -> None:
    records = list(generate(1500, seed=3))
    obs = [r for r in records if isinstance(r, ObservationRecord)]
    assert len(obs) == 1500
    assert {o.kind for o in obs} <= set(OBSERVATION_KINDS)
    assert len({o.id for o in obs}) == len(obs)
    assert all(a.ts < b.ts for a, b in itertools.pairwise(obs))
    opened = sum(isinstance(r, CapsuleRecord) for r in records)
    closed = sum(isinstance(r, CloseRecord) for r in records)
    assert opened == closed == len(plan_sessions(1500, 3))


def test_generation_streams() -> None:
    stream = generate(1_000_000, seed=1)
    assert isinstance(stream, types.GeneratorType)
    head = list(itertools.islice(stream, 50))
    assert isinstance(head[0], CapsuleRecord)


def test_queries_name_real_sessions_and_cover_every_class() -> None:
    qs = queries(2000, seed=5, per_class=3)
    sessions = {p.session_id for p in plan_sessions(2000, 5)}
    assert {q.cls for q in qs} == {*QUERY_CLASSES, *MIX_CLASSES}
    assert all(q.session_id in sessions and q.text.strip() for q in qs)
    assert qs == queries(2000, seed=5, per_class=3)

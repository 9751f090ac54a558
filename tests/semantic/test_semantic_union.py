"""The union of candidates (issue 35): the question's nearest neighbours in the scope join the
lexical candidates, so an answer that shares no word with the question is found; nothing from
another scope, after ``now``, excluded or forgotten comes back; the same store, question, scope
and ``now`` give the same bytes; re-rank only (no union) stays as it was. On the tiny model the
tests write (tests/support/semantic)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kindling import Kindling, Scope
from kindling.retrieval.provider import LocalFtsProvider, ProviderRequest
from kindling.retrieval.scoring import DEFAULT_WEIGHTS
from kindling.retrieval.semantic import SEMANTIC_WEIGHT
from kindling.retrieval.union import UnionSettings
from kindling.semantic import api
from kindling.semantic.install import install_from
from kindling.semantic.models import spec_to_json
from kindling.semantic.scorer import VectorScorer, cosines, nearest
from kindling.semantic.setup import scorer_for
from tests.support.semantic import write_tiny_model

NOW = 1_767_225_600_000 + 3_600_000
SHOP = Scope(repo_id="shop")
QUESTION = "why did checkout break"


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    spec = write_tiny_model(tmp_path / "tiny-src")
    pin = tmp_path / "tiny.json"
    pin.write_text(spec_to_json(spec))
    monkeypatch.setenv("KINDLING_SEMANTIC_MODEL", str(pin))
    install_from(spec, tmp_path / "tiny-src")
    return pin


def _fill(kd: Kindling) -> dict[str, str]:
    """The answer ("typeerror in cart total") shares no word with the question; the lexical
    index finds only the line about the weather (``checkout``)."""
    add = kd.append_observation
    return {
        "answer": add(
            kind="error", content="typeerror in cart total", scope=SHOP, ts=NOW - 9000
        ).id,
        "noise": add(
            kind="message", content="checkout weather is nice", scope=SHOP, ts=NOW - 8000
        ).id,
        "other": add(
            kind="error",
            content="typeerror in cart total",
            scope=Scope(repo_id="blog"),
            ts=NOW - 7000,
        ).id,
        "later": add(kind="error", content="cart total typeerror", scope=SHOP, ts=NOW + 60_000).id,
        "login": add(kind="message", content="login page token", scope=SHOP, ts=NOW - 6000).id,
    }


@pytest.fixture
def store(tiny: Path, db_path: Path) -> tuple[Path, dict[str, str]]:
    with Kindling.open(db_path) as kd:
        ids = _fill(kd)
        api.index(kd.store)
    return db_path, ids


def _engine(kd: Kindling, union: UnionSettings | None) -> Kindling:
    scorer = scorer_for(kd.store, "on")
    provider = LocalFtsProvider(kd.store, DEFAULT_WEIGHTS, semantic=scorer, union=union)
    return Kindling(kd.store, provider=provider, clock=kd.clock)


def _ids(kd: Kindling, **kwargs: Any) -> list[str]:
    result = kd.retrieve(QUESTION, scope=SHOP, now=NOW, **kwargs)
    return [c.entity.id for c in result.candidates]


def test_union_finds_an_answer_without_a_shared_word(store: tuple[Path, dict[str, str]]) -> None:
    db, ids = store
    with Kindling.open(db) as kd:
        rerank = _engine(kd, None)
        assert ids["answer"] not in _ids(rerank)  # a re-rank cannot find it
        union = _engine(kd, UnionSettings(neighbours=2, floor=1))
        got = _ids(union)
        assert got[0] == ids["answer"]
        assert ids["other"] not in got  # another repository
        assert ids["later"] not in got  # recorded after now
        top = union.retrieve(QUESTION, scope=SHOP, now=NOW).candidates[0]
        assert top.explanation.why.startswith("close in meaning to the question")
        assert top.explanation.signals["semantic"] > 0.5
        provider = union.provider
        request = ProviderRequest(QUESTION, SHOP, now=NOW, exclude_ids=(ids["answer"],))
        assert ids["answer"] not in [h.target_id for h in provider.search(request).hits]


def test_a_neighbour_stands_in_below_a_closer_text_match(
    store: tuple[Path, dict[str, str]],
) -> None:
    db, ids = store
    with Kindling.open(db) as kd:
        union = _engine(kd, UnionSettings(neighbours=1, floor=1))
        result = union.retrieve(QUESTION, scope=SHOP, now=NOW)
        by_id = {c.entity.id: c for c in result.candidates}
        noise, answer = by_id[ids["noise"]], by_id[ids["answer"]]
        # the answer takes the lexical top's score without its semantic factor, times its own
        w = SEMANTIC_WEIGHT
        base = noise.score / (1 - w + w * noise.explanation.signals["semantic"])
        expected = base * (1 - w + w * answer.explanation.signals["semantic"])
        assert answer.score == pytest.approx(expected, abs=2e-6)
        assert len(result.candidates) == 2  # one neighbour only


def test_same_inputs_same_bytes(store: tuple[Path, dict[str, str]]) -> None:
    db, _ = store

    def dump(kd: Kindling) -> str:
        result = kd.retrieve(QUESTION, scope=SHOP, now=NOW)
        return json.dumps(result.to_dict(), sort_keys=True)

    with Kindling.open(db) as kd:
        first = dump(_engine(kd, UnionSettings()))
        assert dump(_engine(kd, UnionSettings())) == first
    with Kindling.open(db) as again:  # a fresh model load
        assert dump(_engine(again, UnionSettings())) == first


def test_forgotten_rows_never_come_back(store: tuple[Path, dict[str, str]]) -> None:
    db, ids = store
    with Kindling.open(db) as kd:
        kd.forget(ids["answer"])
        assert ids["answer"] not in _ids(_engine(kd, UnionSettings(neighbours=5)))


def test_rerank_only_adds_nothing(store: tuple[Path, dict[str, str]]) -> None:
    db, ids = store
    with Kindling.open(db, semantic="on") as kd:  # the shipped default: re-rank only
        shipped = _ids(kd)
        assert shipped == _ids(_engine(kd, None))
        assert ids["answer"] not in shipped
        united = _ids(_engine(kd, UnionSettings()))
        assert united[0] == ids["answer"]
        assert set(shipped) <= set(united)


def test_nearest_is_exact_and_ordered(store: tuple[Path, dict[str, str]]) -> None:
    db, _ = store
    with Kindling.open(db) as kd:
        scorer = scorer_for(kd.store, "on")
        assert isinstance(scorer, VectorScorer)
        rows = scorer.store.scope_vectors(scorer.model, Scope())
        q = scorer.query_vector(QUESTION)
        ranked = nearest(q, [r.vector for r in rows], len(rows))
        exact = cosines(q, {("observation", r.id): r.vector for r in rows})
        for i, cos in ranked:
            assert cos == pytest.approx(exact[("observation", rows[i].id)], abs=1e-12)
        assert [c for _, c in ranked] == sorted((c for _, c in ranked), reverse=True)
        assert nearest(q, [], 3) == []


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        UnionSettings(neighbours=0)
    with pytest.raises(ValueError, match="at least 1"):
        UnionSettings(floor=0)


def test_kept_scopes_answer_as_a_fresh_read(store: tuple[Path, dict[str, str]]) -> None:
    db, ids = store
    with Kindling.open(db) as kd:
        scorer = scorer_for(kd.store, "on")
        assert isinstance(scorer, VectorScorer)
        first = scorer.neighbours(QUESTION, SHOP, limit=10, until=NOW, exclude_ids=())
        assert first == scorer.neighbours(QUESTION, SHOP, limit=10, until=NOW, exclude_ids=())
        assert first[0][1] == ids["answer"]
        assert ids["later"] not in [n[1] for n in first]
        rows = scorer.store.scope_vectors(scorer.model, SHOP, until=NOW)
        ranked = nearest(scorer.query_vector(QUESTION), [r.vector for r in rows], 10)
        assert [(rows[i].id, c) for i, c in ranked] == [(n[1], n[3]) for n in first]
        kd.forget(ids["answer"])  # a write: the kept scope is read again
        after = scorer.neighbours(QUESTION, SHOP, limit=10, until=NOW, exclude_ids=())
        assert ids["answer"] not in [n[1] for n in after]
        skip = scorer.neighbours(QUESTION, SHOP, limit=1, until=NOW, exclude_ids=[after[0][1]])
        assert skip[0][1] == after[1][1]

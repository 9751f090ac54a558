"""The vectors of the semantic signal in both stores: stored per row and model, listed newest
first for the indexer, counted for ``kindling status``, and gone with the text they came from
(forget, a summary rewritten, a row deleted), by the schema itself."""

from __future__ import annotations

from typing import Any

import pytest

from kindling import Kindling, Scope
from kindling.semantic import codec
from kindling.store.vectors import VectorRow, VectorStore

pytestmark = pytest.mark.contract
MODEL = "m@1"


def vectors(kd: Kindling) -> Any:
    store = kd.store.inner if hasattr(kd.store, "inner") else kd.store
    assert isinstance(store, VectorStore)
    return store


def vec(*values: float) -> bytes:
    return codec.encode(list(values))


def test_vectors_round_trip_and_coverage(kd: Kindling) -> None:
    a = kd.append_observation(kind="message", content="alpha", scope=Scope(repo_id="r"))
    b = kd.append_observation(kind="message", content="beta", scope=Scope(repo_id="r"))
    store = vectors(kd)
    assert store.vector_coverage(MODEL).embedded == 0
    stored = store.put_vectors(MODEL, [VectorRow("observation", a.id, vec(1, 0))])
    assert stored == 1
    assert store.vectors_of(MODEL, "observation", [a.id, b.id]) == {a.id: vec(1, 0)}
    assert store.vectors_of("other@2", "observation", [a.id]) == {}
    cover = store.vector_coverage(MODEL)
    assert (cover.observations, cover.observations_embedded) == (2, 1)
    assert store.vector_models() == {MODEL: 1}
    # another model's vector replaces it (one vector a row)
    store.put_vectors("other@2", [VectorRow("observation", a.id, vec(0, 1))])
    assert store.vector_models() == {"other@2": 1}


def test_unembedded_is_newest_first_and_resumes(kd: Kindling, clock: Any) -> None:
    ids = []
    for n in range(5):
        clock.advance(1000)
        ids.append(kd.append_observation(kind="message", content=f"row {n}").id)
    store = vectors(kd)
    first = store.unembedded(MODEL, "observation", limit=2)
    assert [r.id for r in first] == [ids[4], ids[3]]
    after = store.unembedded(MODEL, "observation", limit=10, before=(first[-1].ts, first[-1].id))
    assert [r.id for r in after] == [ids[2], ids[1], ids[0]]
    store.put_vectors(MODEL, [VectorRow("observation", ids[4], vec(1, 1))])
    assert [r.id for r in store.unembedded(MODEL, "observation", limit=1)] == [ids[3]]


def test_forget_removes_the_vector(kd: Kindling) -> None:
    secret = kd.append_observation(kind="message", content="the vault word is zanzibar")
    kept = kd.append_observation(kind="message", content="something else")
    store = vectors(kd)
    store.put_vectors(
        MODEL,
        [
            VectorRow("observation", secret.id, vec(1, 2)),
            VectorRow("observation", kept.id, vec(2, 1)),
        ],
    )
    kd.forget(secret.id)
    assert store.vectors_of(MODEL, "observation", [secret.id, kept.id]) == {kept.id: vec(2, 1)}
    # a forgotten row is never listed, and a vector written after the forget is refused
    assert secret.id not in [r.id for r in store.unembedded(MODEL, "observation", limit=10)]
    assert store.put_vectors(MODEL, [VectorRow("observation", secret.id, vec(1, 2))]) == 0
    assert store.vectors_of(MODEL, "observation", [secret.id]) == {}
    assert store.vector_coverage(MODEL).observations == 1


def test_summary_vector_goes_with_its_text(kd: Kindling) -> None:
    cap = kd.open_capsule(intent="fix checkout", scope=Scope(session_id="s1"))
    kd.append_observation(kind="message", content="working", capsule_id=cap.id)
    kd.close_capsule(cap.id, summary="checkout fixed by rounding totals")
    summary = kd.store.summary_for_capsule(cap.id)
    assert summary is not None
    store = vectors(kd)
    assert [r.id for r in store.unembedded(MODEL, "summary", limit=5)] == [summary.id]
    store.put_vectors(MODEL, [VectorRow("summary", summary.id, vec(3, 1))])
    assert store.vectors_of(MODEL, "summary", [summary.id]) == {summary.id: vec(3, 1)}
    kd.forget(summary.id)
    assert store.vectors_of(MODEL, "summary", [summary.id]) == {}
    assert store.unembedded(MODEL, "summary", limit=5) == []

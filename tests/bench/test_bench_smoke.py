"""CI smoke of the latency harness end to end at 10k observations: shape only, never timings."""

from __future__ import annotations

import json
from pathlib import Path

from bench.__main__ import main
from bench.latency import CONFIGS


def test_harness_writes_well_formed_report(tmp_path: Path) -> None:
    out, data = tmp_path / "out", tmp_path / "data"
    argv = ["--sizes", "10k", "--out", str(out), "--data", str(data), "--repeats", "1"]
    argv += ["--per-class", "2", "--capture-n", "200", "--no-cli"]
    assert main(argv) == 0
    report = json.loads((out / "bench.json").read_text())
    (size,) = report["sizes"]
    assert size["size"] == 10_000
    assert size["store"]["observations"] == 10_000
    assert size["bytesPerObservation"] > 0
    assert set(size["retrieval"]) == {c.name for c in CONFIGS}
    for m in size["retrieval"].values():
        for side in ("retrieve", "bareFts"):
            assert m[side]["n"] == m["queries"] * m["repeats"] > 0
            assert 0 <= m[side]["p50"] <= m[side]["p95"] <= m[side]["p99"]
    assert size["capture"]["appendMany"]["obsPerSecond"] > 0
    assert size["capture"]["batched"]["obsPerSecond"] > 0
    assert size["capture"]["perObservation"]["obsPerSecond"] > 0
    assert "skipped" in size["cli"]
    assert "| 10000 | nl_repo |" in (out / "bench.md").read_text()
    # a second run reuses the cached store instead of building it again
    assert main(argv) == 0
    assert json.loads((out / "bench.json").read_text())["sizes"][0]["store"]["cached"] is True


def test_the_free_question_harness_scores_every_retriever_on_both_parts() -> None:
    """The frozen set is the one its README names, and the harness runs on a sample of it:
    every retriever, both parts, each measure in [0, 1]; no judged item after ``now``."""
    import hashlib

    from bench.quality.free.data import QUESTIONS, load_questions, load_store
    from bench.quality.free.harness import MEASURES, questions, run

    readme = (QUESTIONS.parent.parent / "README.md").read_text(encoding="utf-8")
    assert hashlib.sha256(QUESTIONS.read_bytes()).hexdigest() in readme
    rows = load_questions()
    assert len(rows) >= 200
    sample = [r for i, r in enumerate(rows) if i % 25 == 0]
    result = run(sample)
    assert set(result["retrievers"]) == {"kindling", "fts", "bm25"}
    for summary in result["retrievers"].values():
        for part in ("tune", "heldout"):
            assert summary[part]["n"] > 0
            assert all(0.0 <= summary[part]["overall"][m] <= 1.0 for m in MEASURES)
    store = load_store()
    when = {o["id"]: o["ts"] for o in store.observations}
    for q in questions(store, sample):
        assert all(when.get(i, 0) <= q.judged.now for i in q.judged.qrels)


def test_the_fusion_study_rankers_are_exact_on_a_small_case() -> None:
    """The study's ways of joining the two lists (``bench.quality.free.fusion``) on one
    question: all lexical share gives the lexical order, all cosine share the cosine order over
    the pool, RRF adds both sides, and an item found only by meaning joins the pool."""
    from bench.quality.free import fusion

    e = {
        "relevance": 0.5,
        "lexical": [("a", 2.0), ("b", 1.0), ("c", 0.6)],
        "lexicalCos": {"a": 0.1, "b": 0.2, "c": 0.9},
        "dense": [("d", 0.95), ("c", 0.9)],
    }
    assert fusion.convex(1.0, 0)(e) == ["a", "b", "c"]
    assert fusion.convex(0.0, 1)(e) == ["d", "c", "b", "a"]
    assert fusion.mult(0.6)(e) == ["a", "c", "b"]  # 2 * 0.46, 0.6 * 0.94, 1 * 0.52
    assert fusion.rrf(10, 1.0, 2)(e) == ["c", "a", "d", "b"]  # 1/13 + 1/12, 1/11 (id), 1/12
    # min-max on each side over the pool a, b, c, d: a 0.5 + 0, d 0 + 0.5 (tie: id), c 0 + 0.47
    assert fusion.relative(0.5, 1)(e) == ["a", "d", "c", "b"]
    assert fusion.adaptive(1.0, 1.0, 10)(e) == [*fusion.lexical(e), "d"]  # d: 0 on both sides
    assert fusion.oracle(e) == ["a", "b", "c", "d", "c"]

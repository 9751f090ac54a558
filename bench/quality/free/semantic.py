"""``python -m bench.quality.free.semantic [--set free|molweni]``: the semantic signal on the
free-question set (or the Molweni conversation set, ``bench/quality/molweni``), in one harness
and one run on one store: lexical ``retrieve()`` (v4), the bare FTS5 query, the
semantic re-rank and the union of lexical candidates and nearest neighbours, at several
settings.

Each setting is ``retrieve()`` itself (the product's provider, opened on the same store with
that setting), never a simulation. The setting of each way (re-rank, union) is chosen on the
tuning part only (the largest R@10 there; ties: the first listed), then both are reported on
the held-out part beside lexical and bare FTS5, overall and by kind, with the paraphrased kinds
(fix, root-cause, dead-end) pooled.

Vectors are cached by text (``--cache``, ``bench.quality.semantic.CachedEncoder``), so a second
run embeds nothing; the model is a pinned one, installed from ``--model-dir`` when it is not
installed yet (every file's hash checked).

Must import Kindling's public API, ``kindling.semantic`` and the bench's own modules only.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bench.quality.evaluate import build_store
from bench.quality.free.data import PARTS, load_questions, load_store
from bench.quality.free.harness import (
    Bm25,
    Ranker,
    TimedFts,
    kindling_ranker,
    open_store,
    questions,
    score,
    summarise,
    table,
)
from bench.quality.molweni import data as molweni
from bench.quality.semantic import embed_store, open_encoder
from kindling import Kindling
from kindling.retrieval.provider import LocalFtsProvider
from kindling.retrieval.scoring import DEFAULT_WEIGHTS
from kindling.retrieval.union import UnionSettings
from kindling.semantic import threads
from kindling.semantic.scorer import VectorScorer

PARAPHRASED = ("fix", "root-cause", "dead-end")
RERANK_WEIGHTS = (0.3, 0.6)
UNION_GRID = [
    *((UnionSettings(neighbours=10, floor=f), w) for w in (0.3, 0.6) for f in (3, 10, 30)),
    (UnionSettings(neighbours=20, floor=10), 0.3),
]


def rankers(
    kd: Kindling,
    scorer: VectorScorer,
    weights: tuple[float, ...] = RERANK_WEIGHTS,
    grid: list[tuple[UnionSettings, float]] = UNION_GRID,
) -> dict[str, Ranker]:
    out: dict[str, Ranker] = {}
    for w in weights:
        provider = LocalFtsProvider(kd.store, DEFAULT_WEIGHTS, semantic=scorer, semantic_weight=w)
        out[f"rerank w={w}"] = kindling_ranker(Kindling(kd.store, provider=provider))
    for u, w in grid:
        provider = LocalFtsProvider(
            kd.store, DEFAULT_WEIGHTS, semantic=scorer, semantic_weight=w, union=u
        )
        out[f"union k={u.neighbours} w={w} floor={u.floor}"] = kindling_ranker(
            Kindling(kd.store, provider=provider)
        )
    return out


def pooled(qs: list[Any], result: dict[str, Any], part: str) -> dict[str, float]:
    rows = [result["scores"][q.judged.id] for q in qs if q.part == part and q.kind in PARAPHRASED]
    n = max(1, len(rows))
    return {"n": len(rows), "R@10": round(sum(r["R@10"] for r in rows) / n, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.quality.free.semantic")
    parser.add_argument("--model", default="all-MiniLM-L6-v2")
    parser.add_argument("--model-dir", type=Path, help="install the model from here first")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/kindling-semantic-cache.db"))
    parser.add_argument("--embed-only", action="store_true", help="fill the cache, then stop")
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument("--set", choices=("free", "molweni"), default="free")
    parser.add_argument("--rerank", type=float, action="append", help="only these weights")
    parser.add_argument(
        "--union", action="append", metavar="K,FLOOR,W", help="only these union settings"
    )
    args = parser.parse_args(argv)
    encoder = open_encoder(args.model, args.model_dir, args.cache)
    if encoder is None:
        return 2
    start = time.perf_counter()
    if args.set == "free":
        store = load_store()
        qs = questions(store, load_questions())
    else:
        qs = molweni.questions()
    out: dict[str, Any] = {"model": encoder.model, "questions": len(qs), "retrievers": {}}
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        path = Path(tmp) / "set.db"
        if args.set == "free":
            kd, names = open_store(path, store)
        else:
            kd, names = build_store(path, molweni.records())
        stack.callback(kd.close)
        vectors, seconds = embed_store(kd, encoder)
        out["embedSeconds"] = round(seconds, 1)
        print(f"embedded in {seconds:.0f} s ({encoder.embedded} new)", file=sys.stderr)
        if args.embed_only:
            return 0
        with threads.blas_threads(1):  # several BLAS threads on a busy machine stall each other
            for q in qs:  # the questions' vectors too: no setting pays for the first embedding
                encoder.encode([q.judged.text])
        scorer = VectorScorer(vectors, lambda: encoder, encoder.model, question_threads=lambda: 1)
        plain = TimedFts(path)
        stack.callback(plain.close)
        every: dict[str, Ranker] = {"lexical": kindling_ranker(kd), "fts": plain.rank_at}
        if args.set == "free":
            every["bm25"] = Bm25(store).rank
        weights = tuple(args.rerank) if args.rerank else RERANK_WEIGHTS
        grid = UNION_GRID
        if args.union:
            grid = [
                (UnionSettings(neighbours=int(k), floor=int(f)), float(w))
                for k, f, w in (u.split(",") for u in args.union)
            ]
        every.update(rankers(kd, scorer, weights, grid))
        detail: dict[str, Any] = {}
        for name, ranker in every.items():
            began = time.perf_counter()
            detail[name] = score(qs, ranker, names)
            out["retrievers"][name] = summarise(qs, detail[name])
            for part in PARTS:
                out["retrievers"][name][part]["paraphrased"] = pooled(qs, detail[name], part)
            tune = out["retrievers"][name]["tune"]["overall"]["R@10"]
            held = out["retrievers"][name]["heldout"]["overall"]["R@10"]
            took = time.perf_counter() - began
            print(f"{name}: tune {tune:.3f} held-out {held:.3f} ({took:.0f} s)", file=sys.stderr)
    out["chosen"] = choose(out["retrievers"])
    out["seconds"] = round(time.perf_counter() - start, 1)
    report = {
        "model": out["model"],
        "chosen": out["chosen"],
        "retrievers": {
            n: out["retrievers"][n]
            for n in ("lexical", "fts", "bm25", *out["chosen"].values())
            if n in out["retrievers"]
        },
    }
    if args.json:
        args.json.write_text(json.dumps(out, indent=1, sort_keys=True))
    for part in ("heldout", "tune"):
        print(table(report, part))
        if args.set == "free":
            print(paraphrased_line(report, part))
        print()
    if args.json:
        args.json.write_text(json.dumps(out, indent=1, sort_keys=True))
    return 0


def choose(retrievers: dict[str, Any]) -> dict[str, str]:
    """The best setting of each way on the tuning part's R@10 (ties: the first listed)."""
    chosen = {}
    for way in ("rerank", "union"):
        names = [n for n in retrievers if n.startswith(way)]
        chosen[way] = max(names, key=lambda n: retrievers[n]["tune"]["overall"]["R@10"])
    return chosen


def paraphrased_line(report: dict[str, Any], part: str) -> str:
    cells = [
        f"{n} {r[part]['paraphrased']['R@10']:.3f}"
        for n, r in report["retrievers"].items()
        if "paraphrased" in r[part]
    ]
    n = next(iter(report["retrievers"].values()))[part]["paraphrased"]["n"]
    return f"paraphrased kinds ({', '.join(PARAPHRASED)}; {n}) R@10: " + ", ".join(cells)


if __name__ == "__main__":
    raise SystemExit(main())

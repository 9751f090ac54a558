"""``python -m bench.quality.free.fusion [--set free|molweni]``: a study (no product change). How
should the semantic signal join lexical retrieval, and how far could any way of joining them go?

For every question, once: ``retrieve()``'s lexical list (``POOL`` candidates, with their scores)
and the cosine of the question with every item of its scope recorded by ``now`` (the product's
int8 vectors, exact). Then, offline and in the same harness, Recall@10 of:

- ``lexical``: ``retrieve()`` as shipped, lexically;
- ``dense``: the scope's items by cosine alone (the best ``DENSE``);
- ``mult w``: the shipped re-rank, ``score * (1 - w + w * cos)`` over the lexical list;
- ``rrf k b m``: reciprocal rank fusion of the lexical order and the cosine order (the top ``m``
  of the scope), ``1 / (k + lexical rank) + b / (k + cosine rank)``;
- ``convex a m``: ``a * score / best score + (1 - a) * cosine``, over the lexical list and the
  top ``m`` by cosine (an item the lexical index did not find scores 0 on its side);
- ``relative a m``: the same mix with each side min-max scaled over the pool (relative score
  fusion);
- ``adaptive lo hi``: ``convex`` whose lexical share ``a`` grows from ``lo`` to ``hi`` with the
  lexical list's best calibrated relevance (trust the words when they match well);
- ``oracle``: how many answers are within reach at all: in the first 10 of the lexical list or of
  the dense one (an upper bound for any fusion that keeps ten of each).

Settings are chosen on the tuning part only (largest R@10; ties: the first listed), then reported
held out beside lexical and the bare baseline, overall and by kind.

Must import Kindling's public API, ``kindling.semantic`` and the bench's own modules only.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bench.quality.dataset import JudgedQuery
from bench.quality.evaluate import build_store
from bench.quality.free.data import PARTS, load_questions, load_store
from bench.quality.free.harness import Question, open_store, questions, score, summarise
from bench.quality.free.semantic import pooled
from bench.quality.molweni import data as molweni
from bench.quality.semantic import embed_store, open_encoder
from kindling import Scope
from kindling.semantic.scorer import VectorScorer

POOL = 80
DENSE = 200
# One question's evidence: lexical (id, score) in order, and (id, cosine) of the scope, best first.
Evidence = dict[str, Any]
Ranking = Callable[[Evidence], list[str]]


def gather(
    set_name: str, model: str, model_dir: Path | None, cache: Path
) -> tuple[list[Question], dict[str, Any]]:
    """Every question's evidence, and the store's id -> judged id names."""
    encoder = open_encoder(model, model_dir, cache)
    assert encoder is not None
    if set_name == "free":
        store = load_store()
        qs = questions(store, load_questions())
    else:
        qs = molweni.questions()
    evidence: dict[str, Evidence] = {}
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        path = Path(tmp) / "set.db"
        kd, names = (
            open_store(path, store) if set_name == "free" else build_store(path, molweni.records())
        )
        stack.callback(kd.close)
        vectors, _ = embed_store(kd, encoder)
        scorer = VectorScorer(vectors, lambda: encoder, encoder.model, question_threads=lambda: 1)
        for q in qs:
            j = q.judged
            scope = Scope(repo_id=j.repo_id)
            got = kd.retrieve(j.text, scope=scope, max_candidates=POOL, now=j.now)
            lexical = [(c.entity.id, c.score) for c in got.candidates]
            near = scorer.neighbours(j.text, scope, limit=DENSE, until=j.now, exclude_ids=())
            keys = [(c.target_type, c.entity.id) for c in got.candidates]
            cos = scorer.similarities(j.text, keys)
            evidence[j.id] = {
                "relevance": max((c.explanation.relevance for c in got.candidates), default=0.0),
                "lexical": lexical,
                "lexicalCos": {k[1]: v for k, v in cos.items()},
                "dense": [(n[1], n[3]) for n in near],
            }
    return qs, {"evidence": evidence, "names": names}


def lexical(e: Evidence) -> list[str]:
    return [i for i, _ in e["lexical"]]


def dense(e: Evidence) -> list[str]:
    return [i for i, _ in e["dense"]]


def mult(w: float) -> Ranking:
    def rank(e: Evidence) -> list[str]:
        cos = e["lexicalCos"]
        scored = [(-s * (1 - w + w * max(0.0, cos.get(i, 0.0))), n, i)
                  for n, (i, s) in enumerate(e["lexical"])]  # fmt: skip
        return [i for *_, i in sorted(scored)]

    return rank


def _cosines(e: Evidence) -> dict[str, float]:
    out = dict(e["dense"])
    out.update(e["lexicalCos"])
    return out


def rrf(k: float, b: float, m: int) -> Ranking:
    def rank(e: Evidence) -> list[str]:
        total: dict[str, float] = {}
        for r, (i, _) in enumerate(e["lexical"]):
            total[i] = 1 / (k + r + 1)
        for r, (i, _) in enumerate(e["dense"][:m]):
            total[i] = total.get(i, 0.0) + b / (k + r + 1)
        return [i for i, _ in sorted(total.items(), key=lambda kv: (-kv[1], kv[0]))]

    return rank


def adaptive(lo: float, hi: float, m: int) -> Ranking:
    """``convex`` whose lexical share grows with the lexical list's best relevance."""

    def rank(e: Evidence) -> list[str]:
        return convex(lo + (hi - lo) * e["relevance"], m)(e)

    return rank


def convex(a: float, m: int) -> Ranking:
    def rank(e: Evidence) -> list[str]:
        cos = _cosines(e)
        best = max((s for _, s in e["lexical"]), default=1.0) or 1.0
        lex = {i: s / best for i, s in e["lexical"]}
        pool = list(lex) + [i for i, _ in e["dense"][:m] if i not in lex]
        scored = {i: a * lex.get(i, 0.0) + (1 - a) * max(0.0, cos.get(i, 0.0)) for i in pool}
        return [i for i, _ in sorted(scored.items(), key=lambda kv: (-kv[1], kv[0]))]

    return rank


def relative(a: float, m: int) -> Ranking:
    """Relative score fusion: each side min-max scaled over the pool, then mixed."""

    def rank(e: Evidence) -> list[str]:
        cos = _cosines(e)
        lex = dict(e["lexical"])
        pool = list(lex) + [i for i, _ in e["dense"][:m] if i not in lex]
        lo, hi = min(lex.values(), default=0.0), max(lex.values(), default=1.0)
        c = [cos.get(i, 0.0) for i in pool]
        clo, chi = min(c, default=0.0), max(c, default=1.0)

        def scaled(v: float, low: float, high: float) -> float:
            return (v - low) / (high - low) if high > low else 1.0

        scored = {
            i: a * (scaled(lex[i], lo, hi) if i in lex else 0.0)
            + (1 - a) * scaled(cos.get(i, 0.0), clo, chi)
            for i in pool
        }
        return [i for i, _ in sorted(scored.items(), key=lambda kv: (-kv[1], kv[0]))]

    return rank


def oracle(e: Evidence) -> list[str]:
    return lexical(e)[:10] + dense(e)[:10]


def grid() -> dict[str, Ranking]:
    out: dict[str, Ranking] = {"lexical": lexical, "dense": dense}
    for w in (0.3, 0.6, 0.8):
        out[f"mult {w}"] = mult(w)
    for k in (10, 60):
        for b in (0.25, 0.5, 1.0):
            for m in (10, 30):
                out[f"rrf {k} {b} {m}"] = rrf(k, b, m)
    for a in (0.3, 0.4, 0.5, 0.6, 0.7):
        for m in (0, 10, 30):
            out[f"convex {a} {m}"] = convex(a, m)
            out[f"relative {a} {m}"] = relative(a, m)
    for lo in (0.2, 0.35, 0.5):
        for hi in (0.6, 0.75, 0.9):
            out[f"adaptive {lo} {hi}"] = adaptive(lo, hi, 10)
    return out


def _ranker(ranking: Ranking, evidence: dict[str, Evidence]) -> Callable[[JudgedQuery], list[str]]:
    return lambda j: ranking(evidence[j.id])[:50]


def evaluate(qs: list[Question], data: dict[str, Any]) -> dict[str, Any]:
    evidence, names = data["evidence"], data["names"]
    out: dict[str, Any] = {}
    for name, ranking in grid().items():
        result = score(qs, _ranker(ranking, evidence), names)
        out[name] = summarise(qs, result)
        for part in PARTS:
            out[name][part]["paraphrased"] = pooled(qs, result, part)
    for part in PARTS:
        mine = [q for q in qs if q.part == part]
        total = 0.0
        for q in mine:
            reach = {names.get(i, i) for i in oracle(evidence[q.judged.id])}
            rel = {d for d, g in q.judged.qrels.items() if g > 0}
            total += len(rel & reach) / max(1, len(rel))
        out.setdefault("oracle", {})[part] = round(total / max(1, len(mine)), 3)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.quality.free.fusion")
    parser.add_argument("--set", choices=("free", "molweni"), default="free")
    parser.add_argument("--model", default="all-MiniLM-L6-v2")
    parser.add_argument("--model-dir", type=Path)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/kindling-semantic-cache.db"))
    parser.add_argument("--table", type=Path, help="write every figure here")
    parser.add_argument("--evidence", type=Path, help="read (or write) the gathered evidence")
    args = parser.parse_args(argv)
    if args.evidence and args.evidence.exists():
        data = json.loads(args.evidence.read_text())
        qs = (
            questions(load_store(), load_questions()) if args.set == "free" else molweni.questions()
        )
    else:
        qs, data = gather(args.set, args.model, args.model_dir, args.cache)
        if args.evidence:
            args.evidence.write_text(json.dumps(data))
    out = evaluate(qs, data)
    rows = [(n, r) for n, r in out.items() if n != "oracle"]
    best = max((n for n, _ in rows if n not in ("lexical", "dense")),
               key=lambda n: out[n]["tune"]["overall"]["R@10"])  # fmt: skip
    print(f"chosen on tune: {best}")
    if args.table:
        args.table.write_text(json.dumps(out))
    for name, r in rows:
        cells = []
        for part in ("tune", "heldout"):
            o = r[part]["overall"]["R@10"]
            p = r[part]["paraphrased"]["R@10"]
            kinds = " ".join(f"{k}:{v['R@10']:.2f}" for k, v in sorted(r[part]["byKind"].items()))
            cells.append(f"{part} {o:.3f} para {p:.3f} [{kinds}]")
        print(f"{name:18} " + " | ".join(cells))
    print("in reach (lexical 10 + dense 10):", out["oracle"])
    return 0


if __name__ == "__main__":
    sys.exit(main())

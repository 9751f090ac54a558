"""``python -m bench.quality.semantic_union``: a study (no product change). Does a union of the
lexical candidates with a per-scope nearest-neighbour set beat the semantic re-rank?

For every question of a set, in one run:

- ``off``: Kindling's lexical ranking (``retrieve()``, 50 candidates, tiers as the set uses);
- ``product w=0.3``: the shipped re-rank (the provider's ``semantic`` multiplier, weight 0.3);
- ``rerank-mult w``: the same multiplier applied here to the delivered lexical list, ``score *
  (1 - w + w * cos)`` (a check that this harness reproduces the product);
- ``rerank-rrf k0 a``: reciprocal rank fusion of the lexical order and the cosine order of the
  same candidates, ``a / (k0 + lexical rank) + (1 - a) / (k0 + cosine rank)``;
- ``union{k}-rrf k0 a``: the lexical candidates plus the ``k`` items of the question's scope
  (its repository, and its session when it has one; the same exact filter as ``retrieve()``)
  with the highest cosine, fused by RRF; the cosine rank is the item's rank in the whole scope,
  and an item the lexical index did not find adds nothing on the lexical side;
- ``union{k}-mult w floor``: the multiplier over the union, where an item the lexical index did
  not find gets, as its lexical score, the score of the lexical candidate at rank ``floor``
  (10, or the last one) and then its own semantic factor.

Pins and the current summary stay first (the tiers), as in ``retrieve()``. Cosines are the
product's: int8 vectors stored by the indexer, exact integer dot products. Which variant wins
is chosen on the tuning sets only (``hand-late`` and the coding ``tune`` split: the largest mean
gain in Recall@10 over ``off``); it is then reported on the held-out sets (``buried`` and the
coding ``heldout`` split), beside every other variant's held-out figure for the record.

Must import Kindling's public API, ``kindling.semantic`` and ``bench.quality`` only (plus
sqlite3, to read every vector of a scope).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from bench.quality.dataset import JudgedQuery
from bench.quality.evaluate import Report, evaluate
from bench.quality.semantic import (
    SETS,
    CachedEncoder,
    _r10,
    _up_down,
    embed_store,
    load_sets,
    open_encoder,
)
from kindling import Kindling, Scope
from kindling.retrieval.provider import LocalFtsProvider
from kindling.retrieval.scoring import DEFAULT_WEIGHTS
from kindling.semantic.models import model_spec
from kindling.semantic.scorer import VectorScorer

CANDIDATES = 50
TUNING = ("hand-late (tune)", "coding tune (tune)")
HELD_OUT = ("buried (held out)", "coding heldout (held out)")
Key = tuple[str, str]  # (target type, id)


@dataclass(frozen=True, slots=True)
class Scoped:
    """Every stored vector of one set, with its scope (what a per-scope scan would read)."""

    keys: list[Key]
    repo: list[str | None]
    session: list[str | None]
    matrix: Any  # int64 [n, dim]
    norms: Any  # int64 [n]


def read_vectors(path: Path, model: str) -> Scoped:
    import numpy as np

    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = con.execute(
        "SELECT 'observation', o.id, o.repo_id, o.session_id, v.vector FROM observations o"
        " JOIN observation_vectors v ON v.observation_id = o.id"
        " WHERE v.model = ? AND o.redacted = 0"
        " UNION ALL SELECT 'summary', s.id, c.repo_id, c.session_id, v.vector FROM summaries s"
        " JOIN capsules c ON c.id = s.capsule_id JOIN summary_vectors v ON v.summary_id = s.id"
        " WHERE v.model = ? ORDER BY 1, 2",
        (model, model),
    ).fetchall()
    con.close()
    matrix = np.frombuffer(b"".join(r[4] for r in rows), dtype=np.int8)
    matrix = matrix.reshape(len(rows), -1).astype(np.int64)
    return Scoped(
        [(r[0], r[1]) for r in rows],
        [r[2] for r in rows],
        [r[3] for r in rows],
        matrix,
        (matrix * matrix).sum(axis=1),
    )


def scope_cosines(index: Scoped, query: bytes, q: JudgedQuery) -> dict[Key, float]:
    """Cosine of the question and every item in its scope (exact, as ``scorer.cosines``)."""
    import numpy as np

    qv = np.frombuffer(query, dtype=np.int8).astype(np.int64)
    qq = int(qv @ qv)
    keep = [
        i
        for i in range(len(index.keys))
        if (q.repo_id is None or index.repo[i] == q.repo_id)
        and (q.session_id is None or index.session[i] == q.session_id)
    ]
    if not keep or qq == 0:
        return {}
    dots = index.matrix[keep] @ qv
    out: dict[Key, float] = {}
    for i, d in zip(keep, dots.tolist(), strict=True):
        n = int(index.norms[i]) * qq
        out[index.keys[i]] = float(int(d)) / float(n) ** 0.5 if n else 0.0
    return out


@dataclass(frozen=True, slots=True)
class Question:
    """What every variant needs of one question: the tiers, the lexical list, the cosines."""

    tiers: list[str]
    lexical: list[tuple[Key, float]]  # delivered order, with scores
    cosines: dict[Key, float]  # every item in scope
    dense: list[Key]  # the scope's items by cosine, best first


def _clamped(c: float) -> float:
    return round(min(1.0, max(0.0, c)), 4)


def _factor(cos: dict[Key, float], key: Key, w: float, fill: float) -> float:
    value = _clamped(cos[key]) if key in cos else fill
    return 1.0 - w + w * value


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def mult(qn: Question, w: float, k: int = 0, floor: int | None = None) -> list[Key]:
    lexical = dict(qn.lexical)
    pool = list(lexical)
    if k:
        pool += [key for key in qn.dense[:k] if key not in lexical]
    fill = _median([_clamped(qn.cosines[key]) for key in lexical if key in qn.cosines])
    base = 0.0
    if qn.lexical:
        at = len(qn.lexical) if floor is None else min(floor, len(qn.lexical))
        base = qn.lexical[at - 1][1]
    scored = [(lexical.get(key, base) * _factor(qn.cosines, key, w, fill), key) for key in pool]
    return [key for _, key in sorted(scored, key=lambda s: (-round(s[0], 6), s[1]))]


def rrf(qn: Question, k0: int, a: float, k: int = 0) -> list[Key]:
    lex_rank = {key: n for n, (key, _) in enumerate(qn.lexical, 1)}
    pool = list(lex_rank)
    if k:
        pool += [key for key in qn.dense[:k] if key not in lex_rank]
        dense_rank = {key: n for n, key in enumerate(qn.dense, 1)}
    else:  # the cosine order of the lexical candidates alone
        ordered = sorted((key for key in pool if key in qn.cosines),
                         key=lambda key: (-qn.cosines[key], key))  # fmt: skip
        dense_rank = {key: n for n, key in enumerate(ordered, 1)}

    def fused(key: Key) -> float:
        value = a / (k0 + lex_rank[key]) if key in lex_rank else 0.0
        if key in dense_rank:
            value += (1.0 - a) / (k0 + dense_rank[key])
        return round(value, 9)

    return sorted(pool, key=lambda key: (-fused(key), key))


def variants() -> dict[str, Callable[[Question], list[Key]]]:
    out: dict[str, Callable[[Question], list[Key]]] = {}
    for w in (0.3, 0.6):
        out[f"rerank-mult w={w}"] = partial(mult, w=w)
    for k0 in (10, 60):
        for a in (0.5, 0.7):
            out[f"rerank-rrf k0={k0} a={a}"] = partial(rrf, k0=k0, a=a)
    for k in (10, 20):
        for k0 in (10, 60):
            for a in (0.5, 0.7):
                out[f"union{k}-rrf k0={k0} a={a}"] = partial(rrf, k0=k0, a=a, k=k)
        for w in (0.3, 0.6):
            for floor in (10, None):
                name = f"union{k}-mult w={w} floor={floor or 'last'}"
                out[name] = partial(mult, w=w, k=k, floor=floor)
    return out


def study(
    kd: Kindling,
    path: Path,
    names: dict[str, str],
    qs: list[JudgedQuery],
    encoder: CachedEncoder,
    *,
    tiers: bool,
) -> dict[str, Any]:
    store, seconds = embed_store(kd, encoder)
    out: dict[str, Any] = {"questions": len(qs), "indexSeconds": round(seconds)}
    scorer = VectorScorer(store, lambda: encoder, encoder.model)
    index = read_vectors(path, encoder.model)
    prepared: dict[str, Question] = {}
    for q in qs:
        result = kd.retrieve(
            query=q.text,
            scope=Scope(repo_id=q.repo_id, session_id=q.session_id),
            now=q.now,
            max_candidates=CANDIDATES,
        )
        top = [p.target.id for p in result.pins] if tiers else []
        if tiers and result.current_summary is not None:
            top.append(result.current_summary.id)
        cos = scope_cosines(index, scorer.query_vector(q.text), q)
        prepared[q.id] = Question(
            top,
            [((c.target_type, c.entity.id), c.score) for c in result.candidates],
            cos,
            sorted(cos, key=lambda key: (-cos[key], key)),
        )

    def ranker(fuse: Callable[[Question], list[Key]]) -> Callable[[JudgedQuery], Any]:
        def rank(q: JudgedQuery) -> tuple[list[str], str | None]:
            qn = prepared[q.id]
            ids = qn.tiers + [key[1] for key in fuse(qn)]
            return list(dict.fromkeys(ids))[:CANDIDATES], None

        return rank

    off = evaluate(kd, names, qs, tiers=tiers)
    out["off"] = _r10(off)
    provider = LocalFtsProvider(kd.store, DEFAULT_WEIGHTS, semantic=scorer, semantic_weight=0.3)
    on = evaluate(Kindling(kd.store, provider=provider, clock=kd.clock), names, qs, tiers=tiers)
    out["product w=0.3"] = _entry(off, on)
    for name, fuse in variants().items():
        out[name] = _entry(off, evaluate(kd, names, qs, ranker=ranker(fuse)))
    return out


def _entry(off: Report, on: Report) -> dict[str, Any]:
    up, down = _up_down(off, on)
    return {"R@10": _r10(on), "gain": round(_r10(on) - _r10(off), 4), "up": up, "down": down}


def choose(results: dict[str, Any]) -> str | None:
    """The variant with the largest mean gain on the tuning sets present (ties: the first)."""
    tuning = [results[s] for s in TUNING if s in results]
    if not tuning:
        return None
    names: list[str] = [n for n in tuning[0] if isinstance(tuning[0][n], dict)]
    return max(names, key=lambda n: float(sum(t[n]["gain"] for t in tuning)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.quality.semantic_union", description=__doc__
    )
    parser.add_argument("--model", default="all-MiniLM-L6-v2")
    parser.add_argument("--model-dir", type=Path, help="install the model from here first")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/kindling-semantic-cache.db"))
    parser.add_argument("--coding-limit", type=int, default=None, metavar="N",
                        help="only N sessions of the coding tune split")  # fmt: skip
    parser.add_argument("--set", action="append", choices=SETS,
                        help="which sets, in this order (repeat; default all)")  # fmt: skip
    args = parser.parse_args(argv)
    spec = model_spec(args.model)
    encoder = open_encoder(args.model, args.model_dir, args.cache)
    if encoder is None:
        return 2
    start = time.perf_counter()
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for label, path, kd, names, qs, tiers in load_sets(
            Path(tmp), args.set or None, args.coding_limit
        ):
            results[label] = study(kd, path, names, qs, encoder, tiers=tiers)
            kd.close()
            print(json.dumps({label: results[label]}), file=sys.stderr, flush=True)
    chosen = choose(results)
    doc = {
        "model": spec.key,
        "embedded": encoder.embedded,
        "embedSeconds": round(encoder.seconds, 1),
        "seconds": round(time.perf_counter() - start, 1),
        "chosenOnTuning": chosen,
        "heldOut": {
            s: {
                "off": results[s]["off"],
                **({chosen: results[s][chosen]} if chosen else {}),
                "product w=0.3": results[s]["product w=0.3"],
            }
            for s in HELD_OUT
            if s in results
        },
        "sets": results,
    }
    print(json.dumps(doc, indent=2))
    print(table(results, chosen), file=sys.stderr)
    return 0


def table(results: dict[str, Any], chosen: str | None) -> str:
    """Recall@10 of every variant (rows) on every set (columns), gains against off."""
    sets = list(results)
    lines = ["| variant | " + " | ".join(sets) + " |", "| --- |" + " --- |" * len(sets)]
    lines.append("| off | " + " | ".join(f"{results[s]['off']:.3f}" for s in sets) + " |")
    for name in [n for n in results[sets[0]] if isinstance(results[sets[0]][n], dict)]:
        cells = [f"{results[s][name]['R@10']:.3f} ({results[s][name]['gain']:+.3f})" for s in sets]
        mark = " (chosen on tuning)" if name == chosen else ""
        lines.append(f"| {name}{mark} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())

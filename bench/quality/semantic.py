"""``python -m bench.quality.semantic``: Recall@10 with the semantic signal on against off, on
the conversation sets (``bench.quality``: hand-judged asked late, buried) and the coding-session
set's tuning and held-out splits, in one harness and one run, for several signal weights.

The weight is chosen on the tuning data (coding ``tune`` split and ``hand-late``) and reported
on the held-out data (coding ``heldout`` split and ``buried``, which nothing was ever tuned on).
Vectors are cached by text in ``--cache`` (a SQLite file), so a second run embeds nothing;
the model is one of the pinned ones, loaded from ``--model-dir`` after its files' hashes are
checked (``kindling.semantic.install``).

Must import Kindling's public API and ``kindling.semantic`` only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sqlite3
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from bench.quality import buried
from bench.quality.coding.data import judged, load_set, records
from bench.quality.coding.harness import summary_names
from bench.quality.dataset import JudgedQuery, all_records, read_histories, read_queries
from bench.quality.evaluate import Report, at, build_store, evaluate, last_event
from kindling import Kindling
from kindling.retrieval.provider import LocalFtsProvider
from kindling.retrieval.scoring import DEFAULT_WEIGHTS
from kindling.semantic.encoder import Encoder
from kindling.semantic.indexer import backfill
from kindling.semantic.install import install_from, installed
from kindling.semantic.models import model_spec
from kindling.semantic.scorer import VectorScorer

HOUR = 3_600_000
WEIGHTS = (0.15, 0.3, 0.45, 0.6, 0.8)
SETS = ["hand-late", "coding-heldout", "coding-tune", "buried"]


class CachedEncoder:
    """An encoder whose vectors are kept by (model, text) in a SQLite file."""

    def __init__(self, encoder: Encoder, path: Path) -> None:
        self.inner = encoder
        self.db = sqlite3.connect(path)
        self.db.execute("CREATE TABLE IF NOT EXISTS v (k TEXT PRIMARY KEY, vec BLOB)")
        self.embedded = 0
        self.seconds = 0.0

    @property
    def model(self) -> str:
        return self.inner.model

    def _key(self, text: str) -> str:
        key = f"{self.model}\0{self.inner.spec.max_tokens}\0{text}"
        return hashlib.sha256(key.encode()).hexdigest()

    def encode(self, texts: Sequence[str], *, batch: int = 16) -> list[Any]:
        import numpy as np

        keys = [self._key(t) for t in texts]
        found = {}
        for k in keys:
            row = self.db.execute("SELECT vec FROM v WHERE k = ?", (k,)).fetchone()
            if row is not None:
                found[k] = np.frombuffer(row[0], dtype=np.float32)
        todo = [i for i, k in enumerate(keys) if k not in found]
        if todo:
            start = time.perf_counter()
            vectors = self.inner.encode([texts[i] for i in todo], batch=batch)
            self.seconds += time.perf_counter() - start
            self.embedded += len(todo)
            for i, v in zip(todo, vectors, strict=True):
                found[keys[i]] = v
                self.db.execute("INSERT OR REPLACE INTO v VALUES (?, ?)", (keys[i], v.tobytes()))
            self.db.commit()
        return [found[k] for k in keys]


def _r10(report: Report) -> float:
    return round(report.overall["R@10"], 4)


def _up_down(off: Report, on: Report) -> tuple[int, int]:
    """Questions whose answer entered / left the top 10."""

    def hit(r: Report) -> dict[str, bool]:
        return {o.query.id: (o.first_relevant() or 99) <= 10 for o in r.outcomes}

    a, b = hit(off), hit(on)
    return sum(b[q] and not a[q] for q in a), sum(a[q] and not b[q] for q in a)


def embed_store(kd: Kindling, encoder: CachedEncoder) -> tuple[Any, float]:
    """The store behind ``kd`` with every item embedded by ``encoder``, and the seconds that
    took (vectors already cached by text cost nothing)."""
    store: Any = kd.store.inner if hasattr(kd.store, "inner") else kd.store
    start = time.perf_counter()
    backfill(store, encoder, batch=16)
    return store, time.perf_counter() - start


def score(
    kd: Kindling,
    names: dict[str, str],
    qs: list[JudgedQuery],
    encoder: CachedEncoder,
    *,
    tiers: bool,
) -> dict[str, Any]:
    """Off, then on at every weight: R@10, and the questions up/down against off."""
    store, index_s = embed_store(kd, encoder)
    off = evaluate(kd, names, qs, tiers=tiers)
    out: dict[str, Any] = {
        "questions": len(qs),
        "off": _r10(off),
        "indexSeconds": round(index_s, 1),
    }
    scorer = VectorScorer(store, lambda: encoder, encoder.model)
    for w in WEIGHTS:
        provider = LocalFtsProvider(kd.store, DEFAULT_WEIGHTS, semantic=scorer, semantic_weight=w)
        on_kd = Kindling(kd.store, provider=provider, clock=kd.clock)
        on = evaluate(on_kd, names, qs, tiers=tiers)
        up, down = _up_down(off, on)
        out[f"w={w}"] = {"R@10": _r10(on), "up": up, "down": down}
    return out


def _report(label: str, result: dict[str, Any]) -> None:
    print(json.dumps({label: result}), file=sys.stderr, flush=True)  # progress, set by set


def load_sets(
    tmp: Path, sets: Sequence[str] | None = None, coding_limit: int | None = None
) -> Iterator[tuple[str, Path, Kindling, dict[str, str], list[JudgedQuery], bool]]:
    """Each set as a store in ``tmp``: its label, path, store, names, questions and whether
    its ranking is judged with the tiers (the conversation sets) or without (coding)."""
    full = load_set()
    for name in sets or SETS:
        if name == "hand-late":
            recs = all_records(read_histories())
            path = tmp / "hand.db"
            kd, names = build_store(path)
            late = at(read_queries(), last_event(recs) + HOUR)
            yield "hand-late (tune)", path, kd, names, late, True
        elif name == "buried":
            data = buried.build()
            path = tmp / "buried.db"
            kd, names = build_store(path, data.records)
            yield "buried (held out)", path, kd, names, list(data.queries), True
        else:
            split = name.removeprefix("coding-")
            cs = full.split(split, coding_limit if split == "tune" else None)
            path = tmp / f"{split}.db"
            kd, _ = build_store(path, records(cs))
            label = f"coding {split}" + (" (held out)" if split == "heldout" else " (tune)")
            yield label, path, kd, summary_names(kd, cs), judged(cs), False


def run(encoder: CachedEncoder, coding_limit: int | None, sets: Sequence[str]) -> dict[str, Any]:
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for label, _, kd, names, qs, tiers in load_sets(Path(tmp), sets, coding_limit):
            results[label] = score(kd, names, qs, encoder, tiers=tiers)
            kd.close()
            _report(label, results[label])
    return results


def open_encoder(model: str, model_dir: Path | None, cache: Path) -> CachedEncoder | None:
    """The pinned model's encoder with its vectors cached in ``cache``, installed from
    ``model_dir`` first when it is not installed yet; None (after saying why) without either."""
    spec = model_spec(model)
    if installed(spec) is None:
        if model_dir is None:
            print(f"{spec.name} is not installed: pass --model-dir", file=sys.stderr)
            return None
        install_from(spec, model_dir)
    where = installed(spec)
    assert where is not None
    return CachedEncoder(Encoder(spec, where), cache)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.quality.semantic", description=__doc__)
    parser.add_argument("--model", default="all-mpnet-base-v2")
    parser.add_argument("--model-dir", type=Path, help="install the model from here first")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/kindling-semantic-cache.db"))
    parser.add_argument("--coding-limit", type=int, default=None, metavar="N",
                        help="only N sessions of the coding tune split")  # fmt: skip
    parser.add_argument(
        "--set",
        action="append",
        choices=SETS,
        help="which sets, in this order (repeat; default all)",
    )
    args = parser.parse_args(argv)
    spec = model_spec(args.model)
    encoder = open_encoder(args.model, args.model_dir, args.cache)
    if encoder is None:
        return 2
    start = time.perf_counter()
    results = run(encoder, args.coding_limit, args.set or SETS)
    doc = {
        "model": spec.key,
        "maxTokens": spec.max_tokens,
        "embedded": encoder.embedded,
        "embedSeconds": round(encoder.seconds, 1),
        "textsPerSecond": round(encoder.embedded / encoder.seconds, 2) if encoder.seconds else None,
        "seconds": round(time.perf_counter() - start, 1),
        "sets": results,
    }
    print(json.dumps(doc, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

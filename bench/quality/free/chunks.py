"""``python -m bench.quality.free.chunks``: does a text's best passage beat its opening as the
semantic signal? An experiment on the free-question set's tuning part only (issue 35).

The stored vector of an item is the model's reading of its first 128 word pieces
(``kindling.semantic``). A long tool output can hold its answer further down, so this scores the
re-rank with each candidate cut into passages of ``--words`` words (a new one every
``--stride`` words, at most ``--most``): ``max`` takes the closest passage's cosine,
``first+max`` the mean of the opening's and the closest passage's. Each is ``retrieve()`` with a
scorer that embeds the passages (cached by text, as ``bench.quality.free.semantic`` caches), on
the same store as the stored-vector re-rank and lexical retrieval, at weights 0.6 and 0.8.

Result (all-MiniLM-L6-v2, 64/48/8; tuning part, 128 questions, R@10 at w = 0.6 / 0.8): lexical
0.567; stored vectors 0.585 / 0.578; ``max`` 0.572 / 0.583; ``first+max`` 0.586 / 0.593. At best
one question more than the stored vector, for up to eight times the vectors, so passages were
not adopted and the held-out part was not scored.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bench.quality.free.data import load_questions, load_store
from bench.quality.free.harness import kindling_ranker, open_store, questions, score, summarise
from bench.quality.free.semantic import pooled
from bench.quality.semantic import embed_store, open_encoder
from kindling import Kindling
from kindling.retrieval.provider import LocalFtsProvider
from kindling.retrieval.scoring import DEFAULT_WEIGHTS
from kindling.semantic.scorer import VectorScorer


def passages(text: str, words: int, stride: int, most: int) -> list[str]:
    w = text.split()
    if len(w) <= words:
        return [text]
    out = []
    for i in range(0, len(w), stride):
        out.append(" ".join(w[i : i + words]))
        if len(out) >= most or i + words >= len(w):
            break
    return out


class PassageScorer:
    """``retrieval.semantic.SemanticScorer`` over each candidate's passages."""

    def __init__(
        self, db: sqlite3.Connection, encoder: Any, shape: tuple[int, int, int], mode: str
    ) -> None:
        self.db, self.encoder, self.shape, self.mode = db, encoder, shape, mode
        self.cache: dict[tuple[str, str], Any] = {}

    @property
    def model(self) -> str:
        return str(self.encoder.model)

    def _text(self, target: str, id: str) -> str:
        table = "observations" if target == "observation" else "summaries"
        row = self.db.execute(f"SELECT content FROM {table} WHERE id = ?", (id,)).fetchone()
        return str(row[0]) if row else ""

    def similarities(self, query: str, items: Sequence[tuple[Any, str]]) -> dict[Any, float]:
        import numpy as np

        q = np.asarray(self.encoder.encode([query])[0], dtype=np.float64)
        q /= np.linalg.norm(q) or 1.0
        out = {}
        for item in items:
            if item not in self.cache:
                parts = passages(self._text(*item), *self.shape)
                vs = np.asarray(self.encoder.encode(parts), dtype=np.float64)
                self.cache[item] = vs / np.linalg.norm(vs, axis=1, keepdims=True).clip(1e-9)
            cos = self.cache[item] @ q
            best = float(cos.max())
            out[item] = best if self.mode == "max" else (float(cos[0]) + best) / 2
        return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.quality.free.chunks")
    parser.add_argument("--model", default="all-MiniLM-L6-v2")
    parser.add_argument("--model-dir", type=Path, help="install the model from here first")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/kindling-semantic-cache.db"))
    parser.add_argument("--words", type=int, default=64)
    parser.add_argument("--stride", type=int, default=48)
    parser.add_argument("--most", type=int, default=8)
    args = parser.parse_args(argv)
    encoder = open_encoder(args.model, args.model_dir, args.cache)
    if encoder is None:
        return 2
    store = load_store()
    qs = questions(store, load_questions())
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        path = Path(tmp) / "set.db"
        kd, names = open_store(path, store)
        stack.callback(kd.close)
        vectors, _ = embed_store(kd, encoder)
        db = sqlite3.connect(path)
        stack.callback(db.close)
        stored = VectorScorer(vectors, lambda: encoder, encoder.model, question_threads=lambda: 1)
        rankers = {"lexical": kindling_ranker(kd)}
        scorers: list[tuple[str, Any]] = [("stored", stored)]
        shape = (args.words, args.stride, args.most)
        scorers += [(m, PassageScorer(db, encoder, shape, m)) for m in ("max", "first+max")]
        for name, scorer in scorers:
            for w in (0.6, 0.8):
                p = LocalFtsProvider(kd.store, DEFAULT_WEIGHTS, semantic=scorer, semantic_weight=w)
                rankers[f"{name} w={w}"] = kindling_ranker(Kindling(kd.store, provider=p))
        for name, ranker in rankers.items():
            result = score(qs, ranker, names)
            tune = summarise(qs, result)["tune"]
            kinds = " ".join(f"{k} {v['R@10']:.2f}" for k, v in tune["byKind"].items())
            para = pooled(qs, result, "tune")["R@10"]
            overall = tune["overall"]["R@10"]
            print(f"{name:16} tune R@10 {overall:.3f} paraphrased {para:.3f} | {kinds}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

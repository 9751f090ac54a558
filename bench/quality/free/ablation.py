"""Each ranking rule off (or changed) in turn, on the free-question set, one store, one run:
``python -m bench.quality.free.ablation [--part heldout|tune] [--set name=value ...]``.

Every variant opens the same store with other ``ScoringWeights`` (``Kindling.open(path,
weights=...)``); ``fts`` and ``bm25`` are the baselines of the same harness.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from bench.quality.free.data import load_questions, load_store
from bench.quality.free.harness import (
    Bm25,
    TimedFts,
    kindling_ranker,
    open_store,
    questions,
    score,
    summarise,
    table,
)
from kindling import Kindling
from kindling.retrieval.scoring import DEFAULT_WEIGHTS, ScoringWeights

# Each rule of the ranking and the setting that turns it off.
RULES: dict[str, dict[str, Any]] = {
    "need": {"need": 0.0},
    "episode": {"episode": 0.0},
    "support": {"support": 0.0},
    "context": {"context": 0.0, "prompt_context": 0.0},
    "session cap": {"session_cap": 0},
    "length norm": {"length": 0.0},
    "summary boost": {"observation": 0.0},
    "recency": {"fts": 1.0, "recency": 0.0},
}


def _value(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        return float(text)


def run(
    base: ScoringWeights, variants: dict[str, ScoringWeights], baselines: bool
) -> dict[str, Any]:
    store = load_store()
    qs = questions(store, load_questions())
    out: dict[str, Any] = {"retrievers": {}, "detail": {}}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "free.db"
        kd, names = open_store(path, store)
        kd.close()
        rankers = {}
        opened = []
        for name, weights in {"kindling": base, **variants}.items():
            handle = Kindling.open(path, weights=weights)
            opened.append(handle)
            rankers[name] = kindling_ranker(handle)
        plain = TimedFts(path) if baselines else None
        if plain is not None:
            rankers["fts"] = plain.rank_at
            rankers["bm25"] = Bm25(store).rank
        try:
            for name, ranker in rankers.items():
                result = score(qs, ranker, names)
                out["retrievers"][name] = summarise(qs, result)
                out["detail"][name] = result
        finally:
            for handle in opened:
                handle.close()
            if plain is not None:
                plain.close()
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.quality.free.ablation")
    parser.add_argument("--part", choices=("tune", "heldout", "both"), default="heldout")
    parser.add_argument("--set", action="append", default=[], help="name=value of the base")
    parser.add_argument("--try", dest="tries", action="append", default=[],
                        help="a variant: name=value[,name=value]")  # fmt: skip
    parser.add_argument("--no-rules", action="store_true", help="only the base and --try")
    args = parser.parse_args(argv)
    known = {f.name for f in fields(ScoringWeights)}
    base = DEFAULT_WEIGHTS
    for item in args.set:
        key, value = item.split("=", 1)
        assert key in known, key
        base = replace(base, **{key: _value(value)})
    variants = {} if args.no_rules else {f"- {r}": replace(base, **c) for r, c in RULES.items()}
    for t in args.tries:
        change = {k: _value(v) for k, v in (kv.split("=", 1) for kv in t.split(","))}
        variants[t] = replace(base, **change)
    result = run(base, variants, baselines=True)
    for part in ("tune", "heldout") if args.part == "both" else (args.part,):
        print(table(result, part))
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

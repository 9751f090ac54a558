"""Each ranking rule off (or changed) in turn, on the free-question set, one store, one run:
``python -m bench.quality.free.ablation [--part heldout|tune] [--set name=value ...]``.

Every variant opens the same store with other ``ScoringWeights`` (``Kindling.open(path,
weights=...)``); ``fts`` and ``bm25`` are the baselines of the same harness.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import fields, replace
from typing import Any

from bench.quality.free.harness import run, table
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
    "proximity": {"proximity": 0.0},
}


def _value(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        return float(text)


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
    result = run(weights={"kindling": base, **variants})
    for part in ("tune", "heldout") if args.part == "both" else (args.part,):
        print(table(result, part))
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

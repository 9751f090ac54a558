"""``python -m bench.quality.coding``: Recall@10 (and R@5, MRR, session recall S@5) of
Kindling's ``retrieve()``, the bare FTS5 query and "right session, random step" on the
coding-session set, overall, by class and by phrasing, for the tuning and the held-out split.

``--small`` asks each session's questions of a store holding that session alone; ``--mixed``
asks each split's questions of one store holding both splits (the held-out questions then
compete with the tuning sessions too);
``--with-conversations`` also runs the conversation sets of ``python -m bench.quality``
(hand-judged asked late, and buried) in the same run. ``--json`` prints one JSON object.

Must not import the builder (``build``, ``sources``): it runs without the mirrors.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from typing import Any

from bench.quality.coding import harness
from bench.quality.coding.data import SPLITS, CodingSet, load_set
from bench.quality.coding.harness import SEED, per_question, run_mixed, run_split, table
from kindling.retrieval.scoring import DEFAULT_WEIGHTS


def conversations() -> dict[str, Any]:
    from bench.quality.__main__ import comparison, run_sets
    from kindling.retrieval.scoring import DEFAULT_WEIGHTS

    results = run_sets(DEFAULT_WEIGHTS, ["hand-late", "buried"])
    return {
        "table": comparison(results),
        "sets": {n: {"kindling": o.overall, "fts": b.overall} for n, (o, b) in results.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.quality.coding", description=__doc__)
    parser.add_argument("--split", choices=[*SPLITS, "both"], default="both")
    parser.add_argument(
        "--limit",
        type=int,
        default=None,
        metavar="N",
        help="only N sessions of each split (evenly spaced over its sources)",
    )
    parser.add_argument(
        "--small",
        action="store_true",
        help="one store per session (small stores) instead of one per split",
    )
    parser.add_argument("--both-modes", action="store_true", help="run the split store and small")
    parser.add_argument(
        "--mixed",
        action="store_true",
        help="one store holding both splits; each split's questions scored there",
    )
    parser.add_argument("--seed", type=int, default=SEED, help="seed of the random-step baseline")
    parser.add_argument(
        "--with-conversations",
        action="store_true",
        help="also run the conversation sets (bench.quality hand-late, buried)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--questions",
        action="store_true",
        help="with --json: each question's first answer rank and top 10, per retriever",
    )
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE", help="a ScoringWeights value"
    )
    args = parser.parse_args(argv)
    if args.set:
        weights = DEFAULT_WEIGHTS
        for item in args.set:
            key, _, value = item.partition("=")
            weights = replace(weights, **{key: int(value) if value.isdigit() else float(value)})
        harness.OPEN_KWARGS["weights"] = weights
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be at least 1")
    if args.questions and not args.json:
        parser.error("--questions needs --json")
    if args.mixed and (args.small or args.both_modes):
        parser.error("--mixed is a store mode of its own: not with --small or --both-modes")
    data = load_set()
    modes = [False, True] if args.both_modes else [args.small]
    out: dict[str, Any] = {"seed": args.seed, "splits": {}}
    wanted = SPLITS if args.split == "both" else [args.split]
    runs: list[tuple[str, dict[str, Any]]] = []
    if args.mixed:
        parts = [data.split(split, args.limit) for split in SPLITS]
        whole = CodingSet(
            [s for p in parts for s in p.sessions],
            [o for p in parts for o in p.observations],
            [q for p in parts for q in p.questions],
        )
        mixed = run_mixed(whole, seed=args.seed)
        runs = [(f"{split}-mixed", mixed[split]) for split in wanted]
    else:
        for split in wanted:
            part = data.split(split, args.limit)
            for small in modes:
                key = f"{split}{'-small' if small else ''}"
                runs.append((key, run_split(part, small=small, seed=args.seed)))
    for key, result in runs:
        outcomes = result.pop("outcomes")
        if args.questions:
            result["questionDetails"] = per_question(outcomes)
        out["splits"][key] = result
        if not args.json:
            print(
                f"\n## {key}: {result['sessions']} sessions, {result['observations']} "
                f"observations, {result['questions']} questions ({result['seconds']} s)\n"
            )
            print(table(result))
    if args.with_conversations:
        conv = conversations()
        out["conversations"] = conv["sets"]
        if not args.json:
            print("\n## conversation sets (bench.quality)\n")
            print(conv["table"])
    if args.json:
        json.dump(out, sys.stdout, indent=1, sort_keys=True)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())

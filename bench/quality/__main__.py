"""``python -m bench.quality``: score retrieval on the labelled quality sets, against the naive
baseline (a plain FTS5 OR query) in the same harness and the same run.

Three runs: the hand-judged set with each query at its own ``now``; the same queries asked one
hour after the last event of the store (a realistic ``now``: answers days to weeks old); and the
generated "buried answers" set (``bench.quality.buried``: answers 30-80 days old, fresh items
sharing the question's common words). Prints the tables and the queries whose answer is not in
the top 3, and writes ``quality.json`` and ``quality.md`` to ``--out``. ``--weight
name=value`` (repeat) tries other ``ScoringWeights`` without touching engine code.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench.quality import buried
from bench.quality.dataset import JudgedQuery, all_records, read_histories, read_queries
from bench.quality.evaluate import (
    MEASURES,
    PlainFts,
    Report,
    at,
    build_store,
    evaluate,
    last_event,
    markdown_table,
)
from kindling import Kindling
from kindling.retrieval.scoring import DEFAULT_WEIGHTS, ScoringWeights

HOUR = 3_600_000


def strip_context(path: Path) -> None:
    """Ablation: re-index every observation without its neighbour and capsule intent."""
    con = sqlite3.connect(path)
    con.execute("UPDATE observation_context SET prev_rowid = NULL, intent = ''")
    con.execute("INSERT INTO observations_fts(observations_fts) VALUES ('rebuild')")
    con.commit()
    con.close()


def _pair(
    kd: Kindling, names: dict[str, str], qs: list[JudgedQuery], plain: PlainFts, tiers: bool
) -> tuple[Report, Report]:
    return evaluate(kd, names, qs, tiers=tiers), evaluate(kd, names, qs, ranker=plain.rank)


def run_sets(
    weights: ScoringWeights, sets: list[str], *, tiers: bool = True, context: bool = True
) -> dict[str, tuple[Report, Report]]:
    """name -> (Kindling's report, the baseline's report). ``tiers``: Kindling's list is what
    the agent receives (pins, current summary, candidates); else the candidates alone."""
    out: dict[str, tuple[Report, Report]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        if {"hand", "hand-late"} & set(sets):
            records = all_records(read_histories())
            path = Path(tmp) / "hand.db"
            kd, names = build_store(path, weights=weights)
            if not context:
                strip_context(path)
            plain = PlainFts(path)
            queries = read_queries()
            late = at(queries, last_event(records) + HOUR)
            for name, qs in (("hand", queries), ("hand-late", late)):
                if name in sets:
                    out[name] = _pair(kd, names, qs, plain, tiers)
            plain.close()
            kd.close()
        if "buried" in sets:
            data = buried.build()
            path = Path(tmp) / "buried.db"
            kd, names = build_store(path, data.records, weights=weights)
            if not context:
                strip_context(path)
            plain = PlainFts(path)
            qs = list(data.queries)
            out["buried"] = _pair(kd, names, qs, plain, tiers)
            plain.close()
            kd.close()
    return out


def comparison(results: dict[str, tuple[Report, Report]]) -> str:
    lines = [
        "| set | queries | ranker | " + " | ".join(MEASURES) + " |",
        "| --- | ---: | --- | " + " | ".join("---:" for _ in MEASURES) + " |",
    ]
    for name, (ours, base) in results.items():
        for label, report in (("Kindling", ours), ("bare FTS5 OR", base)):
            values = " | ".join(f"{report.overall[m]:.3f}" for m in MEASURES)
            lines.append(f"| {name} | {report.counts['all']} | {label} | {values} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.quality", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("bench/out"), help="output directory")
    parser.add_argument(
        "--set",
        action="append",
        choices=["hand", "hand-late", "buried"],
        help="which runs (repeat; default all three)",
    )
    parser.add_argument(
        "--weight",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a ScoringWeights field, e.g. --weight recency=0.3 --weight fts=0.7",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the tables")
    parser.add_argument(
        "--no-context",
        action="store_true",
        help="ablation: index observations without their neighbour and capsule intent",
    )
    parser.add_argument(
        "--candidates-only",
        action="store_true",
        help="score Kindling's ranked candidates alone (no pins or current summary first)",
    )
    args = parser.parse_args(argv)
    overrides: dict[str, Any] = {
        k: int(v) if v.isdigit() else float(v)
        for k, _, v in (item.partition("=") for item in args.weight)
    }
    weights = replace(DEFAULT_WEIGHTS, **overrides)
    results = run_sets(
        weights,
        args.set or ["hand", "hand-late", "buried"],
        tiers=not args.candidates_only,
        context=not args.no_context,
    )
    table = comparison(results)
    print(table)
    for name, (ours, _) in results.items():
        print(f"\n{name}, by class:\n{markdown_table(ours)}")
        if not args.quiet:
            print_misses(ours)
    args.out.mkdir(parents=True, exist_ok=True)
    data: dict[str, Any] = {
        "weights": {k: getattr(weights, k) for k in weights.__slots__},
        "sets": {
            n: {"kindling": o.to_dict(), "baseline": b.to_dict()} for n, (o, b) in results.items()
        },
    }
    (args.out / "quality.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    (args.out / "quality.md").write_text(table + "\n", encoding="utf-8")
    return 0


def print_misses(report: Report) -> None:
    misses = [o for o in report.outcomes if (o.first_relevant() or 99) > 3]
    print(f"\n{len(misses)} queries without an answer (grade 2) in the top 3:")
    for o in misses:
        rank = o.first_relevant()
        print(
            f"  {o.query.id} [{o.query.cls}] {o.query.text!r}: first answer at "
            f"{rank if rank else '-'}; top 3 {list(o.ranked[:3])}"
        )


if __name__ == "__main__":
    sys.exit(main())

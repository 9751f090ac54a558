"""``python -m bench.quality``: score retrieval on the labelled quality set.

Prints the table per query class and overall, the queries whose answer is not in the top 3,
and writes ``quality.json`` and ``quality.md`` to ``--out``. ``--weight name=value`` (repeat)
tries other ``ScoringWeights`` without touching engine code.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from bench.quality.evaluate import Report, markdown_table, run_quality
from kindling.retrieval.scoring import DEFAULT_WEIGHTS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.quality", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("bench/out"), help="output directory")
    parser.add_argument(
        "--weight",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a ScoringWeights field, e.g. --weight recency=0.2 --weight fts=0.8",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the table")
    args = parser.parse_args(argv)
    weights = DEFAULT_WEIGHTS
    for item in args.weight:
        name, _, value = item.partition("=")
        weights = replace(weights, **{name: float(value)})
    with tempfile.TemporaryDirectory() as tmp:
        report = run_quality(Path(tmp) / "quality.db", weights=weights)
    table = markdown_table(report)
    print(table)
    if not args.quiet:
        print_misses(report)
    args.out.mkdir(parents=True, exist_ok=True)
    data = report.to_dict() | {"weights": {k: getattr(weights, k) for k in weights.__slots__}}
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

"""``python -m bench.quality.free [--json FILE]``: every retriever on both parts of the
free-question set, one store, one run; prints a table per part."""

from __future__ import annotations

import argparse
import json
import sys

from bench.quality.free.data import PARTS
from bench.quality.free.harness import run, table


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.quality.free")
    parser.add_argument("--json", help="write the summaries and per-question ranks here")
    args = parser.parse_args(argv)
    result = run()
    for part in PARTS:
        print(table(result, part))
        print()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1, sort_keys=True, default=str)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

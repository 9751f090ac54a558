"""``python -m bench``: latency, capture throughput and size of Kindling stores.

    python -m bench --sizes 10k,100k,1m --out bench/out

Generated stores are cached under ``--data`` (default ``bench/data``) by size and seed, so a
repeated run only measures. Writes ``bench.json`` and ``bench.md`` to ``--out``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bench.corpus import parse_size
from bench.latency import run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10k,100k", help="comma list, e.g. 10k,100k,1m")
    parser.add_argument("--out", type=Path, default=Path("bench/out"))
    parser.add_argument("--data", type=Path, default=Path("bench/data"), help="store cache")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--repeats", type=int, default=3, help="timed passes per query")
    parser.add_argument("--per-class", type=int, default=20, help="queries per query class")
    parser.add_argument("--capture-n", type=int, default=5000, help="observations to capture")
    parser.add_argument("--no-cli", action="store_true", help="skip the cold CLI timing")
    args = parser.parse_args(argv)
    sizes = [parse_size(s) for s in args.sizes.split(",") if s.strip()]
    report = run(
        sizes,
        seed=args.seed,
        out=args.out,
        data_dir=args.data,
        repeats=args.repeats,
        per_class=args.per_class,
        capture_n=args.capture_n,
        cli=not args.no_cli,
    )
    print((args.out / "bench.md").read_text(), end="")
    return 0 if report["sizes"] else 1


if __name__ == "__main__":
    sys.exit(main())

"""``python -m bench.semantic_scan``: what a per-scope nearest-neighbour set would cost per
question (docs/ranking.md, "A union with the nearest neighbours"): reading N stored int8 vectors
from SQLite, then their exact cosines with a question and the top 10; and, for comparison, the
same comparison with the vectors already in memory as float32.

It reads the store ``bench.semantic_cost`` leaves (``semantic-100000.db`` in ``--data``: every row
has a seeded random vector). Must import numpy and sqlite3 only.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

DIM = 768


def top10(matrix: Any, query: Any, inverse_norms: Any) -> Any:
    """Exact here: every partial sum of int8 products stays below 2**24, float32's integers."""
    cos = (matrix @ query) * inverse_norms
    return np.argpartition(-cos, min(10, len(cos) - 1))[:10]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.semantic_scan", description=__doc__)
    parser.add_argument("--data", type=Path, default=Path("/tmp/kindling-semantic-cost"))
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    path = args.data / f"semantic-{args.size}.db"
    if not path.exists():
        print(f"{path} is missing: run python -m bench.semantic_cost first", file=sys.stderr)
        return 2
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    query = np.random.default_rng(1).integers(-127, 128, DIM).astype(np.float32)
    report: dict[str, Any] = {"loadAverage": round(os.getloadavg()[0], 2)}
    for n in (1_000, 10_000, 100_000):
        reads, compares, resident = [], [], []
        for _ in range(args.repeats + 1):  # the first is a warm-up
            start = time.perf_counter()
            rows = con.execute("SELECT vector FROM observation_vectors LIMIT ?", (n,)).fetchall()
            read = time.perf_counter()
            m = np.frombuffer(b"".join(r[0] for r in rows), dtype=np.int8).reshape(-1, DIM)
            floats = m.astype(np.float32)
            inverse = 1.0 / np.sqrt(np.einsum("ij,ij->i", floats, floats))
            top10(floats, query, inverse)
            done = time.perf_counter()
            top10(floats, query, inverse)
            reads.append(read - start)
            compares.append(done - read)
            resident.append(time.perf_counter() - done)
        report[str(len(rows))] = {
            "readMs": round(statistics.median(reads[1:]) * 1000, 1),
            "compareMs": round(statistics.median(compares[1:]) * 1000, 1),
            "residentFloat32Ms": round(statistics.median(resident[1:]) * 1000, 1),
        }
    con.close()
    report["loadAverageAfter"] = round(os.getloadavg()[0], 2)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""What does "forget means gone" cost? Time ``Kindling.forget`` on stores of growing size.

    .venv/bin/python bench/forget_cost.py 10000 100000

Each forget rewrites the observation FTS index as one segment (``optimize``) and truncates
the WAL (see ``kindling.store.sqlite.purge``); this prints the median and max over a few forgets,
and checks that the forgotten word is absent from every database file afterwards.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from kindling import Kindling

WORDS = [f"w{i}" for i in range(20_000)] + ["error", "build", "test", "import", "failed"]


def measure(n: int, forgets: int = 5) -> None:
    rng = random.Random(n)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "forget.db"
        with Kindling.open(path) as kd:
            with kd.batch():
                for _ in range(n):
                    text = " ".join(rng.choice(WORDS) for _ in range(40))
                    kd.append_observation(kind="command", content=text)
            targets = [
                kd.append_observation(kind="command", content=f"zzforgetme{i} was here").id
                for i in range(forgets)
            ]
            timings = []
            for obs_id in targets:
                start = time.perf_counter()
                kd.forget(obs_id)
                timings.append(time.perf_counter() - start)
            size_mb = path.stat().st_size / 1e6
        left = sum(f.read_bytes().count(b"zzforgetme") for f in path.parent.iterdir())
        print(
            f"{n:>8} observations  {size_mb:6.1f} MB  forget median"
            f" {statistics.median(timings) * 1000:7.1f} ms  max {max(timings) * 1000:7.1f} ms"
            f"  word left on disk: {left}"
        )


if __name__ == "__main__":
    for arg in sys.argv[1:] or ["10000"]:
        measure(int(arg))

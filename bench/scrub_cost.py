"""What does secret scrubbing on the write path cost? Appends per second with it on and off.

    .venv/bin/python bench/scrub_cost.py

Content is tool output of about 2 KB with no secret (the common case), plus one 1 MiB log.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from kindling import Kindling

LINE = "npm WARN deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported\n"
CONTENT = LINE * 25  # ~2 KB
BIG = (LINE * 13_000)[: 1 << 20]


def run(redact: bool, n: int = 2000) -> tuple[float, float]:
    with (
        tempfile.TemporaryDirectory() as tmp,
        Kindling.open(Path(tmp) / "r.db", scrub_secrets=redact) as kd,
    ):
        start = time.perf_counter()
        with kd.batch():
            for i in range(n):
                kd.append_observation(kind="command", content=f"{i} {CONTENT}")
        rate = n / (time.perf_counter() - start)
        start = time.perf_counter()
        kd.append_observation(kind="command", content=BIG)
        big_ms = (time.perf_counter() - start) * 1000
    return rate, big_ms


if __name__ == "__main__":
    for redact in (False, True):
        rate, big_ms = run(redact)
        print(
            f"scrub_secrets={redact!s:5}  {rate:8.0f} appends/s (2 KB)"
            f"  one 1 MiB append {big_ms:6.1f} ms"
        )

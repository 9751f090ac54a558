"""Capture speed of two checkouts in the same interleaved rounds: ``append_many`` and scrubbing.

    .venv/bin/python -m bench.scrub_ab --other /tmp/old/src [--store PATH] [--rounds 3] [-n 5000]

Each round runs, for this checkout's ``src`` and for ``--other`` (in that order, then the
other order next round), a fresh process that:

- appends ``n`` synthetic records (``bench.corpus``, generated before the clock starts) with
  ``append_many`` in batches of 2,000 into a copy of ``--store`` (the cached 100k bench store:
  a full-size index, as ``python -m bench`` measures capture), and
- times ``scrub_secrets`` alone over the same records' content (fastest of 3 passes, CPU time).

``append_many`` is reported per wall-clock second (as ``python -m bench`` does) and per
CPU-second of the process (less moved by other jobs on a shared machine).

The two checkouts see the same machine load; the report gives every round and the medians,
with the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
import json, shutil, sys, tempfile, time
from pathlib import Path
from bench.corpus import generate
from bench.latency import _relabel
from bench.loader import SettableClock
from bench.loader import load
from kindling import Kindling
from kindling.secrets import scrub as scrub_module
from kindling.secrets.scrub import scrub_secrets

# The clean short texts a process remembers (a checkout that has the memory): forgotten
# before each pass and before the capture, so no pass is timed on answers an earlier one kept.
remembered = getattr(scrub_module, "_CLEAN", {})
store, n, seed = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
records = list(_relabel(generate(n, seed), "ab-"))
texts = [r.content for r in records if isinstance(getattr(r, "content", None), str)]
best = float("inf")
for _ in range(3):
    remembered.clear()
    t = time.process_time()
    for text in texts:
        scrub_secrets(text)
    best = min(best, time.process_time() - t)
remembered.clear()
with tempfile.TemporaryDirectory(dir=store.parent) as tmp:
    copy = Path(tmp) / "capture.db"
    shutil.copyfile(store, copy)
    clock = SettableClock()
    with Kindling.open(copy, clock=clock) as kd:
        kd.append_observation(kind="message", content="warm-up", id="ab-warm-up")
        cpu = time.process_time()
        stats = load(kd, records, clock=clock, batch_size=2000, bulk=True)
        cpu = time.process_time() - cpu
print(json.dumps({
    "obsPerSecond": stats.obs_per_second,
    "obsPerCpuSecond": stats.observations / cpu,
    "scrubUsPerText": best / max(1, len(texts)) * 1e6,
    "texts": len(texts),
}))
"""


def _run(src: Path, store: Path, n: int, seed: int) -> dict[str, float]:
    env = os.environ | {"PYTHONPATH": f"{src}{os.pathsep}{ROOT}"}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(store), str(n), str(seed)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=True,
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--other", type=Path, required=True, help="another checkout's src")
    parser.add_argument(
        "--store",
        type=Path,
        default=Path("bench/data/corpus-v3-100000-s42.db"),
        help="store",
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("-n", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=43)
    args = parser.parse_args()
    here = ROOT / "src"
    runs: dict[str, list[dict[str, float]]] = {"this": [], "other": []}
    print(f"load average before: {os.getloadavg()}")
    for r in range(args.rounds):
        order = [("this", here), ("other", args.other)]
        for name, src in order if r % 2 == 0 else reversed(order):
            result = _run(src, args.store, args.n, args.seed)
            runs[name].append(result)
            print(
                f"round {r + 1} {name:5}  append_many {result['obsPerSecond']:8.0f} obs/s"
                f" ({result['obsPerCpuSecond']:6.0f} per CPU-s)"
                f"  scrub_secrets {result['scrubUsPerText']:6.1f} us/text"
            )
    for name, results in runs.items():
        obs = statistics.median(x["obsPerSecond"] for x in results)
        cpu = statistics.median(x["obsPerCpuSecond"] for x in results)
        scrub = statistics.median(x["scrubUsPerText"] for x in results)
        print(
            f"median {name:5}  append_many {obs:8.0f} obs/s ({cpu:6.0f} per CPU-s)"
            f"  scrub_secrets {scrub:6.1f} us/text"
        )
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What does checking a database before writing cost? And what does each check catch?

    .venv/bin/python -m bench.write_check --sizes 100k,1m          # cost on the bench stores
    .venv/bin/python -m bench.write_check --flips 300              # what each check catches

Cost: each candidate check (``CANDIDATES``) timed on the cached bench store
of each size (``bench.latency.ensure_store``; built on first use), cold (first run after
opening) and warm (median of the next runs), with the file size and the load average.

Catch rate: a small store (400 observations) is copied N times with one bit flipped in each
copy (positions from ``random.Random(seed)``: the same copies every run); each copy is run
through every check and through ``kindling doctor``'s full check (the reference: "damaged"
means doctor says so). Printed: how many damaged copies each check refuses.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench.corpus import parse_size
from bench.latency import ensure_store
from kindling import Kindling, Scope
from kindling.errors import DamagedDatabaseError
from kindling.store import files
from kindling.store.sqlite import doctor, index

Check = Callable[[sqlite3.Connection, str], bool]


def _statement(sql: str) -> Check:
    def run(conn: sqlite3.Connection, path: str) -> bool:
        try:
            rows = [r[0] for r in conn.execute(sql).fetchall()]
        except (sqlite3.DatabaseError, UnicodeDecodeError):
            return False
        return rows in (["ok"], [])

    return run


def _both(*checks: Check) -> Check:
    return lambda conn, path: all(check(conn, path) for check in checks)


def _structure(conn: sqlite3.Connection, path: str) -> bool:
    """``files.structure_check``: what every writer runs on every open."""
    try:
        files.structure_check(conn, path)
    except DamagedDatabaseError:
        return False
    return True


FTS0 = _both(
    _statement("INSERT INTO observations_fts(observations_fts, rank) VALUES('integrity-check', 0)"),
    _statement("INSERT INTO summaries_fts(summaries_fts, rank) VALUES('integrity-check', 0)"),
)
FTS1 = _both(
    _statement("INSERT INTO observations_fts(observations_fts, rank) VALUES('integrity-check', 1)"),
    _statement("INSERT INTO summaries_fts(summaries_fts, rank) VALUES('integrity-check', 1)"),
)
CANDIDATES: dict[str, Check] = {
    "structure (schema)": _structure,
    "quick_check": _statement("PRAGMA quick_check(5)"),
    "integrity_check": _statement("PRAGMA integrity_check(5)"),
    "fts_structure": FTS0,
    "integrity+fts_structure": _both(_statement("PRAGMA integrity_check(5)"), FTS0),
    "structure+integrity (chosen)": _both(_structure, _statement("PRAGMA integrity_check(5)")),
    "doctor (integrity+fts content)": _both(_statement("PRAGMA integrity_check(5)"), FTS1),
}


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    index.register_functions(conn)
    return conn


def cost(sizes: list[int], runs: int) -> None:
    for size in sizes:
        path, _ = ensure_store(Path("bench/data"), size, 42)
        mb = path.stat().st_size / 1e6
        print(f"\n{size:,} observations, {mb:.0f} MB, load {os.getloadavg()[0]:.1f}")
        for name, check in CANDIDATES.items():
            times = []
            for _ in range(runs):
                conn = _connect(path)
                start = time.perf_counter()
                assert check(conn, str(path)), name
                times.append(time.perf_counter() - start)
                conn.close()
            warm = statistics.median(times[1:]) if len(times) > 1 else times[0]
            print(f"  {name:32} cold {times[0] * 1000:9.1f} ms   warm {warm * 1000:9.1f} ms")


def catches(flips: int, seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base.db"
        with Kindling.open(base, clock=lambda: 1_767_225_600_000) as kd, kd.batch():
            for i in range(400):  # fixed ids and times: the same bytes, so the same flips
                text = f"build {i} failed in module_{i % 17}.py: KeyError 'user_{i}' " * 4
                kd.append_observation(
                    kind="error", content=text, scope=Scope(repo_id="/r"), id=f"o{i:04d}", ts=i
                )
        conn = sqlite3.connect(base, isolation_level=None)
        conn.execute("UPDATE schema_migrations SET applied_at = 0")  # the one wall-clock value
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.close()
        data = base.read_bytes()
        rng = random.Random(seed)
        damaged = 0
        caught = dict.fromkeys(CANDIDATES, 0)
        false_alarms = dict.fromkeys(CANDIDATES, 0)
        for k in range(flips):
            pos, bit = rng.randrange(len(data)), rng.randrange(8)
            flipped = bytearray(data)
            flipped[pos] ^= 1 << bit
            copy = Path(tmp) / f"flip{k}.db"
            copy.write_bytes(bytes(flipped))
            is_damaged = not doctor.check(str(copy)).ok
            damaged += is_damaged
            for name, check in CANDIDATES.items():
                conn = _connect(copy)
                refused = not check(conn, str(copy))
                conn.close()
                caught[name] += refused and is_damaged
                false_alarms[name] += refused and not is_damaged
            for suffix in ("", "-wal", "-shm"):
                Path(f"{copy}{suffix}").unlink(missing_ok=True)
        print(f"{flips} single-bit flips (seed {seed}), {damaged} damaged per kindling doctor")
        for name in CANDIDATES:
            print(
                f"  {name:32} refuses {caught[name]:4} of {damaged} damaged"
                f" ({false_alarms[name]} sound copies refused)"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="", help="comma list of bench store sizes: 100k,1m")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--flips", type=int, default=0)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if args.flips:
        catches(args.flips, args.seed)
    if args.sizes:
        cost([parse_size(s) for s in args.sizes.split(",")], args.runs)


if __name__ == "__main__":
    main()

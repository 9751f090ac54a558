"""A writer killed with SIGKILL at a random moment never corrupts the database and never
loses an observation whose append had returned (WAL + synchronous=NORMAL: a commit is in the
WAL file before ``append_observation`` returns; only a power cut could drop it)."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from kindling import Kindling
from tests.support.paths import SUPPORT

PROCS = str(SUPPORT / "procs.py")
RUNS = 20
SEED = 20261122


def test_sigkill_mid_write_loses_no_acknowledged_observation(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    db_path = tmp_path / "crash.db"
    acknowledged: set[str] = set()
    for run in range(RUNS):
        writer = subprocess.Popen(
            [sys.executable, PROCS, "crash", str(db_path), str(run)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert writer.stdout is not None
        lines: list[bytes] = []
        try:
            for _ in range(rng.randrange(1, 60)):
                line = writer.stdout.readline()
                if not line:
                    break
                lines.append(line)
            time.sleep(rng.uniform(0, 0.005))  # land anywhere inside the next write
            os.kill(writer.pid, signal.SIGKILL)
            rest, err = writer.communicate(timeout=30)
        finally:
            if writer.poll() is None:
                writer.kill()
                writer.wait()
        assert writer.returncode == -signal.SIGKILL, err.decode()[-2000:]
        # Only whole lines count: an id is acknowledged once its newline was written.
        lines.extend(rest.splitlines(keepends=True))
        acknowledged |= {ln.decode().strip() for ln in lines if ln.endswith(b"\n")}

        with sqlite3.connect(db_path) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            conn.execute("INSERT INTO observations_fts(observations_fts) VALUES('integrity-check')")
            stored = {row[0] for row in conn.execute("SELECT id FROM observations")}
        missing = acknowledged - stored
        assert not missing, f"run {run}: {len(missing)} acknowledged observations lost"

    with Kindling.open(db_path) as kd:  # and the store still opens and writes
        kd.append_observation(kind="command", content="after twenty crashes")
    assert len(acknowledged) > RUNS

"""Many processes, one database: no error reaches the caller and no write is lost.

Workers are real processes (``tests/support/procs.py``) started at once; every wait is bounded by a
timeout so a hang fails the test instead of stalling the suite.
"""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, cast

import pytest

from kindling import Kindling
from kindling.store.sqlite.retry import is_busy, retry_busy
from tests.support.paths import SUPPORT

PROCS = str(SUPPORT / "procs.py")
WAIT_S = 120


def _run_all(commands: list[list[str]]) -> list[str]:
    procs = [
        subprocess.Popen(
            [sys.executable, PROCS, *cmd],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for cmd in commands
    ]
    outputs = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=WAIT_S)
            assert proc.returncode == 0, f"worker failed: {out[-2000:]}{err[-2000:]}"
            outputs.append(out)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return outputs


def test_eight_processes_append_250_each_without_error_or_loss(db_path: Path) -> None:
    Kindling.open(db_path).close()  # created here; the open race has its own test
    outputs = _run_all([["append", str(db_path), "250", f"proc{p}"] for p in range(8)])
    acknowledged = [line for out in outputs for line in out.splitlines()]
    assert len(acknowledged) == 2000
    assert not [line for line in acknowledged if line.startswith("ERR")]
    with sqlite3.connect(db_path) as conn:
        stored = {row[0] for row in conn.execute("SELECT id FROM observations")}
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert len(stored) == 2000
    assert stored == set(acknowledged)


def test_writers_readers_and_forgets_at_once_raise_nothing(db_path: Path) -> None:
    Kindling.open(db_path).close()
    outputs = _run_all(
        [["append", str(db_path), "100", f"w{p}"] for p in range(4)]
        + [["read", str(db_path), "50"] for _ in range(2)]
        + [["forget", str(db_path), "10", f"f{p}"] for p in range(2)]
    )
    assert not [ln for out in outputs for ln in out.splitlines() if ln.startswith("ERR")]
    appended = {ln for out in outputs[:4] for ln in out.splitlines()}
    forgotten = {ln for out in outputs[6:] for ln in out.splitlines()}
    assert (len(appended), len(forgotten)) == (400, 20)
    with Kindling.open(db_path) as kd:
        assert set(kd.store.get_observations([*appended, *forgotten])) == appended | forgotten
        assert all(o.redacted for o in kd.store.get_observations(list(forgotten)).values())
        conn = kd.store.connection  # type: ignore[attr-defined]
        conn.execute("INSERT INTO observations_fts(observations_fts) VALUES('integrity-check')")
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_eight_processes_create_the_same_new_database_at_once(tmp_path: Path) -> None:
    rounds = 12
    _run_all([["race", str(tmp_path), str(rounds), str(w), "8"] for w in range(8)])
    for r in range(rounds):
        with Kindling.open(tmp_path / f"r{r}.db") as kd:
            assert kd.stats().observations_by_kind == {"command": 8}
            assert kd.stats().schema_version > 0


def test_readers_do_not_block_a_writer(db_path: Path) -> None:
    with Kindling.open(db_path) as writer, Kindling.open(db_path) as reader:
        writer.append_observation(kind="command", content="before the read")
        conn: sqlite3.Connection = cast(Any, reader.store).connection  # SQLite-only test
        conn.execute("BEGIN")  # a long-lived read snapshot
        assert conn.execute("SELECT COUNT(*) FROM observations").fetchone()[0] == 1
        writer.append_observation(kind="command", content="during the read")
        assert conn.execute("SELECT COUNT(*) FROM observations").fetchone()[0] == 1
        conn.execute("COMMIT")
        assert len(reader.list_observations()) == 2


def test_a_second_writer_waits_for_the_first(db_path: Path) -> None:
    with Kindling.open(db_path) as first, Kindling.open(db_path) as second:
        done = threading.Event()

        def write() -> None:
            second.append_observation(kind="command", content="queued write")
            done.set()

        with first.batch():
            first.append_observation(kind="command", content="holding the lock")
            thread = threading.Thread(target=write)
            thread.start()
            assert not done.wait(0.2)  # blocked on the lock, not failed
        thread.join(timeout=10)
        assert done.is_set()
        assert len(first.list_observations()) == 2


# ------------------------------------------------------------------ retry_busy, unit


def _busy() -> sqlite3.OperationalError:
    exc = sqlite3.OperationalError("database is locked")
    exc.sqlite_errorcode = 5
    return exc


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        assert seconds >= 0
        self.now += seconds + 0.001


def test_retry_busy_retries_until_the_call_succeeds() -> None:
    attempts = []

    def call() -> str:
        attempts.append(1)
        if len(attempts) < 5:
            raise _busy()
        return "done"

    clock = _Clock()
    result = retry_busy(call, timeout_s=5, rng=random.Random(1), sleep=clock.sleep, clock=clock)
    assert result == "done"
    assert len(attempts) == 5


def test_retry_busy_gives_up_after_the_timeout() -> None:
    def call() -> None:
        raise _busy()

    clock = _Clock()
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        retry_busy(call, timeout_s=0.5, rng=random.Random(1), sleep=clock.sleep, clock=clock)
    assert clock.now >= 0.5


def test_retry_busy_does_not_retry_other_errors() -> None:
    attempts = []

    def call() -> None:
        attempts.append(1)
        raise sqlite3.OperationalError("no such table: nope")

    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        retry_busy(call, timeout_s=5)
    assert len(attempts) == 1
    assert not is_busy(ValueError("locked"))
    assert is_busy(_busy())

"""Worker processes for the multi-process tests: ``python tests/support/procs.py <command> ...``.

A separate script (not ``multiprocessing``) so each worker is a real, independent process,
the way agents, hooks and the CLI reach one database. Every command bounds its own run time.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from kindling import Kindling, KindlingError

BARRIER_TIMEOUT_S = 30.0


def append(path: str, count: str, tag: str) -> int:
    """Append ``count`` observations and print each acknowledged id."""
    with Kindling.open(path) as kd:
        for i in range(int(count)):
            obs = kd.append_observation(kind="command", content=f"{tag} item {i}")
            print(obs.id, flush=True)
    return 0


def _barrier(directory: Path, name: str, worker: str, workers: int) -> None:
    (directory / f"{name}.ready.{worker}").touch()
    deadline = time.monotonic() + BARRIER_TIMEOUT_S
    while len(list(directory.glob(f"{name}.ready.*"))) < workers:
        if time.monotonic() > deadline:
            raise SystemExit(f"barrier {name} timed out")
        time.sleep(0.0005)


def race(directory: str, rounds: str, worker: str, workers: str) -> int:
    """Each round, all workers open the same brand-new database at the same moment."""
    base = Path(directory)
    for r in range(int(rounds)):
        _barrier(base, f"r{r}", worker, int(workers))
        with Kindling.open(base / f"r{r}.db") as kd:
            kd.append_observation(kind="command", content=f"worker {worker} round {r}")
        print("ok", flush=True)
    return 0


def crash(path: str, seed: str) -> int:
    """Write forever (until killed): capsules, observations of varied size, some forgets.

    An id is printed only after ``append_observation`` returned: that is the acknowledgement
    the parent checks after SIGKILL.
    """
    rng = random.Random(int(seed))
    with Kindling.open(path) as kd:
        capsule = kd.open_capsule(intent=f"crash run {seed}")
        for i in range(1_000_000):
            body = f"crash {seed} write {i} " + "payload " * rng.randrange(1, 4000)
            obs = kd.append_observation(kind="command", content=body, capsule_id=capsule.id)
            print(obs.id, flush=True)
            if i % 17 == 16:
                kd.forget(obs.id)
    return 0


def read(path: str, count: str) -> int:
    """Retrieve ``count`` times while others write; print how many results each time."""
    with Kindling.open(path) as kd:
        for i in range(int(count)):
            print(len(kd.retrieve(f"item {i}").candidates), flush=True)
    return 0


def forget(path: str, count: str, tag: str) -> int:
    """Append and forget ``count`` times (each forget merges the index and truncates the WAL)."""
    with Kindling.open(path) as kd:
        for i in range(int(count)):
            obs = kd.append_observation(kind="command", content=f"{tag} secret {i}")
            kd.forget(obs.id)
            print(obs.id, flush=True)
    return 0


COMMANDS: dict[str, Callable[..., int]] = {
    "append": append,
    "race": race,
    "crash": crash,
    "read": read,
    "forget": forget,
}

if __name__ == "__main__":
    try:
        sys.exit(COMMANDS[sys.argv[1]](*sys.argv[2:]))
    except KindlingError as exc:
        print(f"ERR {exc.code}: {exc.message}", flush=True)
        sys.exit(1)

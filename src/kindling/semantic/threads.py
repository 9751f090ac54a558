"""How many BLAS threads the encoder runs on: the question on several, the backfill on one.

Embedding one question at retrieve time is latency a user waits for, and its forward pass is
bound by reading the weights from memory (mpnet reads about 340 MB a question), which a second
core speeds up; the backfill is background work whose promise is one core at most. So
``for_question()`` is the machine's cores, at most ``QUESTION_THREADS``, and ``for_backfill()``
is 1. The question gets no more threads than the machine has idle cores now (other processes'
threads running at this instant, on Linux; one thread when the load average reaches the
cores): BLAS threads wait for each other at every product, so one that waits for a core stalls
the whole pass. Measured with all-mpnet-base-v2 on 2 cores: 35 ms at p50 on two threads
against 52 ms on one when the other core was idle, but 2-4 times slower than one thread at
load 3-5, and stalls of 3 s when one other process held a core.

``blas_threads(n)`` holds BLAS to ``n`` threads for the duration of a ``with`` block and
restores what was there before, through threadpoolctl (the library made for this; part of the
extra). BLAS's thread count is one setting of the whole process: a question embedded while a
backfill runs in another thread of the same process lends that batch its threads meanwhile.
The vectors do not depend on it: OpenBLAS splits a product's rows and columns between its
threads, never a sum, so any thread count gives the same bits (``test_semantic_quality``).

A thread count the user set (``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS``, ``MKL_NUM_THREADS``)
wins: both functions return None then, and ``blas_threads(None)`` leaves BLAS alone.

Must not import anything from Kindling except ``errors``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from kindling.errors import SemanticError

QUESTION_THREADS = 4  # beyond 4 threads, a question's few-row products stop getting faster
THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")

_controller: Any = None


def cores() -> int:
    """The cores this process may run on (its affinity where the OS tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def user_set(env: Mapping[str, str] | None = None) -> bool:
    """Whether the user chose BLAS's thread count through the environment."""
    env = os.environ if env is None else env
    return any(env.get(var, "").strip() for var in THREAD_VARS)


def load_average() -> float:
    """The last minute's load average (0 where the OS does not tell)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return 0.0


def others_running() -> int:
    """Threads of other processes running or ready to run at this instant (0 where the OS does
    not tell): Linux's count of runnable threads less this process's own."""
    try:
        with open("/proc/loadavg", encoding="ascii") as fh:
            running = int(fh.read().split()[3].split("/")[0])
        own = 0
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/stat", encoding="ascii", errors="replace") as fh:
                own += fh.read().rsplit(")", 1)[-1].split()[0] == "R"
    except (OSError, ValueError, IndexError):
        return 0
    return max(0, running - own)


def for_question(
    env: Mapping[str, str] | None = None,
    available: int | None = None,
    load: float | None = None,
    others: int | None = None,
) -> int | None:
    """BLAS threads for embedding a question; None: the user's setting holds."""
    if user_set(env):
        return None
    n = cores() if available is None else available
    if (load_average() if load is None else load) >= n:
        return 1  # every core has been taken for the last minute
    idle = n - (others_running() if others is None else others)
    return max(1, min(idle, QUESTION_THREADS))


def for_backfill(env: Mapping[str, str] | None = None) -> int | None:
    """BLAS threads for the backfill (one core); None: the user's setting holds."""
    return None if user_set(env) else 1


@contextmanager
def blas_threads(n: int | None) -> Iterator[None]:
    """BLAS on ``n`` threads inside the block (None: unchanged), as it was after."""
    if n is None:
        yield
        return
    with _blas().limit(limits=n, user_api="blas"):
        yield


def _blas() -> Any:
    """One controller for the process, made after numpy loaded its BLAS (it finds the BLAS
    libraries loaded when it is made: looking them up on every question would cost 0.5 ms,
    against 0.03 ms for a limit set through it)."""
    global _controller
    if _controller is None:
        try:
            import numpy  # noqa: F401  (loads the BLAS the controller must find)
            from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]
        except ImportError:
            raise SemanticError(
                "the semantic signal needs its extra: pip install 'kindling-memory[semantic]'"
            ) from None
        _controller = ThreadpoolController()
    return _controller

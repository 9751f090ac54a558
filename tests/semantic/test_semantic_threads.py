"""The encoder's BLAS threads: a question on the machine's cores (at most 4, one when the machine
is busy), the backfill on one, and a thread count the user set left alone."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy  # noqa: F401  (loads the BLAS whose threads these tests read)
import pytest
from threadpoolctl import threadpool_info  # type: ignore[import-untyped]

from kindling import Kindling
from kindling.semantic import threads
from kindling.semantic.indexer import backfill
from kindling.semantic.scorer import VectorScorer


def blas_threads_now() -> int:
    counts = {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}
    assert len(counts) == 1, counts
    return int(counts.pop())


class Spy:
    """A text encoder that records how many BLAS threads it was given."""

    model = "spy@1"

    def __init__(self) -> None:
        self.threads: list[int] = []

    def encode(self, texts: Sequence[str], *, batch: int = 16) -> list[list[float]]:
        self.threads.append(blas_threads_now())
        return [[1.0, 0.5] for _ in texts]


@pytest.mark.parametrize(
    ("cores", "load", "others", "expected"),
    [
        (1, 0.0, 0, 1),
        (2, 0.5, 0, 2),
        (2, 1.9, 0, 2),
        (2, 0.5, 1, 1),  # another process holds a core: one thread
        (2, 2.0, 0, 1),  # a minute of full load: one thread
        (8, 3.0, 2, 4),
        (8, 3.0, 5, 3),
        (8, 9.0, 0, 1),
        (64, 0.0, 0, 4),
    ],
)
def test_question_threads_follow_idle_cores(
    cores: int, load: float, others: int, expected: int
) -> None:
    assert threads.for_question({}, available=cores, load=load, others=others) == expected
    assert threads.for_backfill({}) == 1


def test_others_running_leaves_this_process_out() -> None:
    assert 0 <= threads.others_running() < 10_000


@pytest.mark.parametrize("var", threads.THREAD_VARS)
def test_a_thread_count_the_user_set_wins(var: str) -> None:
    assert threads.for_question({var: "3"}, available=8, load=0.0, others=0) is None
    assert threads.for_backfill({var: "3"}) is None
    assert threads.for_question({var: " "}, available=8, load=0.0, others=0) == 4  # blank
    before = blas_threads_now()
    with threads.blas_threads(None):
        assert blas_threads_now() == before


def test_the_limit_holds_inside_the_block_only() -> None:
    before = blas_threads_now()
    with threads.blas_threads(1):
        assert blas_threads_now() == 1
    assert blas_threads_now() == before


def test_questions_and_backfill_get_their_threads(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for var in threads.THREAD_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(threads, "load_average", lambda: 0.0)  # a quiet machine
    monkeypatch.setattr(threads, "others_running", lambda: 0)
    spy = Spy()
    with Kindling.open(db_path) as kd:
        kd.append_observation(kind="message", content="checkout broke")
        store: Any = kd.store
        before = blas_threads_now()
        backfill(store, spy)
        VectorScorer(store, lambda: spy, spy.model).query_vector("why did checkout break")
    assert spy.threads == [1, min(threads.cores(), threads.QUESTION_THREADS)]
    assert blas_threads_now() == before

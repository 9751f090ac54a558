"""The backfill: embed what has no vector yet, newest first, resumable, bounded in CPU.

Never on the capture path: ``kindling semantic index`` (or a caller's thread) runs it, in
bounded batches (``batch`` rows, at most ``MAX_BATCH``), each stored in its own transaction and
reported (``progress``). ``stop`` is asked before every batch (the CLI sets it on Ctrl-C and
SIGTERM): a stop between batches loses nothing, one inside a batch loses that batch's work only,
never a stored vector, and the next run starts where the rows without vectors are. Each batch
reads the newest rows that lack a vector of the model, masks secrets in their text
(``secrets.privacy.scrub_text``: a store opened with scrubbing off may hold some, and nothing
unmasked is ever embedded), embeds them and stores the vectors; a row forgotten meanwhile gets
none (``store.vectors``). Summaries go first (few, and each stands for a session), then
observations.

CPU: the encoder runs on one BLAS thread (``threads.for_backfill``, unless the user set BLAS's
thread count); ``cpu`` below 1 sleeps after each batch so that the indexer's share of that core
is at most ``cpu``.

Must not import anything from Kindling except ``errors``, ``model``, ``store``, ``secrets``
and ``semantic``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from kindling.errors import InvalidInputError
from kindling.secrets.privacy import scrub_text
from kindling.semantic import codec, threads
from kindling.semantic.scorer import TextEncoder
from kindling.store.vectors import VectorRow, VectorStore, VectorTarget

BATCH = 16
MAX_BATCH = 1024


@dataclass(frozen=True, slots=True)
class IndexProgress:
    """Where a backfill is: rows embedded so far, of how many were missing at its start."""

    embedded: int
    missing: int
    seconds: float
    stopped: bool = False  # ``stop`` said so before every missing row was embedded

    @property
    def rate(self) -> float:
        return self.embedded / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, int | float]:
        return {
            "embedded": self.embedded,
            "missing": self.missing,
            "seconds": round(self.seconds, 3),
            "perSecond": round(self.rate, 2),
            "stopped": self.stopped,
        }


def backfill(
    store: VectorStore,
    encoder: TextEncoder,
    *,
    limit: int | None = None,
    batch: int = BATCH,
    cpu: float = 1.0,
    progress: Callable[[IndexProgress], None] | None = None,
    stop: Callable[[], bool] | None = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> IndexProgress:
    """Embed up to ``limit`` rows (all when None) that lack a vector of the encoder's model,
    ``batch`` at a time; returns early (``stopped``) when ``stop()`` is true before a batch."""
    if isinstance(batch, bool) or not isinstance(batch, int) or not 1 <= batch <= MAX_BATCH:
        raise InvalidInputError(f"batch must be an integer from 1 to {MAX_BATCH}")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise InvalidInputError("limit must be a non-negative integer or None")
    if not isinstance(cpu, int | float) or not 0.05 <= cpu <= 1.0:
        raise InvalidInputError("cpu must be a share of one core between 0.05 and 1")
    model = encoder.model
    cover = store.vector_coverage(model)
    missing = cover.total - cover.embedded
    if limit is not None:
        missing = min(missing, limit)
    start = clock()
    done = 0
    for target in ("summary", "observation"):
        cursor: tuple[int, str] | None = None
        while limit is None or done < limit:
            if stop is not None and stop():
                return IndexProgress(done, missing, clock() - start, stopped=True)
            size = batch if limit is None else min(batch, limit - done)
            rows = store.unembedded(model, target, limit=size, before=cursor)
            if not rows:
                break
            began = clock()
            texts = [scrub_text(r.content) for r in rows]
            with threads.blas_threads(threads.for_backfill()):
                vectors = encoder.encode(texts, batch=batch)
            done += store.put_vectors(
                model,
                [
                    VectorRow(_target(target), r.id, codec.encode([float(x) for x in v]))
                    for r, v in zip(rows, vectors, strict=True)
                ],
            )
            cursor = (rows[-1].ts, rows[-1].id)
            if progress is not None:
                progress(IndexProgress(done, missing, clock() - start))
            if cpu < 1.0:
                sleep((clock() - began) * (1.0 - cpu) / cpu)
    return IndexProgress(done, missing, clock() - start)


def _target(name: str) -> VectorTarget:
    return "summary" if name == "summary" else "observation"

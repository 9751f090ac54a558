"""Push corpus records into a Kindling store through its public API.

The loader is the only place where bench records meet the engine. Timestamps come from the
records (``ts``, ``opened_at``, ``closed_at``); verbs that stamp "now" themselves (pins) read a
``SettableClock`` that the loader moves to each record's time, so a loaded store is the same
whatever the day it was built.

Must import Kindling's public API only.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bench.corpus import (
    CapsuleRecord,
    CloseRecord,
    ObservationRecord,
    Record,
    SummaryRecord,
)
from kindling import Kindling, NewObservation, Scope


class SettableClock:
    """An epoch-ms clock the loader sets; pass it to ``Kindling.open(clock=...)``."""

    def __init__(self, now: int = 0) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


@dataclass(slots=True)
class LoadStats:
    observations: int = 0
    capsules: int = 0
    summaries: int = 0
    pins: int = 0
    seconds: float = 0.0

    @property
    def obs_per_second(self) -> float:
        return self.observations / self.seconds if self.seconds else 0.0


def load(
    kd: Kindling,
    records: Iterable[Record],
    *,
    clock: SettableClock,
    batch_size: int | None = 2000,
    progress: Callable[[LoadStats], None] | None = None,
    bulk: bool = False,
) -> LoadStats:
    """Apply ``records`` in order. ``batch_size`` records share one transaction (``None``:
    every verb is its own transaction, as a live agent's hook would write). With ``bulk``,
    each run of consecutive observations of a batch is one ``append_many`` call."""
    stats = LoadStats()
    start = time.perf_counter()
    it = iter(records)
    if batch_size is None:
        for record in it:
            apply(kd, record, clock, stats)
    else:
        while chunk := list(itertools.islice(it, batch_size)):
            with kd.batch():
                run: list[ObservationRecord] = []
                for record in chunk:
                    if bulk and isinstance(record, ObservationRecord):
                        run.append(record)
                        continue
                    append_run(kd, run, stats)
                    run = []
                    apply(kd, record, clock, stats)
                append_run(kd, run, stats)
            if progress is not None:
                stats.seconds = time.perf_counter() - start
                progress(stats)
    stats.seconds = time.perf_counter() - start
    return stats


def _new(record: ObservationRecord) -> NewObservation:
    return NewObservation(
        kind=record.kind,  # type: ignore[arg-type]
        content=record.content,
        scope=Scope(session_id=record.session_id, repo_id=record.repo_id),
        provenance=record.provenance,
        ts=record.ts,
        capsule_id=record.capsule_key,
        id=record.id,
    )


def append_run(kd: Kindling, run: list[ObservationRecord], stats: LoadStats) -> None:
    if run:
        kd.append_many([_new(r) for r in run])
        stats.observations += len(run)


def apply(kd: Kindling, record: Record, clock: SettableClock, stats: LoadStats) -> None:
    if isinstance(record, ObservationRecord):
        clock.now = record.ts
        new = _new(record)
        kd.append_observation(
            kind=new.kind,
            content=new.content,
            scope=new.scope,
            provenance=new.provenance,
            ts=new.ts,
            capsule_id=new.capsule_id,
            id=new.id,
        )
        stats.observations += 1
    elif isinstance(record, CapsuleRecord):
        clock.now = record.opened_at
        kd.open_capsule(
            intent=record.intent,
            scope=Scope(session_id=record.session_id, repo_id=record.repo_id),
            type=record.type,
            id=record.key,
            opened_at=record.opened_at,
        )
        stats.capsules += 1
    elif isinstance(record, CloseRecord):
        clock.now = record.ts
        if record.summary is None:
            kd.close_capsule(record.capsule_key, closed_at=record.ts)
        else:
            kd.close_capsule(
                record.capsule_key,
                summary=record.summary,
                confidence=record.confidence,
                evidence_refs=list(record.evidence_refs),
                closed_at=record.ts,
            )
            stats.summaries += 1
    elif isinstance(record, SummaryRecord):
        clock.now = record.ts
        kd.add_summary(
            record.capsule_key,
            content=record.content,
            confidence=record.confidence,
            evidence_refs=list(record.evidence_refs),
            created_at=record.ts,
        )
        stats.summaries += 1
    else:
        clock.now = record.ts
        kd.pin("observation", record.target_id, reason=record.reason, expires_at=record.expires_at)
        stats.pins += 1

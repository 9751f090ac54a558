"""Draining the spool: the records hooks left in ``spool`` enter the database.

``drain()`` applies them with ``records.apply`` (the one interpreter of a hook record, which
the remote path uses too), oldest first, one transaction each, then deletes the file; see
``spool`` (the writer half and the record format) for why it is idempotent and what happens to
a record it cannot apply. ``Kindling.open`` calls it, and so do the hooks that open the
database anyway (``entry.drain``).

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

import json
import os
import time
from typing import TYPE_CHECKING, Any

from kindling.errors import DatabaseLockedError, KindlingError, StoreError
from kindling.locks import open_lock, take
from kindling.records import apply
from kindling.spool import (
    BAD_SUFFIX,
    FORMAT,
    MAX_RECORD_BYTES,
    RECORD_SUFFIX,
    Record,
    pending,
)

if TYPE_CHECKING:
    from kindling.memory import Memory

DRAIN_LOCK = ".drain.lock"  # in the spool: one drainer at a time
LOCK_WAIT_S = 2.0  # the other drainer applies the records meanwhile; no hook waits longer


class DrainReport:
    """What one drain did: records applied, records already stored, records set aside."""

    __slots__ = ("applied", "bad", "busy", "locked", "skipped")

    def __init__(self) -> None:
        self.applied = 0
        self.skipped = 0
        self.bad: list[str] = []  # "file: reason"
        self.locked = False  # stopped because the database stayed locked
        self.busy = False  # another drainer held the spool for the whole budget

    def __repr__(self) -> str:
        return (
            f"DrainReport(applied={self.applied}, skipped={self.skipped}, "
            f"bad={len(self.bad)}, locked={self.locked})"
        )


def _load(path: str) -> Record | None:
    """The record in ``path``; None when another drainer took it first."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_RECORD_BYTES + 1)
    except FileNotFoundError:
        return None
    if len(raw) > MAX_RECORD_BYTES:
        raise ValueError(f"larger than {MAX_RECORD_BYTES} bytes")
    data = json.loads(raw.decode("utf-8"))
    if not isinstance(data, dict) or data.get("v") != FORMAT:
        raise ValueError("not a spool record of this version")
    return Record.from_dict(data)


def _quietly(call: Any, *args: str) -> None:
    try:  # noqa: SIM105  (contextlib would cost a hook process an import)
        call(*args)
    except OSError:  # gone already (another drainer), or not ours to change
        pass


def _drain_lock(directory: str, deadline: float) -> int | None:
    """The drain lock of ``directory`` (an open descriptor; -1 when another drainer kept it
    until ``deadline``; None when it cannot be opened: drains then run side by side)."""
    fd = open_lock(os.path.join(directory, DRAIN_LOCK))
    if fd is None:
        return None
    if take(fd, max(0.0, deadline - time.monotonic()), poll_s=0.01):
        return fd
    os.close(fd)
    return -1


def drain(kd: Memory, directory: str, *, budget_s: float = 5.0) -> DrainReport:
    """Apply the records waiting in ``directory`` to ``kd``, oldest first; see the module.
    One drainer at a time (a lock file in the spool): two side by side could apply one
    session's records out of order (its close before its summary)."""
    report = DrainReport()
    if not pending(directory):
        return report
    deadline = time.monotonic() + budget_s
    fd = _drain_lock(directory, min(deadline, time.monotonic() + LOCK_WAIT_S))
    if fd == -1:
        report.busy = True  # the other drainer applies them
        return report
    try:
        _drain_locked(kd, directory, deadline, report)
    finally:
        if fd is not None:
            os.close(fd)
    return report


def _drain_locked(kd: Memory, directory: str, deadline: float, report: DrainReport) -> None:
    names = pending(directory)  # again: the drainer before may have applied them
    for name in names:
        if time.monotonic() > deadline:
            break
        path = os.path.join(directory, name)
        try:
            rec = _load(path)
            applied = rec is not None and apply(rec, kd)
        except DatabaseLockedError:
            report.locked = True
            break
        except OSError as exc:  # not ours to read (another user's spool): leave it there
            report.bad.append(f"{name}: cannot read it ({exc.strerror or exc})")
            continue
        except (KindlingError, ValueError, KeyError, TypeError) as exc:
            if isinstance(exc, StoreError):
                raise  # a broken or damaged database is the caller's problem, not this record's
            reason = " ".join(str(exc).split())[:200] or type(exc).__name__
            report.bad.append(f"{name}: {reason}")
            _quietly(os.replace, path, path[: -len(RECORD_SUFFIX)] + BAD_SUFFIX)
            continue
        if rec is None:  # another drainer took it first
            continue
        report.applied += applied
        report.skipped += not applied
        _quietly(os.unlink, path)  # another drainer may have removed it first

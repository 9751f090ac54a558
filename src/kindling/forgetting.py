"""Forget means every copy: which entities hold a text, and the report of a purge.

``Kindling.forget``, ``forget_matching`` and ``finish_forget`` (in ``engine``) use these. A
forgotten observation also clears the summaries derived from it: those whose evidence refs
name it, and the summary of each capsule that holds it when that summary names no evidence
(the hooks' session summaries are written from the transcript, so they may quote it).

A report is complete only when the old pages have left the database file and the WAL. When a
reader's snapshot keeps them there, the report says which processes have the database open
(Linux: from ``/proc``) and how to finish: close them, then ``kindling forget --finish``.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kindling.errors import InvalidInputError
from kindling.store.base import TextMatches

MIN_MATCH_CHARS = 3  # "--match e" would forget nearly everything


@dataclass(frozen=True, slots=True)
class ForgetReport:
    """What a forget changed, and whether the old bytes have left the files.

    ``id`` is the entity asked for (None for a text match); ``complete`` is True when the
    database file and WAL no longer hold the forgotten text; ``holders`` names the processes
    that had the database open when it was not."""

    id: str | None
    observations: tuple[str, ...] = ()
    summaries: tuple[str, ...] = ()
    pins: tuple[str, ...] = ()
    capsules: tuple[str, ...] = ()
    complete: bool = True
    holders: tuple[str, ...] = ()
    dry_run: bool = False

    @property
    def total(self) -> int:
        return len(self.observations) + len(self.summaries) + len(self.pins) + len(self.capsules)

    def counts(self) -> str:
        parts = (
            (len(self.observations), "observation"),
            (len(self.summaries), "summary"),
            (len(self.pins), "pin reason"),
            (len(self.capsules), "capsule intent"),
        )
        shown = [f"{n} {name}{'' if n == 1 else 's'}" for n, name in parts if n]
        return ", ".join(shown).replace("summarys", "summaries") or "nothing"

    @property
    def message(self) -> str:
        """One line for people: what was done and, if unfinished, how to finish."""
        if self.dry_run:
            return f"would forget {self.counts()}"
        done = f"forgot {self.counts()}"
        if self.complete:
            return f"{done}; the text is gone from the database files"
        who = ", ".join(self.holders) if self.holders else "another connection"
        return (
            f"{done} from the tables and the index, but old copies are still in the database"
            f" files: {who} holds a read snapshot. Close it, then run `kindling forget --finish`"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "observations": list(self.observations),
            "summaries": list(self.summaries),
            "pins": list(self.pins),
            "capsules": list(self.capsules),
            "complete": self.complete,
            "holders": list(self.holders),
            "dryRun": self.dry_run,
            "message": self.message,
        }


def check_match_text(text: object) -> str:
    if not isinstance(text, str) or len(text.strip()) < MIN_MATCH_CHARS:
        raise InvalidInputError(
            f"the text to forget must be at least {MIN_MATCH_CHARS} characters"
            " (shorter text would match nearly everything)"
        )
    return text


def plan(matches: TextMatches) -> ForgetReport:
    return ForgetReport(
        id=None,
        observations=matches.observations,
        summaries=matches.summaries,
        pins=matches.pins,
        capsules=matches.capsules,
        dry_run=True,
    )


def holders(db_path: str) -> tuple[str, ...]:
    """Other processes with the database, its WAL or its shared memory open (Linux only)."""
    if db_path == ":memory:" or not Path("/proc/self/fd").is_dir():
        return ()
    try:
        real = os.path.realpath(db_path)
    except (OSError, ValueError):
        return ()
    targets = {real, f"{real}-wal", f"{real}-shm"}
    found: list[str] = []
    me = os.getpid()
    try:
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != me]
    except OSError:
        return ()
    for pid in sorted(pids):
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
            if not any(os.readlink(f"/proc/{pid}/fd/{fd}") in targets for fd in fds):
                continue
            raw = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        command = " ".join(raw.replace(b"\0", b" ").decode("utf-8", "replace").split())[:80]
        found.append(f"process {pid} ({command})" if command else f"process {pid}")
    return tuple(found)

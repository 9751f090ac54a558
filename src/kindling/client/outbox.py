"""A local, private outbox for hook records (``spool.Record``) bound for a ``kindling serve``
that may be down.

Hooks must never block the agent, so in remote mode they write each record here first, then try
to deliver the outbox within a short time budget; whatever is not delivered waits for the next
hook (or, after a session's end, for a background flusher: ``hooks.remote``). Each entry is one
JSON file ``<time>-<seq>-<id>.json`` written atomically (temporary file, then rename) with mode
0600 in a 0700 directory. Text is scrubbed of secrets before it is written, so nothing secret
rests on disk or leaves the machine. Delivering an entry is applying its record to the server's
memory with ``records.apply``, as the local drain applies the spool, so a delivery repeated
after a lost answer changes nothing. An entry the server refuses for good (bad input, no
access) moves to ``failed/`` and is logged by the caller; it is never retried forever. (An
entry an earlier version wrote, one request, is still sent as it is.)

One deliverer at a time: ``deliver`` holds the outbox's lock (``flock`` on ``<outbox>.lock``,
beside the folder) while it applies, so two hooks never apply records interleaved. Over a
server, ``records.apply`` reads and then writes in separate requests: two deliverers at once
could both find a session without a capsule, one open and close it, and the other open a
second that stays open. A hook that finds the lock held returns at once (the holder delivers
what it put: the holder looks again after it lets go); ``wait_s`` lets a background flusher
(``hooks.remote.flush``) wait its turn instead.

Must not be imported by the core; imports only the core and ``client``.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from kindling.client.front import RemoteKindling
from kindling.errors import ConflictError, KindlingError, StoreError
from kindling.locks import hold
from kindling.memory import Memory
from kindling.model.wire.routes import find
from kindling.records import apply
from kindling.spool import Record

DELIVERY_BUDGET_S = 2.0
LOCK_SUFFIX = ".lock"
MAX_ENTRIES = 10_000  # a server away for weeks must not fill the disk: the oldest go first


@dataclass(frozen=True, slots=True)
class Delivery:
    delivered: int
    failed: list[str]
    left: int


class Spool:
    def __init__(self, directory: Path) -> None:
        self.dir = directory
        self.failed_dir = directory / "failed"
        self.lock_path = directory.with_name(directory.name + LOCK_SUFFIX)  # beside: not an entry

    def _prepare(self) -> None:
        for d in (self.dir, self.failed_dir):
            missing = [p for p in (d, *d.parents) if not p.exists()]
            for new in reversed(missing):  # KINDLING_HOME too, when this creates it: 0700
                with contextlib.suppress(FileExistsError):
                    new.mkdir(mode=0o700)
                os.chmod(new, 0o700)
            os.chmod(d, 0o700)

    def put(self, record: dict[str, Any], entry_id: str) -> Path:
        """Queue one record (``Record.to_dict()``, already scrubbed by the caller)."""
        self._prepare()
        name = f"{time.time_ns():020d}-{os.getpid()}-{entry_id}.json"
        target = self.dir / name
        temp = self.dir / f".{name}.tmp"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"record": record}, fh, ensure_ascii=False)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(temp, target)
        self._trim()
        return target

    def entries(self) -> Iterator[Path]:
        if self.dir.is_dir():
            yield from sorted(self.dir.glob("*.json"))

    def _trim(self) -> None:
        extra = list(self.entries())[:-MAX_ENTRIES]
        for path in extra:
            path.unlink(missing_ok=True)

    def deliver(
        self, memory: Memory, budget_s: float = DELIVERY_BUDGET_S, wait_s: float = 0.0
    ) -> Delivery:
        """Apply the queued records to ``memory`` in order until done, the server is
        unreachable, or the budget is spent; nothing when another deliverer holds the lock
        for longer than ``wait_s`` (then ``left`` counts what it has yet to deliver)."""
        deadline = time.monotonic() + budget_s
        delivered = 0
        failed: list[str] = []
        while self._has_entries() and time.monotonic() <= deadline:
            lock = self._lock(min(wait_s, max(0.0, deadline - time.monotonic())))
            if lock is None:
                break
            try:
                done, stop = self._deliver_held(memory, deadline, failed)
            finally:
                os.close(lock)  # lets go: then looks again for what came meanwhile
            delivered += done
            if stop:
                break
            wait_s = 0.0  # once delivered, another holder delivers what it put
        return Delivery(delivered, failed, sum(1 for _ in self.entries()))

    def _has_entries(self) -> bool:
        return next(self.entries(), None) is not None

    def _lock(self, wait_s: float) -> int | None:
        """The outbox's delivery lock (an open descriptor; closing it lets go), or None when
        another process held it for ``wait_s``."""
        self._prepare()
        return hold(self.lock_path, wait_s)

    def _deliver_held(self, memory: Memory, deadline: float, failed: list[str]) -> tuple[int, bool]:
        """Deliver with the lock held: how many, and whether to stop (the server is
        unreachable or the budget is spent)."""
        delivered = 0
        for path in self.entries():
            if time.monotonic() > deadline:
                return delivered, True
            try:
                entry = json.loads(path.read_text(encoding="utf-8"))
                if "record" in entry:
                    apply(Record.from_dict(entry["record"]), memory)
                else:  # a request an earlier version queued
                    found = find(entry["method"], unquote(entry["path"]))
                    if not isinstance(memory, RemoteKindling):
                        raise ValueError("a queued request goes to a server only")
                    if found is None:
                        raise ValueError(f"no route {entry['method']} {entry['path']}")
                    memory.client.call(found[0].name, entry["body"], entity_id=found[1])
            except FileNotFoundError:
                continue  # trimmed meanwhile (the outbox was full)
            except ConflictError:
                pass  # sent before, answer lost: it is on the server
            except StoreError:
                return delivered, True  # unreachable or its database is down: keep it
            except (KindlingError, ValueError, KeyError, TypeError) as exc:
                self._prepare()
                path.replace(self.failed_dir / path.name)
                failed.append(f"{path.name}: {exc}")
                continue
            path.unlink(missing_ok=True)
            delivered += 1
        return delivered, False

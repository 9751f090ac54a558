"""A local, private outbox for hook records (``spool.Record``) bound for a ``kindling serve``
that may be down.

Hooks must never block the agent, so in remote mode they write each record here first, then
try to deliver the outbox within a short time budget; whatever is not delivered waits for the
next hook. Each entry is one JSON file ``<time>-<seq>-<id>.json`` written atomically (temporary
file, then rename) with mode 0600 in a 0700 directory. Text is scrubbed of secrets before it is
written, so nothing secret rests on disk or leaves the machine. Delivering an entry is applying
its record to the server's memory with ``records.apply``, as the local drain applies the
spool, so a delivery repeated after a lost answer changes nothing. An entry the server refuses
for good (bad input, no access) moves to ``failed/`` and is logged by the caller; it is never
retried forever. (An entry an earlier version wrote, one request, is still sent as it is.)

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
from kindling.memory import Memory
from kindling.model.wire.routes import find
from kindling.records import apply
from kindling.spool import Record

DELIVERY_BUDGET_S = 2.0
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

    def deliver(self, memory: Memory, budget_s: float = DELIVERY_BUDGET_S) -> Delivery:
        """Apply the queued records to ``memory`` in order until done, the server is
        unreachable, or the budget is spent."""
        deadline = time.monotonic() + budget_s
        delivered, failed = 0, []
        for path in self.entries():
            if time.monotonic() > deadline:
                break
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
            except ConflictError:
                pass  # sent before, answer lost: it is on the server
            except StoreError:
                break  # unreachable or the server's database is down: keep it for later
            except (KindlingError, ValueError, KeyError, TypeError) as exc:
                self._prepare()
                path.replace(self.failed_dir / path.name)
                failed.append(f"{path.name}: {exc}")
                continue
            path.unlink(missing_ok=True)
            delivered += 1
        return Delivery(delivered, failed, sum(1 for _ in self.entries()))

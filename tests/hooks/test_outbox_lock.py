"""The remote outbox has one deliverer at a time (``client.outbox``): two hooks delivering at
once over a server, whose reads and writes are separate requests, could leave a session with a
second capsule that never closes (CI saw a claude-code team session end that way). A hook that
finds the outbox taken returns at once, and the holder delivers what it put after looking.

The memories here are local stores wrapped so that ``batch()`` is no transaction, as over
HTTP, and one deliverer can be held between its read and its write.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

from kindling import Kindling, Scope
from kindling.client.outbox import Spool
from kindling.memory import Memory
from kindling.spool import Record

SESSION = "sess-outbox"
REPO = "/work/outbox-repo"
INTENT = "Claude Code session in outbox-repo"


class OverHttp:
    """A memory whose ``batch()`` is no transaction (as ``RemoteKindling``'s), and whose
    ``open_capsule`` (or ``append_observation``) waits for ``gate`` once ``inside`` is set."""

    def __init__(self, kd: Kindling, hold: str | None = None) -> None:
        self.kd = kd
        self.hold = hold
        self.inside = threading.Event()
        self.gate = threading.Event()

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        yield

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.kd, name)
        if name != self.hold:
            return found

        def held(*args: Any, **kwargs: Any) -> Any:
            self.inside.set()
            assert self.gate.wait(10), "the other deliverer never finished"
            self.hold = None  # once
            return found(*args, **kwargs)

        return held


def record(op: str, ts: int, n: int = 0) -> Record:
    if op == "observation":
        return Record(
            op,
            ts,
            session_id=SESSION,
            repo_id=REPO,
            intent=INTENT,
            id=f"00000000-0000-4000-8000-{n:012d}",
            kind="command",
            content=f"$ step {n}",
        )
    content = "done" if op == "close" else None
    return Record(op, ts, session_id=SESSION, repo_id=REPO, intent=INTENT, content=content)


def put(box: Spool, *records: Record) -> None:
    for r in records:
        box.put(r.to_dict(), r.id or f"{r.op}-{r.ts}")


def deliver_in_thread(box: Spool, memory: OverHttp) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []

    def run() -> None:
        out.append(box.deliver(cast("Memory", memory), budget_s=30))

    thread = threading.Thread(target=run)
    thread.start()
    return thread, out


def test_two_deliverers_at_once_leave_one_capsule_closed(tmp_path: Path) -> None:
    """A reads "no capsule, none closed" and is held before it opens one; B delivers the
    whole session meanwhile. Without the lock B opens and closes a capsule and A then opens a
    second that stays open; with it, B returns at once and A delivers everything."""
    db = tmp_path / "server.db"
    box = Spool(tmp_path / "spool")
    put(box, record("open", 1_000), record("observation", 1_100, 1), record("close", 1_200))
    with Kindling.open(db) as a_kd, Kindling.open(db) as b_kd:
        a = OverHttp(a_kd, hold="open_capsule")
        thread, a_done = deliver_in_thread(box, a)
        assert a.inside.wait(10)
        b_done = box.deliver(cast("Memory", OverHttp(b_kd)), budget_s=5)
        a.gate.set()
        thread.join(20)
        capsules = a_kd.list_capsules(scope=Scope(session_id=SESSION), limit=10)
    assert (b_done.delivered, b_done.left) == (0, 3)  # the outbox was taken: nothing applied
    assert (a_done[0].delivered, a_done[0].failed, a_done[0].left) == (3, [], 0)
    assert [(c.status, c.opened_at, c.closed_at) for c in capsules] == [("closed", 1_000, 1_200)]
    assert not list(box.entries())


def test_what_a_hook_puts_while_another_delivers_is_delivered_by_the_holder(
    tmp_path: Path,
) -> None:
    """B's record comes after A listed the outbox; B finds it taken and returns; A looks
    again once it lets go, so B's record does not wait for the next hook."""
    db = tmp_path / "server.db"
    box = Spool(tmp_path / "spool")
    put(box, record("open", 1_000), record("observation", 1_100, 1))
    with Kindling.open(db) as a_kd, Kindling.open(db) as b_kd:
        a = OverHttp(a_kd, hold="append_observation")
        thread, a_done = deliver_in_thread(box, a)
        assert a.inside.wait(10)
        put(box, record("close", 1_200))
        b_done = box.deliver(cast("Memory", OverHttp(b_kd)), budget_s=5)
        a.gate.set()
        thread.join(20)
        capsules = a_kd.list_capsules(scope=Scope(session_id=SESSION), limit=10)
    assert (b_done.delivered, b_done.left) == (0, 2)  # the open was applied before A held
    assert (a_done[0].delivered, a_done[0].left) == (3, 0)
    assert [c.status for c in capsules] == ["closed"]


def test_a_deliverer_may_wait_its_turn(tmp_path: Path) -> None:
    """The flusher's ``wait_s``: it waits for the holder, then delivers what is left."""
    db = tmp_path / "server.db"
    box = Spool(tmp_path / "spool")
    put(box, record("open", 1_000), record("observation", 1_100, 1))
    with Kindling.open(db) as a_kd, Kindling.open(db) as b_kd:
        a = OverHttp(a_kd, hold="append_observation")
        thread, a_done = deliver_in_thread(box, a)
        assert a.inside.wait(10)
        put(box, record("close", 1_200))
        threading.Timer(0.3, a.gate.set).start()
        b_done = box.deliver(cast("Memory", OverHttp(b_kd)), budget_s=20, wait_s=20)
        thread.join(20)
        capsules = b_kd.list_capsules(scope=Scope(session_id=SESSION), limit=10)
    assert b_done.left == 0
    assert a_done[0].delivered + b_done.delivered == 3
    assert [c.status for c in capsules] == ["closed"]


def test_the_lock_lies_beside_the_outbox_private(tmp_path: Path) -> None:
    """Not an entry, never in the folder a check for leftovers reads; mode 0600."""
    box = Spool(tmp_path / "spool")
    put(box, record("open", 1_000))
    with Kindling.open(tmp_path / "k.db") as kd:
        done = box.deliver(kd)
    assert (done.delivered, done.left) == (1, 0)
    assert sorted(p.name for p in (tmp_path / "spool").rglob("*")) == ["failed"]
    assert (tmp_path / "spool.lock").stat().st_mode & 0o777 == 0o600

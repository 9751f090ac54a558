"""Hook records have one interpreter, ``records.apply``: the same records drained from a local
spool and delivered through the remote outbox to ``kindling serve`` leave the same memory
(both backends), and the one rule from a session to its capsule is tested here, once."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from kindling import Kindling, Scope
from kindling.client.front import RemoteKindling
from kindling.client.outbox import Spool
from kindling.engine.drain import drain
from kindling.spool import Record, pending, spool_dir, write_record
from tests.support.pg import pg_schema
from tests.support.server import kindling, running_server

pytest.importorskip("uvicorn")

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

REPO = "/work/shop"
INTENT = "Claude Code session in shop"


def rec(op: str, ts: int, session: str, **fields: Any) -> Record:
    return Record(op, ts, session_id=session, repo_id=REPO, intent=INTENT, **fields)


def obs(n: int, ts: int, session: str) -> Record:
    rid = f"00000000-0000-4000-8000-{n:012d}"
    return rec("observation", ts, session, id=rid, kind="command", content=f"$ step {n}")


def prompt(n: int, ts: int, session: str) -> Record:
    rid = f"00000000-0000-4000-8000-{n:012d}"
    return rec(
        "observation", ts, session, id=rid, kind="message", content=f"step {n}, please",
        provenance={"role": "user"},
    )  # fmt: skip


# Each session shows one part of the rule (records.session_capsule). Two batches, each applied
# in time order (the spool's), the second after the first: the late ones come after the end.
RECORDS = [
    [
        # a: opened by SessionStart, closed keeping Stop's summary
        rec("open", 1_000, "a"),
        obs(1, 1_100, "a"),
        rec("summary", 1_200, "a", content="fixed the login bug", confidence=0.4),
        rec("close", 1_300, "a", content="transcript tail", confidence=0.4, replace=False),
        # b: no SessionStart (OpenCode's may come late): its first record opens the capsule
        rec("summary", 500, "b", content="first words", confidence=0.4),
        obs(4, 600, "b"),
        rec("close", 700, "b", content="last words", confidence=0.4),
        # c: only a close: nothing to close, nothing opened
        rec("close", 800, "c", content="orphan", confidence=0.4),
    ],
    [
        # a, late: a replay changes nothing, and what was recorded before the end but
        # applied after it (a refresher, a second drainer) opens no second capsule
        rec("open", 1_050, "a"),
        obs(1, 1_100, "a"),
        obs(2, 1_250, "a"),
        rec("close", 1_300, "a", content="transcript tail", confidence=0.4, replace=False),
        # a, after its end: a tool's record that ran late (a background hook) joins nothing;
        # the person's next prompt resumes the session in a new capsule
        obs(5, 1_900, "a"),
        prompt(3, 2_000, "a"),
        obs(6, 2_100, "a"),
    ],
]


def snapshot(store: str) -> dict[str, Any]:
    with Kindling.open(store) as kd:
        out: dict[str, Any] = {}
        for session in ("a", "b", "c"):
            scope = Scope(session_id=session)
            contents = {o.id: o.content for o in kd.list_observations(scope=scope, limit=50)}
            capsules = []
            for c in sorted(kd.list_capsules(scope=scope, limit=50), key=lambda c: c.opened_at):
                summary = kd.get_summary(c.summary_id) if c.summary_id else None
                capsules.append(
                    (
                        c.status,
                        c.opened_at,
                        c.closed_at,
                        c.intent,
                        (summary.content, summary.confidence) if summary else None,
                        sorted(contents.pop(i) for i in c.observation_ids),
                    )
                )
            out[session] = {"capsules": capsules, "unattached": sorted(contents.values())}
    return out


@contextmanager
def another_store(store_backend: str, tmp_path: Path) -> Iterator[str]:
    if store_backend == "sqlite":
        yield str(tmp_path / "local.db")
        return
    with pg_schema() as url:
        yield url


@pytest.mark.parametrize("team", [None, "web"])
def test_the_drain_and_the_remote_path_leave_the_same_memory(
    store_url: str, store_backend: str, tmp_path: Path, team: str | None
) -> None:
    """With a personal token and with a team's (which reads nothing, not even a session's
    capsules, without naming the repository)."""
    with another_store(store_backend, tmp_path) as local:
        directory = spool_dir(str(tmp_path / "spooled.db"))
        with Kindling.open(local, drain_spool=False) as kd:
            for batch in RECORDS:
                for record in batch:
                    write_record(directory, record)
                report = drain(kd, directory)
                assert report.bad == []
        assert pending(directory) == []
        drained = snapshot(local)

    made = ["token", "create", "--user", "alice"] + (["--team", team] if team else [])
    token = kindling(store_url, *made).stdout.split()[-1]
    if team:
        assert kindling(store_url, "token", "grant", "--team", team, "--repo", REPO).returncode == 0
    box = Spool(tmp_path / "outbox")
    with running_server(store_url) as (url, _proc):
        for batch in RECORDS:
            for record in sorted(batch, key=lambda r: r.ts):  # as the hooks put them
                box.put(record.to_dict(), record.id or "x")
            delivery = box.deliver(RemoteKindling(url, token), budget_s=60)
            assert (delivery.failed, delivery.left) == ([], 0)
    assert snapshot(store_url) == drained

    # The rule, once (records.session_capsule):
    a, b, c = drained["a"], drained["b"], drained["c"]
    ended, resumed = a["capsules"]
    assert ended == ("closed", 1_000, 1_300, INTENT, ("fixed the login bug", 0.4), ["$ step 1"])
    assert resumed == ("open", 2_000, None, INTENT, None, ["$ step 6", "step 3, please"])
    assert a["unattached"] == ["$ step 2", "$ step 5"]  # late: its session had ended
    assert b["capsules"] == [
        ("closed", 500, 700, INTENT, ("last words", 0.4), ["$ step 4"]),
    ]
    assert c == {"capsules": [], "unattached": []}


def test_a_record_reads_back_as_it_was_written() -> None:
    for record in RECORDS[0] + RECORDS[1]:
        assert Record.from_dict(record.to_dict()) == record
    for bad in ({"op": "drop", "ts": 1}, {"op": "open", "ts": "1"}, {"op": "observation", "ts": 1}):
        with pytest.raises(ValueError, match="record"):
            Record.from_dict(bad)


def test_a_session_that_moves_to_another_repository_keeps_its_capsule(tmp_path: Path) -> None:
    """The session's open capsule is looked up in the record's repository (a team token reads
    nothing without one); a record of the session from another repository still joins it."""
    from kindling.records import apply

    with Kindling.open(tmp_path / "k.db") as kd:
        assert apply(rec("open", 1_000, "m"), kd)
        moved = Record(
            "observation",
            1_100,
            session_id="m",
            repo_id="/work/other",
            intent=INTENT,
            id="00000000-0000-4000-8000-000000000099",
            kind="command",
            content="$ make",
        )
        assert apply(moved, kd)
        [capsule] = kd.list_capsules()
    assert capsule.scope.repo_id == REPO
    assert list(capsule.observation_ids) == [moved.id]

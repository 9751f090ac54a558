"""The spool: private scrubbed files, drained exactly once into the database."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from kindling import Kindling, Scope
from kindling.engine.drain import DRAIN_LOCK, drain
from kindling.spool import Record, pending, spool_dir, write_record

GITHUB = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
TS = 1_767_225_600_000


def put(directory: str, data: dict[str, object]) -> str:
    """``write_record`` of a record written as its dict."""
    return write_record(directory, Record.from_dict(data))


def obs_record(n: int, content: str = "ran the tests", **extra: object) -> dict[str, object]:
    return {
        "op": "observation",
        "id": f"00000000-0000-4000-8000-{n:012d}",
        "ts": TS + n,
        "kind": "command",
        "content": content,
        "provenance": {"source": "test", "note": content},
        "session_id": "s1",
        "repo_id": "/repo",
        "intent": "Claude Code session in repo",
        **extra,
    }


def test_records_are_private_and_scrubbed(tmp_path: Path) -> None:
    spool = spool_dir(str(tmp_path / "data" / "k.db"))
    path = Path(put(spool, obs_record(1, f"export GITHUB_TOKEN={GITHUB}")))
    assert stat.S_IMODE(os.stat(spool).st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    raw = path.read_bytes()
    assert GITHUB.encode() not in raw
    assert b"[REDACTED:github_token]" in raw
    assert b'"redactedKinds": ["github_token"]' in raw
    assert [p.name for p in Path(spool).iterdir()] == [path.name]  # no temporary left behind


def test_drain_applies_each_record_once_even_when_replayed(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    spool = spool_dir(str(db))
    for n in range(3):
        put(spool, obs_record(n))
    saved = tmp_path / "saved"
    shutil.copytree(spool, saved)
    with Kindling.open(db) as kd:  # opening drains
        assert pending(spool) == []
        [capsule] = kd.list_capsules(scope=Scope(session_id="s1"))
        assert capsule.intent == "Claude Code session in repo"
        assert capsule.opened_at == TS  # the time of the first event, not of the drain
        # A crash between commit and delete leaves the files: draining them again is harmless.
        shutil.rmtree(spool)
        shutil.copytree(saved, spool)
        report = drain(kd, spool)
        assert (report.applied, report.skipped, report.bad) == (0, 3, [])
        obs = kd.list_observations(limit=10)
        assert sorted(o.id for o in obs) == sorted(str(obs_record(n)["id"]) for n in range(3))
        assert set(kd.get_capsule(capsule.id).observation_ids) == {o.id for o in obs}


def test_a_replay_does_not_bring_back_a_forgotten_event(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    spool = spool_dir(str(db))
    path = put(spool, obs_record(7, "the word zanzibar"))
    record = Path(path).read_bytes()
    with Kindling.open(db) as kd:
        kd.forget(str(obs_record(7)["id"]))
        Path(path).write_bytes(record)
        assert drain(kd, spool).skipped == 1
        assert "zanzibar" not in kd.get_observation(str(obs_record(7)["id"])).content


def test_summary_and_close_records_replay_harmlessly(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    spool = spool_dir(str(db))
    base = {"session_id": "s1", "repo_id": "/repo", "intent": "Claude Code session in repo"}
    put(spool, {**base, "op": "summary", "ts": TS, "content": "first", "confidence": 0.4})
    put(spool, {**base, "op": "close", "ts": TS + 5, "content": "done", "replace": True})
    with Kindling.open(db) as kd:
        [capsule] = kd.list_capsules(scope=Scope(session_id="s1"))
        assert (capsule.status, capsule.closed_at) == ("closed", TS + 5)
        assert kd.get_summary(capsule.summary_id or "").content == "done"
        # The same records again (a crash before their files were removed): nothing changes,
        # and no second capsule is opened for a session that already ended.
        put(spool, {**base, "op": "summary", "ts": TS, "content": "first"})
        put(spool, {**base, "op": "close", "ts": TS + 5, "content": "done"})
        report = drain(kd, spool)
        assert (report.applied, report.skipped) == (0, 2)
        assert kd.list_capsules(scope=Scope(session_id="s1")) == [kd.get_capsule(capsule.id)]


def test_a_damaged_record_is_set_aside_and_the_rest_applied(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    spool = spool_dir(str(db))
    put(spool, obs_record(1))
    Path(spool, "0000000000001-1-aaaa.json").write_text("{not json", encoding="utf-8")
    put(spool, {**obs_record(2), "kind": "no-such-kind"})
    put(spool, obs_record(3))
    with Kindling.open(db, scrub_secrets=True) as kd:
        report = drain(kd, spool)  # open drained already; nothing left but the bad ones
        assert report.applied == 0
        assert len(kd.list_observations()) == 2
    bad = sorted(p.name for p in Path(spool).iterdir() if p.name != DRAIN_LOCK)
    assert len(bad) == 2
    assert all(name.endswith(".bad") for name in bad)  # kept for a human, never deleted


def test_a_locked_database_keeps_the_records_for_later(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    Kindling.open(db).close()
    spool = spool_dir(str(db))
    put(spool, obs_record(1))
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        from kindling.engine import Kindling as K
        from kindling.store.sqlite import SqliteStore

        kd = K(SqliteStore(db, busy_timeout_s=0.05))
        report = drain(kd, spool)
        assert report.locked
        assert len(pending(spool)) == 1
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with Kindling.open(db) as kd2:
        assert len(kd2.list_observations()) == 1
    assert pending(spool) == []


@settings(max_examples=40, deadline=None)
@given(
    content=st.text(st.characters(blacklist_categories=[]), min_size=1, max_size=300).filter(
        lambda t: t.strip() != ""
    )
)
def test_spooled_equals_direct(content: str) -> None:
    """Going through the spool stores exactly what the direct verb stores (same scrubber,
    same checks): the spool adds no second copy of the write path."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        spooled_db = Path(tmp, "a.db")
        put(spool_dir(str(spooled_db)), obs_record(1, content))
        with Kindling.open(spooled_db) as kd:
            spooled = kd.list_observations()
        with Kindling.open(Path(tmp, "b.db")) as kd:
            rec = obs_record(1, content)
            kd.open_capsule(intent=str(rec["intent"]), scope=Scope("s1", "/repo"), opened_at=TS)
            direct = kd.append_observation(
                id=str(rec["id"]),
                ts=TS + 1,
                kind="command",
                content=content,
                provenance={"source": "test", "note": content},
                scope=Scope("s1", "/repo"),
            )
        assert len(spooled) == 1
        assert (spooled[0].content, spooled[0].provenance) == (direct.content, direct.provenance)


def test_a_strange_spool_never_makes_opening_fail(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    Path(spool_dir(str(db))).write_text("not a directory", encoding="utf-8")
    with Kindling.open(db) as kd:  # a file where the spool should be: nothing to drain
        assert kd.list_observations() == []
    Path(spool_dir(str(db))).unlink()
    odd = Path(spool_dir(str(db)), "0000000000001-1-dir.json")
    odd.mkdir(parents=True)  # unreadable as a record
    put(spool_dir(str(db)), obs_record(1))
    with Kindling.open(db) as kd:
        assert len(kd.list_observations()) == 1
        report = drain(kd, spool_dir(str(db)))
    assert report.bad == [f"{odd.name}: cannot read it (Is a directory)"]
    assert odd.is_dir()  # left where it was


def test_a_spool_directory_made_by_someone_else_is_made_private(tmp_path: Path) -> None:
    spool = tmp_path / "k.db-spool"
    spool.mkdir(mode=0o755)
    os.chmod(spool, 0o755)
    put(str(spool), obs_record(1))
    assert stat.S_IMODE(spool.stat().st_mode) == 0o700


def test_one_drainer_at_a_time(tmp_path: Path) -> None:
    """A second drainer waits for the first (two side by side could apply one session's
    records out of order); one that waits its whole budget leaves the records to the other."""
    import fcntl
    import os

    db = tmp_path / "k.db"
    Kindling.open(db).close()
    spool = spool_dir(str(db))
    put(spool, obs_record(1))
    fd = os.open(os.path.join(spool, DRAIN_LOCK), os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another drainer at work
    try:
        with Kindling.open(db, drain_spool=False) as kd:
            report = drain(kd, spool, budget_s=0.2)
            assert (report.busy, report.applied, report.locked) == (True, 0, False)
            assert kd.list_observations() == []
    finally:
        os.close(fd)
    with Kindling.open(db, drain_spool=False) as kd:
        assert drain(kd, spool).applied == 1

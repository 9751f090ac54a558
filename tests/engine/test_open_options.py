"""``Kindling.open``'s options for callers such as hooks: ``read_only`` and ``busy_timeout_s``;
and the same options through ``entry.open_local``, with ``entry.drain``, as the hooks' local
writer opens the database without importing the engine."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from kindling import DatabaseLockedError, InvalidInputError, Kindling, SchemaError, StoreError
from kindling.entry import drain, open_for_hooks, open_local, target_of
from kindling.spool import Record, pending, spool_dir, write_record
from tests.support.paths import TESTS

FIXTURE = TESTS / "fixtures" / "kindling-v5-sample.db"


def put(directory: str, data: dict[str, object]) -> str:
    """``write_record`` of a record written as its dict."""
    return write_record(directory, Record.from_dict(data))


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "k.db"
    with Kindling.open(path) as kd:
        kd.append_observation(kind="error", content="jwt.verify is not a function")
    return path


def test_read_only_reads_and_refuses_every_write(db: Path) -> None:
    before = _digest(db)
    with Kindling.open(db, read_only=True) as kd:
        assert [c.entity.content for c in kd.retrieve("jwt").candidates] == [
            "jwt.verify is not a function"
        ]
        with pytest.raises(StoreError, match="opened read-only: open it without read_only"):
            kd.append_observation(kind="message", content="never stored")
        with pytest.raises(StoreError, match="opened read-only"):
            kd.open_capsule(intent="never opened")
    assert _digest(db) == before
    with Kindling.open(db) as kd:
        assert sum(kd.stats().observations_by_kind.values()) == 1


def test_read_only_never_creates_a_database(tmp_path: Path) -> None:
    missing = tmp_path / "nothing" / "here.db"
    with pytest.raises(StoreError, match="no file"):
        Kindling.open(missing, read_only=True)
    assert not missing.parent.exists()


def test_read_only_never_migrates(tmp_path: Path) -> None:
    old = tmp_path / "v5.db"
    shutil.copy(FIXTURE, old)
    before = _digest(old)
    with pytest.raises(SchemaError, match="open it once without read_only"):
        Kindling.open(old, read_only=True)
    assert _digest(old) == before


WAITING = {
    "op": "observation",
    "id": "00000000-0000-4000-8000-000000000001",
    "ts": 1_700_000_000_000,
    "kind": "command",
    "content": "waiting in the spool",
    "provenance": {},
    "session_id": "s1",
    "repo_id": "/repo",
    "intent": "a session",
}


def test_read_only_leaves_the_spool_alone(db: Path) -> None:
    directory = spool_dir(str(db))
    put(directory, WAITING)
    with Kindling.open(db, read_only=True) as kd:
        assert sum(kd.stats().observations_by_kind.values()) == 1
    assert len(pending(directory)) == 1
    with Kindling.open(db) as kd:  # an ordinary open applies it
        assert sum(kd.stats().observations_by_kind.values()) == 2
    assert pending(directory) == []


@pytest.mark.parametrize("bad", ["yes", 1, None])
def test_read_only_must_be_a_bool(db: Path, bad: object) -> None:
    with pytest.raises(InvalidInputError, match="read_only"):
        Kindling.open(db, read_only=bad)  # type: ignore[arg-type]


def test_an_in_memory_database_cannot_be_read_only() -> None:
    with pytest.raises(InvalidInputError, match="in-memory"):
        Kindling.open(":memory:", read_only=True)


@pytest.mark.parametrize("bad", [True, -1, 601, float("nan"), "5", [1]])
def test_busy_timeout_is_a_bounded_number(db: Path, bad: object) -> None:
    with pytest.raises(InvalidInputError, match="busy_timeout_s"):
        Kindling.open(db, busy_timeout_s=bad)  # type: ignore[arg-type]


def test_a_short_busy_timeout_gives_up_on_a_held_lock(db: Path) -> None:
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with Kindling.open(db, busy_timeout_s=0.05, drain_spool=False) as kd:
            assert kd.retrieve("jwt").candidates  # WAL: reads never wait for the writer
            with pytest.raises(DatabaseLockedError):
                kd.append_observation(kind="message", content="waits for the lock")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with Kindling.open(db) as kd:
        assert sum(kd.stats().observations_by_kind.values()) == 1


@pytest.mark.requires("postgres")
def test_postgres_read_only_and_lock_timeout() -> None:
    from tests.support.pg import pg_schema

    with pg_schema() as url:
        with pytest.raises(SchemaError, match="without read_only"):
            Kindling.open(url, read_only=True)  # a new schema is never created read-only
        with Kindling.open(url) as kd:
            obs = kd.append_observation(kind="error", content="jwt.verify is not a function")
        with Kindling.open(url, read_only=True) as kd:
            assert [c.entity.id for c in kd.retrieve("jwt").candidates] == [obs.id]
            with pytest.raises(StoreError, match="opened read-only"):
                kd.append_observation(kind="message", content="never stored")
        import psycopg

        with psycopg.connect(url) as holder:  # a transaction that holds the row's lock
            holder.execute("SELECT 1 FROM observations FOR UPDATE")
            with (
                Kindling.open(url, busy_timeout_s=0.1) as kd,
                pytest.raises(DatabaseLockedError),
            ):
                kd.forget(obs.id)
        with Kindling.open(url) as kd:
            assert kd.get_observation(obs.id).content == "jwt.verify is not a function"


def test_the_hooks_writer_leaves_the_spool_and_drain_applies_it(db: Path) -> None:
    """What the hooks' writer does (``hooks.runner``, ``hooks.refresh``): open without applying
    the spool, then apply it within a budget, through ``kindling.entry`` alone."""
    directory = spool_dir(str(db))
    put(directory, WAITING)
    with open_for_hooks(str(db)) as kd:
        assert isinstance(kd, Kindling)
        assert kd.semantic_mode is None  # hooks stay lexical, whatever is installed
        assert sum(kd.stats().observations_by_kind.values()) == 1
        assert len(pending(directory)) == 1  # left for ``drain``
        report = drain(kd, directory, budget_s=5.0)
        assert (report.applied, report.skipped, report.bad) == (1, 0, [])
        assert sum(kd.stats().observations_by_kind.values()) == 2
    assert pending(directory) == []


def test_the_hooks_writer_passes_a_short_busy_timeout(db: Path) -> None:
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with open_for_hooks(str(db), busy_timeout_s=0.05) as kd, pytest.raises(DatabaseLockedError):
            kd.append_observation(kind="message", content="waits for the lock")
    finally:
        holder.execute("ROLLBACK")
        holder.close()


@pytest.mark.parametrize(
    ("option", "bad"), [("busy_timeout_s", -1), ("busy_timeout_s", "5"), ("semantic", "maybe")]
)
def test_open_local_refuses_bad_options_in_one_line(db: Path, option: str, bad: object) -> None:
    with pytest.raises(InvalidInputError, match=option):
        open_local(target_of(str(db)), **{option: bad})  # type: ignore[arg-type]

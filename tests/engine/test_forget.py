"""Forget means gone: absent from the table, the FTS index and every database file on disk."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kindling import Kindling, Scope

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

# Porter stems "quuxwidgets" to "quuxwidget": search the raw files for the stem's prefix, which
# the word, its stem and any prefix-compressed index term all contain.
WORD = "zanzibarquuxwidgets"
NEEDLE = WORD[:14].encode()


def _files(db_path: Path) -> list[Path]:
    return sorted(db_path.parent.glob(db_path.name + "*"))


def _hits(db_path: Path, needle: bytes = NEEDLE) -> dict[str, int]:
    return {f.name: f.read_bytes().count(needle) for f in _files(db_path)}


def _fill(kd: Kindling, n: int) -> None:
    with kd.batch():
        for i in range(n):
            kd.append_observation(kind="command", content=f"npm run build step {i} passed")


def test_forgotten_word_is_absent_from_every_database_file(db_path: Path) -> None:
    with Kindling.open(db_path) as kd:
        _fill(kd, 500)
        secret = kd.append_observation(
            kind="command",
            content=f"echo {WORD} > notes.txt",
            provenance={"cmd": f"echo {WORD}", "nested": {"args": [WORD]}},
            scope=Scope(repo_id="/r"),
        )
        _fill(kd, 500)  # later segments and pages on top of the one holding the word
        assert sum(_hits(db_path).values()) > 0  # the byte search does see it before
        assert kd.retrieve(query=WORD).candidates

        report = kd.forget(secret.id)

        assert report.complete
        assert report.observations == (secret.id,)
        forgotten = kd.get_observation(secret.id)
        assert forgotten.redacted
        assert forgotten.content == "[redacted]"
        assert forgotten.provenance == {}
        assert not kd.retrieve(query=WORD).candidates
        assert not kd.retrieve(query=WORD, include_redacted=True).candidates
        assert kd.store.wal_purged  # type: ignore[attr-defined]
        files = _hits(db_path)
        assert {"kindling.db", "kindling.db-wal", "kindling.db-shm"} <= set(files)
        assert files == dict.fromkeys(files, 0), files
        conn = kd.store.connection  # type: ignore[attr-defined]
        conn.execute("INSERT INTO observations_fts(observations_fts) VALUES('integrity-check')")
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert sum(_hits(db_path).values()) == 0  # and after close


def test_forgets_in_one_batch_are_all_gone(db_path: Path) -> None:
    words = [f"{WORD}{n}" for n in ("alpha", "beta", "gamma")]
    with Kindling.open(db_path) as kd:
        _fill(kd, 200)
        ids = [kd.append_observation(kind="error", content=f"failed: {w}").id for w in words]
        kept = kd.append_observation(kind="error", content="failed: keepthisword")
        with kd.batch():
            for obs_id in ids:
                kd.forget(obs_id)
        assert all(kd.get_observation(i).redacted for i in ids)
        assert sum(_hits(db_path).values()) == 0
        assert [c.entity.id for c in kd.retrieve(query="keepthisword").candidates] == [kept.id]


def test_forget_rolled_back_with_its_batch_forgets_nothing(db_path: Path) -> None:
    with Kindling.open(db_path) as kd:
        obs = kd.append_observation(kind="command", content=f"echo {WORD}")

        def forget_then_fail() -> None:
            with kd.batch():
                kd.forget(obs.id)
                raise RuntimeError("abort")

        with pytest.raises(RuntimeError):
            forget_then_fail()
        assert not kd.get_observation(obs.id).redacted
        assert kd.retrieve(query=WORD).candidates


def test_forget_twice_clears_the_summaries_derived_from_it(kd: Kindling) -> None:
    capsule = kd.open_capsule(intent="fix login")
    obs = kd.append_observation(kind="error", content=f"{WORD} failed", capsule_id=capsule.id)
    kd.close_capsule(capsule.id, summary=f"fixed {WORD}", evidence_refs=[obs.id])
    kd.pin("observation", obs.id, reason="the failure")
    first = kd.forget(obs.id)
    again = kd.forget(obs.id)  # idempotent, and purges again
    assert kd.get_observation(obs.id).redacted
    summary = kd.list_summaries()[0]
    assert first.summaries == again.summaries == (summary.id,)
    assert summary.content == "[redacted]"
    assert summary.evidence_refs == (obs.id,)  # the ids stay, the text goes
    result = kd.retrieve(query=WORD)
    assert not result.candidates
    assert not result.pins


def test_forget_in_memory_store(tmp_path: Path) -> None:
    with Kindling.open(":memory:") as kd:
        obs = kd.append_observation(kind="command", content=f"echo {WORD}")
        assert kd.forget(obs.id).complete
        assert kd.get_observation(obs.id).redacted
        assert not kd.retrieve(query=WORD).candidates


def test_fts_stays_consistent_after_many_forgets(db_path: Path) -> None:
    with Kindling.open(db_path) as kd:
        ids = [
            kd.append_observation(kind="command", content=f"word{i} common").id for i in range(60)
        ]
        for obs_id in ids[::3]:
            kd.forget(obs_id)
        conn = kd.store.connection  # type: ignore[attr-defined]
        conn.execute("INSERT INTO observations_fts(observations_fts) VALUES('integrity-check')")
        found = {c.entity.id for c in kd.retrieve(query="common", max_candidates=100).candidates}
        assert found == set(ids) - set(ids[::3])
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_reader_holding_the_wal_only_delays_the_purge(db_path: Path) -> None:
    from kindling.store.sqlite import SqliteStore

    with Kindling(SqliteStore(db_path, busy_timeout_s=0.2)) as kd, Kindling.open(db_path) as other:
        _fill(kd, 100)
        obs = kd.append_observation(kind="command", content=f"echo {WORD}")
        reader = other.store.connection  # type: ignore[attr-defined]
        reader.execute("BEGIN")
        reader.execute("SELECT COUNT(*) FROM observations").fetchone()  # holds a snapshot
        kd.forget(obs.id)
        assert not kd.store.wal_purged  # type: ignore[attr-defined]
        assert _hits(db_path)["kindling.db-wal"] > 0  # old pages still there, for now
        assert not kd.retrieve(query=WORD).candidates  # gone from the index already
        reader.execute("COMMIT")
        kd.append_observation(kind="command", content="the next write retries the purge")
        assert kd.store.wal_purged  # type: ignore[attr-defined]
        assert sum(_hits(db_path).values()) == 0


def test_many_forgets_keep_the_index_readable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite 3.40's FTS5 adds a structure level on every 'optimize' and stops decoding past
    2,000: the store rebuilds the index before that (here the limit is lowered to 6)."""
    from kindling.store.sqlite import purge

    monkeypatch.setattr(purge, "MAX_FTS_LEVELS", 6)
    db = tmp_path / "k.db"
    with Kindling.open(db) as kd:
        with kd.batch():
            for i in range(2000):  # one large first segment: what makes the levels grow
                kd.append_observation(kind="command", content=f"history item {i} build")
        levels = []
        for n in range(12):
            obs = kd.append_observation(kind="message", content=f"zebra number {n}")
            kd.forget(obs.id)
            conn = sqlite3.connect(db)
            levels.append(purge.fts_levels(conn, "observations_fts"))
            conn.close()
        assert max(levels) <= 6 + 2  # grew, then started afresh
        assert len(set(levels)) > 1
        assert [o.id for o in kd.list_observations(limit=1)] != []
    with Kindling.open(db) as fresh:  # a new connection reads the index
        assert len(fresh.retrieve("history build", max_candidates=5).candidates) == 5
        assert fresh.retrieve("zebra").candidates == ()

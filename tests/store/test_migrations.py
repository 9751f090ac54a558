"""Migrations are ordered and additive; a fresh schema matches the committed snapshot, and an
upgraded TypeScript v5 database ends with the same tables, columns, indexes and triggers."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kindling import Kindling, NewObservation, Scope
from kindling.store.sqlite import index
from kindling.store.sqlite.migrations import LATEST_VERSION, MIGRATIONS
from tests.support.paths import TESTS

SNAPSHOT = TESTS / "fixtures" / "schema.txt"


def _shape(path: Path) -> str:
    """Tables with their columns, plus index and trigger names: what code relies on."""
    lines = []
    with sqlite3.connect(path) as conn:
        objects = conn.execute(
            "SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
            " ORDER BY type, name"
        ).fetchall()
        for kind, name, table in objects:
            if kind == "table":
                cols = [
                    f"{r[1]} {r[2]}{' NOT NULL' if r[3] else ''}{' PK' if r[5] else ''}"
                    for r in conn.execute(f"PRAGMA table_info('{name}')")
                ]
                lines.append(f"table {name}: {', '.join(cols)}")
            else:
                lines.append(f"{kind} {name} on {table}")
    return "\n".join(lines) + "\n"


def test_versions_are_ordered_and_named() -> None:
    versions = [m.version for m in MIGRATIONS]
    assert versions == sorted(set(versions))
    assert versions[:5] == [1, 2, 3, 4, 5]
    for m in MIGRATIONS:
        assert m.name.startswith(f"{m.version:03d}_"), m.name
    assert versions[-1] == LATEST_VERSION


def test_fresh_schema_matches_snapshot(tmp_path: Path) -> None:
    db = tmp_path / "fresh.db"
    Kindling.open(db).close()
    shape = _shape(db)
    if not SNAPSHOT.exists():
        SNAPSHOT.write_text(shape)
        pytest.fail(f"wrote a new snapshot to {SNAPSHOT}; review and commit it")
    assert shape == SNAPSHOT.read_text(), "schema changed: add a migration, update the snapshot"


def test_upgraded_v5_has_the_fresh_shape(tmp_path: Path, fixture_db: Path) -> None:
    fresh = tmp_path / "fresh.db"
    Kindling.open(fresh).close()
    Kindling.open(fixture_db).close()
    assert _shape(fixture_db) == _shape(fresh)


def test_reopening_is_a_no_op(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    Kindling.open(db).close()
    before = _shape(db)
    with Kindling.open(db) as kd:
        assert kd.stats().schema_version == LATEST_VERSION
    assert _shape(db) == before


def test_migration_17_links_a_step_written_late_to_the_step_after_it(tmp_path: Path) -> None:
    """A database indexed when a step kept the neighbour it had when written: after the upgrade
    a step written late, with an earlier time, is its successor's neighbour, in the index too
    (FTS5's own check passes), and steps written in order keep theirs."""
    db = tmp_path / "late.db"
    here = Scope(session_id="s1", repo_id="/r")
    with Kindling.open(db) as kd:
        for ts, text in ((1_000, "$ make alphabuild"), (3_000, "it passed"), (4_000, "later on")):
            kd.append_observation(kind="message", content=text, scope=here, ts=ts)
        kd.append_observation(kind="command", content="$ make betacheck", scope=here, ts=2_000)
    with sqlite3.connect(db) as conn:  # as the rule before migration 17 indexed them
        index.register_functions(conn)
        first = conn.execute("SELECT min(rowid) FROM observations").fetchone()[0]
        with index.reindexing(conn, [first + 1]):
            conn.execute(
                "UPDATE observation_context SET prev_rowid = ? WHERE rowid = ?", (first, first + 1)
            )
        conn.execute("DELETE FROM schema_migrations WHERE version = 17")
        conn.execute("PRAGMA user_version = 16")
    with Kindling.open(db) as kd:
        assert kd.stats().schema_version == LATEST_VERSION
        found = kd.retrieve("betacheck", scope=Scope(repo_id="/r"), now=10_000)
        by_text = {c.entity.content: c.explanation.context_only for c in found.candidates}
        assert by_text.get("it passed") is True
    with sqlite3.connect(db) as conn:
        index.register_functions(conn)
        links = conn.execute("SELECT rowid, prev_rowid FROM observation_context ORDER BY 1")
        assert [p for _, p in links] == [None, first + 3, first + 1, first]
        conn.execute("INSERT INTO observations_fts(observations_fts) VALUES('integrity-check')")


def test_migration_16_links_steps_of_one_millisecond_to_the_last_written(tmp_path: Path) -> None:
    """A database indexed when a step's neighbour among steps of one millisecond was the first
    written: after the upgrade it is the last written, in the index too (FTS5's own check
    passes), and a row without ties is left alone."""
    db = tmp_path / "ties.db"
    here = Scope(session_id="s1", repo_id="/r")
    with Kindling.open(db) as kd:
        kd.append_many(
            [
                NewObservation("command", "$ make alphabuild", here, ts=1_000),
                NewObservation("command", "$ make betacheck", here, ts=1_000),
                NewObservation("message", "it passed", here, ts=1_000),
                NewObservation("message", "later on", here, ts=2_000),
            ]
        )
    with sqlite3.connect(db) as conn:  # as the rule before migration 16 indexed them
        index.register_functions(conn)
        first = conn.execute("SELECT min(rowid) FROM observations").fetchone()[0]
        with index.reindexing(conn, [first + 2]):
            conn.execute(
                "UPDATE observation_context SET prev_rowid = ? WHERE rowid = ?", (first, first + 2)
            )
        conn.execute("DELETE FROM schema_migrations WHERE version = 16")
        conn.execute("PRAGMA user_version = 15")
    with Kindling.open(db) as kd:
        assert kd.stats().schema_version == LATEST_VERSION
        found = kd.retrieve("betacheck", scope=Scope(repo_id="/r"), now=10_000)
        by_text = {c.entity.content: c.explanation.context_only for c in found.candidates}
        assert by_text.get("it passed") is True
        found = kd.retrieve("alphabuild", scope=Scope(repo_id="/r"), now=10_000)
        assert "it passed" not in {c.entity.content for c in found.candidates}
    with sqlite3.connect(db) as conn:
        index.register_functions(conn)
        links = conn.execute("SELECT rowid, prev_rowid FROM observation_context ORDER BY 1")
        assert [p for _, p in links] == [None, first, first + 1, first + 2]
        conn.execute("INSERT INTO observations_fts(observations_fts) VALUES('integrity-check')")

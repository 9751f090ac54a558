"""A database file written by Kindling stays writable by plain SQLite (the ``sqlite3`` shell,
the TypeScript tool): no trigger calls a function only Kindling registers (issue 23). A
summary written, replaced and deleted through Python's ``sqlite3`` module, without Kindling's
functions, is indexed by the built-in triggers; Kindling then finds it, and FTS5's
integrity-check agrees with the index."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kindling import Kindling, Scope
from kindling.store.sqlite.doctor import check

SCOPE = Scope(repo_id="/plain", session_id="p1")


def _kindling_file(path: Path) -> str:
    """A file Kindling wrote: one closed capsule with a summary holding Japanese text."""
    with Kindling.open(path) as kd:
        cap = kd.open_capsule(intent="plain writes", scope=SCOPE)
        kd.append_observation(kind="message", content="first step", scope=SCOPE)
        kd.add_summary(cap.id, content="東京のデータベース移行は金曜日に決定")
        kd.close_capsule(cap.id)
        other = kd.open_capsule(intent="written elsewhere", scope=SCOPE)
        kd.close_capsule(other.id)
        return other.id


def _plain(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)  # no Kindling function registered
    with pytest.raises(sqlite3.OperationalError, match="no such function"):
        conn.execute("SELECT kindling_parts('x')")
    return conn


def _ids(kd: Kindling, query: str) -> list[str]:
    return [c.entity.id for c in kd.retrieve(query, scope=Scope(repo_id="/plain")).candidates]


@pytest.mark.parametrize("upgraded_v5", [False, True])
def test_plain_sqlite_writes_summaries(tmp_path: Path, fixture_db: Path, upgraded_v5: bool) -> None:
    path = fixture_db if upgraded_v5 else tmp_path / "k.db"
    capsule_id = _kindling_file(path)  # upgrades the v5 file first
    conn = _plain(path)
    conn.execute(
        "INSERT INTO summaries (id, capsule_id, content, confidence, created_at, evidence_refs)"
        " VALUES ('plain-1', ?, 'Decided: rotate the webhook secret nightly', 0.9, 1, '[]')",
        (capsule_id,),
    )
    conn.close()
    with Kindling.open(path) as kd:
        assert _ids(kd, "webhook secret") == ["plain-1"]
        assert _ids(kd, "データベース移行")  # Kindling's own summary keeps its segments
    conn = _plain(path)
    conn.execute("UPDATE summaries SET content = 'Decided: rotate it weekly' WHERE id = 'plain-1'")
    conn.execute("DELETE FROM summaries WHERE id != 'plain-1'")
    conn.close()
    with Kindling.open(path) as kd:
        assert _ids(kd, "webhook") == []  # the old text left the index
        assert _ids(kd, "weekly") == ["plain-1"]
        assert _ids(kd, "データベース移行") == []  # a deleted summary left it too
    assert check(str(path)).problems == ()

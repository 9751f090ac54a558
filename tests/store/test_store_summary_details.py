"""Migration 8 and the structured-summary verbs of the SQLite store."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from kindling import Scope
from kindling.model import Capsule, Summary, SummaryDetails
from kindling.store.sqlite import SqliteStore
from kindling.store.sqlite.migrations import MIGRATIONS


def _memory(store: SqliteStore, sid: str, repo: str, topic_id: str | None, status: str) -> None:
    store.insert_capsule(Capsule(f"cap-{sid}", "session", "t", "closed", 1, 1, Scope(repo_id=repo)))
    store.upsert_summary(Summary(sid, f"cap-{sid}", f"Summary: {sid}", 0.5, 1))
    store.insert_summary_details(
        SummaryDetails(sid, "topic", status, 1, 1, topic_id=topic_id)  # type: ignore[arg-type]
    )


def test_migration_8_is_named_and_additive(db_path: Path) -> None:
    step = {m.version: m for m in MIGRATIONS}[8]
    assert step.name == "008_structured_summaries"
    store = SqliteStore(db_path)
    store.close()
    with sqlite3.connect(db_path) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM schema_migrations ORDER BY 1")]
        assert "008_structured_summaries" in names
        columns = [r[1] for r in conn.execute("PRAGMA table_info(summary_details)")]
        assert columns[:3] == ["summary_id", "topic", "status"]


def test_details_round_trip(db_path: Path) -> None:
    store = SqliteStore(db_path)
    store.insert_capsule(Capsule("c1", "session", "t", "closed", 1, 1, Scope(repo_id="/w")))
    store.upsert_summary(Summary("s1", "c1", "text", 0.5, 1))
    details = SummaryDetails(
        "s1",
        "Topic ü",
        "DecisionRecord",
        10,
        11,
        context="ctx",
        topic_id="t1",
        plan_id="014",
        session_id="sess",
        source_created_at=5,
        decisions=("a", "b"),
        rationale=("r",),
        open_questions=(),
        next_steps=("n",),
        references=("docs/x.md",),
    )
    store.insert_summary_details(details)
    assert store.get_summary_details(["s1", "missing"]) == {"s1": details}
    store.close()


def test_supersede_only_active_same_topic_same_workspace(db_path: Path) -> None:
    store = SqliteStore(db_path)
    _memory(store, "a", "/w1", "t", "Active")
    _memory(store, "b", "/w1", "t", "DecisionRecord")
    _memory(store, "c", "/w2", "t", "Active")
    _memory(store, "d", "/w1", "other", "Active")
    _memory(store, "e", "/w1", "t", "Active")
    assert store.supersede_active("/w1", "t", keep_id="e", updated_at=99) == ["a"]
    found = store.get_summary_details(["a", "b", "c", "d", "e"])
    assert {k: v.status for k, v in found.items()} == {
        "a": "Superseded",
        "b": "DecisionRecord",
        "c": "Active",
        "d": "Active",
        "e": "Active",
    }
    assert found["a"].updated_at == 99
    assert found["e"].updated_at == 1
    store.close()

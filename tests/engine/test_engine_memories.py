"""Kindling.add_memory / search_memories: atomic writes, supersession, relevance."""

from __future__ import annotations

from pathlib import Path

import pytest

from kindling import InvalidInputError, Kindling, Scope
from kindling.model import ChatMemoryFields

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)


def test_legacy_memory_has_no_details(kd: Kindling) -> None:
    mem = kd.add_memory("/w", "We removed the 150-char limit.")
    assert mem.details is None
    capsule = kd.get_capsule(mem.summary.capsule_id)
    assert capsule.status == "closed"
    assert capsule.scope == Scope(repo_id="/w")
    assert capsule.intent == "We removed the 150-char limit."
    [match] = kd.search_memories("/w", "limit")
    assert match.memory.summary == mem.summary
    assert match.memory.details is None


def test_structured_memory_round_trip(kd: Kindling) -> None:
    fields = ChatMemoryFields(
        topic="  Plan 014 ",
        topic_id="t1",
        session_id="s1",
        decisions=(" keep it ",),
        source_created_at=5,
    )
    mem = kd.add_memory("/w", "Summary: Plan 014", fields)
    assert mem.details is not None
    assert mem.details.topic == "Plan 014"
    assert mem.details.decisions == ("keep it",)
    assert mem.details.status == "Active"
    assert mem.details.created_at == mem.details.updated_at == kd.clock()
    assert kd.get_capsule(mem.summary.capsule_id).scope == Scope(session_id="s1", repo_id="/w")
    [match] = kd.search_memories("/w", "plan")
    assert match.memory.details == mem.details


def test_newest_active_supersedes_in_same_workspace_only(kd: Kindling) -> None:
    first = kd.add_memory("/w", "Summary: a", ChatMemoryFields(topic="a", topic_id="t"))
    other = kd.add_memory("/other", "Summary: a", ChatMemoryFields(topic="a", topic_id="t"))
    record = kd.add_memory(
        "/w", "Summary: a", ChatMemoryFields(topic="a", topic_id="t", status="DecisionRecord")
    )
    assert record.superseded_ids == ()
    second = kd.add_memory("/w", "Summary: a", ChatMemoryFields(topic="a", topic_id="t"))
    assert second.superseded_ids == (first.summary.id,)
    statuses = {
        m.memory.summary.id: m.memory.details.status  # type: ignore[union-attr]
        for ws in ("/w", "/other")
        for m in kd.search_memories(ws, "a")
    }
    assert statuses == {
        first.summary.id: "Superseded",
        other.summary.id: "Active",
        record.summary.id: "DecisionRecord",
        second.summary.id: "Active",
    }


def test_bad_fields_write_nothing(kd: Kindling) -> None:
    with pytest.raises(InvalidInputError, match="decisions"):
        kd.add_memory("/w", "text", ChatMemoryFields(topic="t", decisions=("ok", " ")))
    with pytest.raises(InvalidInputError, match="status"):
        kd.add_memory("/w", "text", ChatMemoryFields(topic="t", status="Done"))  # type: ignore[arg-type]
    assert kd.stats().summaries == 0
    assert sum(kd.stats().capsules_by_status.values()) == 0


def test_failed_supersession_rolls_back_the_whole_write(
    kd: Kindling, monkeypatch: pytest.MonkeyPatch
) -> None:
    kd.add_memory("/w", "Summary: a", ChatMemoryFields(topic="a", topic_id="t"))

    def boom(*args: object, **kwargs: object) -> list[str]:
        raise InvalidInputError("injected")

    monkeypatch.setattr(kd.store, "supersede_active", boom)
    with pytest.raises(InvalidInputError, match="injected"):
        kd.add_memory("/w", "Summary: b", ChatMemoryFields(topic="b", topic_id="t"))
    assert kd.stats().summaries == 1
    assert sum(kd.stats().capsules_by_status.values()) == 1


def test_relevance_matches_the_provider(kd: Kindling) -> None:
    kd.add_memory("/w", "jwt verify fails in middleware")
    kd.add_memory("/w", "unrelated text about cats")
    kd.add_memory("/w2", "jwt again")
    matches = kd.search_memories("/w", "jwt middleware")
    assert len(matches) == 1
    hit = next(
        c
        for c in kd.retrieve("jwt middleware", scope=Scope(repo_id="/w")).candidates
        if c.entity.id == matches[0].memory.summary.id
    )
    assert matches[0].relevance == hit.explanation.relevance
    assert 0.0 < matches[0].relevance <= 1.0
    assert kd.search_memories("/w", "???") == []


def test_v5_summaries_are_legacy_memories_of_their_repo(fixture_db: Path) -> None:
    with Kindling.open(fixture_db) as kd:
        [match] = kd.search_memories("/work/webapp", "login")
        assert match.memory.summary.id == "sum-auth"
        assert match.memory.details is None
        assert kd.search_memories("/work/etl", "login") == []

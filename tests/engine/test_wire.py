"""``model.wire``: every value's ``to_dict()`` JSON reads back into an equal value, through
JSON text (what the HTTP client and bundles see), and a wrong shape is an ``InvalidInputError``
that names the place."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kindling import ChatMemoryFields, Kindling, NewObservation, Scope
from kindling.errors import InvalidInputError
from kindling.model import wire
from kindling.model.reports import ApiToken, ImportReport, RepoActivity


def through_json(data: Any) -> Any:
    return json.loads(json.dumps(data, ensure_ascii=False))


@pytest.fixture
def filled(kd: Kindling) -> dict[str, Any]:
    """A store with one of everything, and the values its verbs answered."""
    where = Scope(repo_id="webapp", session_id="s1")
    cap = kd.open_capsule(intent="fix the login", scope=where)
    obs = kd.append_observation(
        kind="error", content="login fails: KeyError user_id", scope=where, provenance={"a": [1]}
    )
    other = kd.append_observation(kind="command", content="pytest -k login", scope=where)
    closed = kd.close_capsule(cap.id, summary="login fixed by a guard", evidence_refs=[obs.id])
    pin = kd.pin("observation", obs.id, reason="the symptom", ttl_ms=60_000)
    memory = kd.add_memory(
        "/ws", "use JWT", ChatMemoryFields(topic="Auth", decisions=("JWT",), topic_id="auth")
    )
    return {"cap": closed, "obs": obs, "other": other, "pin": pin, "memory": memory}


def test_entities_read_back_equal(kd: Kindling, filled: dict[str, Any]) -> None:
    cap = kd.get_capsule(filled["cap"].id)
    assert cap.summary_id is not None
    assert wire.capsule(through_json(cap.to_dict())) == cap
    assert wire.observation(through_json(filled["obs"].to_dict())) == filled["obs"]
    assert wire.pin(through_json(filled["pin"].to_dict())) == filled["pin"]
    summary = kd.get_summary(cap.summary_id)
    assert wire.summary(through_json(summary.to_dict())) == summary


def test_results_read_back_equal(kd: Kindling, filled: dict[str, Any]) -> None:
    found = kd.retrieve("login KeyError", now=filled["obs"].ts)
    assert found.candidates
    assert wire.retrieve_result(through_json(found.to_dict())) == found
    assert any(c.explanation.signals for c in found.candidates)
    recency = kd.retrieve("")
    assert wire.retrieve_result(through_json(recency.to_dict())) == recency
    line = kd.timeline(filled["obs"].id)
    assert wire.timeline(through_json(line.to_dict())) == line
    items = kd.get_items([filled["obs"].id, filled["cap"].id, "nope"], token_budget=5)
    assert wire.items(through_json(items.to_dict())) == items


def test_reports_read_back_equal(kd: Kindling, filled: dict[str, Any]) -> None:
    plan = kd.forget(filled["obs"].id, dry_run=True)
    assert wire.forget_report(through_json(plan.to_dict())) == plan
    done = kd.forget_matching("pytest", dry_run=False)
    assert wire.forget_report(through_json(done.to_dict())) == done
    stats = kd.stats()
    assert wire.store_stats(through_json(stats.to_dict())) == stats
    repo = RepoActivity("webapp", 3, 17)
    assert wire.repo_activity(through_json(repo.to_dict())) == repo
    token = ApiToken("t1", "alice", "web", 1, None)
    assert wire.api_token(through_json(token.to_dict())) == token
    report = ImportReport({"observations": 1}, {"observations": 0}, 2, ("a note",), True)
    assert wire.import_report(through_json(report.to_dict())) == report
    for entity_id in (filled["cap"].id, filled["pin"].id, filled["other"].id):
        described = kd.describe(entity_id)
        back = wire.described(through_json(described.to_dict()))
        assert back == described if not described.capsules else back.entity == described.entity
    memory = filled["memory"]
    assert wire.memory(through_json(wire.memory_to_dict(memory))) == memory
    (match,) = kd.search_memories("/ws", "JWT")
    assert wire.memory_match(through_json(wire.match_to_dict(match))) == match


def test_new_observations_and_fields_read_back_equal() -> None:
    new = NewObservation("error", "x", Scope(repo_id="r"), {"k": "v"}, 5, "c", "id1")
    assert wire.new_observation(through_json(wire.new_observation_to_dict(new))) == new
    fields = ChatMemoryFields(topic="T", context="c", decisions=("a", "b"), source_created_at=3)
    assert wire.memory_fields(through_json(wire.fields_to_dict(fields))) == fields


@pytest.mark.parametrize(
    ("reader", "data", "words"),
    [
        (wire.observation, {"id": "o", "kind": "error", "content": "x"}, "missing field 'ts'"),
        (wire.observation, {"id": "o", "kind": "nope", "content": "x", "ts": 1}, "kind"),
        (wire.capsule, [], "must be a JSON object"),
        (wire.pin, {"id": "p", "targetType": "capsule"}, "pin target type"),
        (wire.forget_report, {"observations": "o1", "complete": True}, "must be a list"),
        (wire.retrieve_result, {"pins": []}, "missing field 'provenance'"),
        (wire.store_stats, {"observationsByKind": {"error": "2"}}, "whole number"),
    ],
)
def test_a_wrong_shape_says_what_is_wrong(reader: Any, data: Any, words: str) -> None:
    with pytest.raises(InvalidInputError, match=words):
        reader(data)

"""Contract tests taken from seed 000 (tiers, dedup, budget, scope, forgotten rows, provenance)."""

from __future__ import annotations

import json

import pytest

from kindling import Kindling, Scope
from kindling.model import Observation, ObservationKind, Summary
from tests.conftest import FakeClock

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

REPO = Scope(repo_id="/repo")
S1 = Scope(session_id="s1", repo_id="/repo")
S2 = Scope(session_id="s2", repo_id="/repo")


@pytest.fixture
def seeded(kd: Kindling, clock: FakeClock) -> dict[str, str]:
    ids: dict[str, str] = {}
    cap1 = kd.open_capsule(intent="fix authentication bug", scope=S1)
    ids["cap1"] = cap1.id
    steps: list[tuple[str, ObservationKind, str]] = [
        ("err", "error", "AuthenticationError: token expired in validateToken"),
        ("diff", "file_diff", "File: src/auth/tokens.ts\n+ refresh the authentication token"),
        ("msg", "message", "Decision: keep jsonwebtoken, use namespace import for auth"),
    ]
    for name, kind, text in steps:
        clock.advance(60_000)
        ids[name] = kd.append_observation(kind=kind, content=text, scope=S1).id
    cap2 = kd.open_capsule(intent="orders pagination", scope=S2)
    ids["cap2"] = cap2.id
    clock.advance(60_000)
    ids["other"] = kd.append_observation(
        kind="error", content="authentication cookie missing on /orders", scope=S2
    ).id
    clock.advance(60_000)
    ids["sum1"] = kd.add_summary(
        cap1.id, content="Working on the authentication bug in tokens.ts", confidence=0.85
    ).id
    return ids


def _ids(result: object) -> list[str]:
    return [c.entity.id for c in result.candidates]  # type: ignore[attr-defined]


def test_tiers_pins_then_current_summary_then_candidates(
    kd: Kindling, seeded: dict[str, str]
) -> None:
    pin = kd.pin("observation", seeded["msg"], reason="library decision")
    res = kd.retrieve("authentication", scope=S1)
    assert [p.pin.id for p in res.pins] == [pin.id]
    assert res.pins[0].target.id == seeded["msg"]
    assert res.current_summary is not None
    assert res.current_summary.id == seeded["sum1"]
    ids = _ids(res)
    assert seeded["msg"] not in ids  # deduplicated: pinned
    assert seeded["sum1"] not in ids  # deduplicated: current summary
    assert set(ids) == {seeded["err"], seeded["diff"]}
    assert res.provenance.provider_used == "local-fts"


def test_scope_isolation_between_sessions(kd: Kindling, seeded: dict[str, str]) -> None:
    one = set(_ids(kd.retrieve("authentication", scope=Scope(session_id="s1"))))
    two = set(_ids(kd.retrieve("authentication", scope=Scope(session_id="s2"))))
    assert one
    assert two
    assert not one & two
    assert seeded["other"] in two


def test_scope_is_and_over_given_dimensions(kd: Kindling, seeded: dict[str, str]) -> None:
    assert _ids(kd.retrieve("authentication", scope=Scope(session_id="s2", repo_id="/x"))) == []
    assert seeded["other"] in _ids(kd.retrieve("authentication", scope=REPO))
    everything = _ids(kd.retrieve("authentication"))
    assert seeded["other"] in everything
    assert seeded["err"] in everything


def test_token_budget_cuts_candidates_in_rank_order(kd: Kindling, seeded: dict[str, str]) -> None:
    full = kd.retrieve("authentication", scope=REPO)
    assert len(full.candidates) >= 3
    assert not full.provenance.truncated_due_to_token_budget
    first = full.candidates[0].entity.content
    budget = (len(first) + 3) // 4  # exactly the first candidate
    cut = kd.retrieve("authentication", scope=REPO, token_budget=budget)
    assert _ids(cut) == _ids(full)[:1]
    assert cut.provenance.truncated_due_to_token_budget
    assert cut.provenance.total_candidates == len(full.candidates)
    assert cut.provenance.returned_candidates == 1
    assert cut.provenance.tokens_used <= budget


def test_pins_and_current_summary_are_never_cut(kd: Kindling, seeded: dict[str, str]) -> None:
    kd.pin("observation", seeded["err"])
    res = kd.retrieve("authentication", scope=S1, token_budget=1)
    assert len(res.pins) == 1
    assert res.current_summary is not None
    assert res.candidates == ()
    assert res.provenance.truncated_due_to_token_budget
    assert res.provenance.tokens_used > 1  # the fixed tiers alone exceed it


def test_budget_large_enough_is_not_truncation(kd: Kindling, seeded: dict[str, str]) -> None:
    res = kd.retrieve("authentication", scope=REPO, token_budget=100_000)
    assert not res.provenance.truncated_due_to_token_budget
    assert res.candidates


def test_redacted_excluded_unless_asked(kd: Kindling, seeded: dict[str, str]) -> None:
    kd.forget(seeded["err"])
    assert seeded["err"] not in _ids(kd.retrieve("", scope=S1))
    audit = kd.retrieve("", scope=S1, include_redacted=True)
    shown = {c.entity.id: c for c in audit.candidates}
    assert shown[seeded["err"]].match_context == "[redacted]"
    assert isinstance(shown[seeded["err"]].entity, Observation)
    assert shown[seeded["err"]].entity.content == "[redacted]"
    assert seeded["err"] not in _ids(kd.retrieve("expired", scope=S1, include_redacted=True))


def test_pinned_redacted_target_is_hidden(kd: Kindling, seeded: dict[str, str]) -> None:
    kd.pin("observation", seeded["err"])
    kd.forget(seeded["err"])
    assert kd.retrieve("token", scope=S1).pins == ()
    assert len(kd.retrieve("token", scope=S1, include_redacted=True).pins) == 1


def test_pins_newest_first_and_expired_dropped(
    kd: Kindling, seeded: dict[str, str], clock: FakeClock
) -> None:
    old = kd.pin("observation", seeded["err"])
    clock.advance(1000)
    new = kd.pin("observation", seeded["diff"], ttl_ms=5000)
    now = clock.now
    assert [p.pin.id for p in kd.retrieve("", scope=S1, now=now).pins] == [new.id, old.id]
    assert [p.pin.id for p in kd.retrieve("", scope=S1, now=now + 5000).pins] == [old.id]


def test_pinned_summary_is_not_repeated_as_current(kd: Kindling, seeded: dict[str, str]) -> None:
    kd.pin("summary", seeded["sum1"])
    res = kd.retrieve("authentication", scope=S1)
    assert [p.target.id for p in res.pins] == [seeded["sum1"]]
    assert res.current_summary is None
    assert seeded["sum1"] not in _ids(res)


def test_summaries_are_candidates_with_capsule_scope(kd: Kindling, seeded: dict[str, str]) -> None:
    kd.close_capsule(seeded["cap1"])
    res = kd.retrieve("tokens.ts", scope=REPO)
    found = [c for c in res.candidates if isinstance(c.entity, Summary)]
    assert [c.entity.id for c in found] == [seeded["sum1"]]
    assert found[0].explanation.confidence == pytest.approx(0.85)
    assert _ids(kd.retrieve("tokens.ts", scope=Scope(repo_id="/elsewhere"))) == []


def test_to_dict_is_the_seed_shape(kd: Kindling, seeded: dict[str, str]) -> None:
    kd.pin("observation", seeded["msg"], reason="why")
    data = kd.retrieve("authentication", scope=S1, token_budget=8000, now=10**13).to_dict()
    assert list(data) == ["pins", "currentSummary", "candidates", "provenance"]
    assert set(data["pins"][0]) == {"pin", "target"}
    assert set(data["pins"][0]["pin"]) == {
        "id", "targetType", "targetId", "reason", "createdAt", "expiresAt", "scopeIds"
    }  # fmt: skip
    assert set(data["currentSummary"]) == {
        "id", "capsuleId", "content", "confidence", "createdAt", "evidenceRefs"
    }  # fmt: skip
    cand = data["candidates"][0]
    assert {"entity", "score", "matchContext", "explanation", "targetType"} <= set(cand)
    assert {"id", "kind", "content", "provenance", "ts", "scopeIds", "redacted"} == set(
        cand["entity"]
    )
    prov = data["provenance"]
    for key in (
        "query",
        "scopeIds",
        "totalCandidates",
        "returnedCandidates",
        "truncatedDueToTokenBudget",
        "providerUsed",
    ):
        assert key in prov
    assert prov["scopeIds"] == {"sessionId": "s1", "repoId": "/repo"}
    json.dumps(data)  # serialisable as is


def test_retrieval_is_deterministic(kd: Kindling, seeded: dict[str, str]) -> None:
    one = json.dumps(kd.retrieve("authentication token", scope=REPO).to_dict())
    two = json.dumps(kd.retrieve("authentication token", scope=REPO).to_dict())
    assert one == two


def test_empty_store_and_nothing_relevant(kd: Kindling) -> None:
    res = kd.retrieve("anything at all")
    assert res.pins == ()
    assert res.candidates == ()
    assert res.current_summary is None
    kd.append_observation(kind="message", content="we renamed the build script", scope=REPO)
    assert kd.retrieve("kubernetes ingress", scope=REPO).candidates == ()


def test_current_summary_needs_an_open_capsule_in_scope(
    kd: Kindling, seeded: dict[str, str]
) -> None:
    assert kd.retrieve("x", scope=S1).current_summary is not None
    assert kd.retrieve("x").current_summary is None  # no scope, no "current" work
    kd.close_capsule(seeded["cap1"])
    assert kd.retrieve("x", scope=S1).current_summary is None

"""Writing commands through the real CLI: log, capsule, pin, unpin, forget."""

from __future__ import annotations

import pytest

from tests.support.cli import run

NOW = 1_767_225_600_000


@pytest.fixture(autouse=True)
def _fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KINDLING_NOW", str(NOW))


def test_log_prints_the_id_and_json_shows_the_entity() -> None:
    first = run("log", "pytest: KeyError 'user_id'", "--kind", "error", "--session", "s1")
    assert first.code == 0
    obs_id = first.stdout.strip()
    assert len(obs_id) == 36
    shown = run("show", obs_id, "--json").json()
    assert shown["content"] == "pytest: KeyError 'user_id'"
    assert shown["kind"] == "error"
    assert shown["ts"] == NOW
    assert shown["scopeIds"] == {"sessionId": "s1"}
    doc = run("log", "second", "--agent", "claude", "--user", "ana", "--json").json()
    assert set(doc) == {"id", "kind", "content", "provenance", "ts", "scopeIds", "redacted"}
    assert doc["kind"] == "message"
    assert doc["scopeIds"] == {"agentId": "claude", "userId": "ana"}


def test_log_reads_stdin_for_dash() -> None:
    doc = run("log", "-", "--kind", "file_diff", "--json", stdin="diff --git a/x b/x\n+1\n").json()
    assert doc["content"] == "diff --git a/x b/x\n+1\n"


def test_log_joins_the_open_capsule_of_its_session() -> None:
    cap = run("capsule", "open", "--intent", "fix login", "--session", "s1").stdout.strip()
    obs = run("log", "step one", "--session", "s1").stdout.strip()
    other = run("log", "explicit", "--capsule", cap, "--json").json()
    assert other["scopeIds"] == {"sessionId": "s1"}  # a capsule's scope is the default
    shown = run("show", cap, "--json").json()
    assert [o["id"] for o in shown["links"]["observations"]] == [obs, other["id"]]


def test_capsule_lifecycle_and_its_errors() -> None:
    opened = run("capsule", "open", "--intent", "fix login", "--session", "s1", "--json").json()
    assert opened["status"] == "open"
    again = run("capsule", "open", "--intent", "other", "--session", "s1", "--json")
    assert again.code == 1
    assert again.json()["error"]["code"] == "conflict"
    assert "close it first" in again.stderr
    closed = run(
        "capsule", "close", opened["id"], "--summary", "fixed it", "--confidence", "0.8", "--json"
    ).json()
    assert closed["status"] == "closed"
    assert closed["closedAt"] == NOW
    summary = run("show", closed["summaryId"], "--json").json()
    assert summary["confidence"] == 0.8
    assert summary["links"]["capsules"] == [opened["id"]]
    twice = run("capsule", "close", opened["id"])
    assert twice.code == 1
    assert twice.stderr.strip() == f"kindling: capsule {opened['id']} is already closed"


def test_pin_needs_an_existing_target_and_sets_expiry_from_ttl() -> None:
    obs = run("log", "the repro", "--repo", "webapp").stdout.strip()
    missing = run("pin", "observation", "nope", "--json")
    assert missing.code == 1
    assert missing.json()["error"]["code"] == "not_found"
    pin = run("pin", "observation", obs, "--reason", "repro", "--ttl", "7d", "--json").json()
    assert pin["expiresAt"] == NOW + 7 * 86_400_000
    assert pin["targetId"] == obs
    assert pin["scopeIds"] == {"repoId": "webapp"}
    listed = run("list", "pins", "--json").json()
    assert [p["id"] for p in listed] == [pin["id"]]
    assert run("unpin", pin["id"]).stdout.strip() == pin["id"]
    assert run("list", "pins", "--json").json() == []
    gone = run("unpin", pin["id"])
    assert gone.code == 1
    assert "no pin" in gone.stderr


def test_forget_redacts_and_search_no_longer_finds_it() -> None:
    obs = run("log", "the password is hunter2", "--repo", "r").stdout.strip()
    assert run("search", "hunter2", "--json").json()["candidates"]
    doc = run("forget", obs, "--json").json()
    assert doc["observations"] == [obs]
    assert doc["complete"] is True
    assert run("search", "hunter2", "--json").json()["candidates"] == []
    assert run("forget", obs).code == 0  # forgetting twice is fine
    assert run("forget", "missing").code == 1

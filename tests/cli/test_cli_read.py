"""Reading commands through the real CLI: search, list, show, status, and --repo paths."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import run

NOW = 1_767_225_600_000
HOUR = 3_600_000


@pytest.fixture
def filled(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    ids: dict[str, str] = {}
    for i, (kind, text) in enumerate(
        [
            ("error", "TypeError: jwt.verify is not a function in auth/tokens.ts"),
            ("command", "npm test -- auth"),
            ("message", "Decision: refresh token lives in an httpOnly cookie"),
        ]
    ):
        monkeypatch.setenv("KINDLING_NOW", str(NOW + i * HOUR))
        ids[kind] = run("log", text, "--kind", kind, "--repo", "webapp").stdout.strip()
    monkeypatch.setenv("KINDLING_NOW", str(NOW + 5 * HOUR))
    return ids


def test_search_json_is_the_retrieval_contract(filled: dict[str, str]) -> None:
    doc = run("search", "jwt verify", "--repo", "webapp", "--json").json()
    assert set(doc) == {"pins", "currentSummary", "candidates", "provenance"}
    top = doc["candidates"][0]
    assert top["entity"]["id"] == filled["error"]
    assert {"score", "matchContext", "explanation", "targetType"} <= set(top)
    assert doc["provenance"]["scopeIds"] == {"repoId": "webapp"}
    assert doc["provenance"]["providerUsed"] == "local-fts"


def test_search_is_deterministic_with_now(filled: dict[str, str]) -> None:
    args = ("search", "auth", "--now", str(NOW + 9 * HOUR), "--explain")
    first, second = run(*args), run(*args)
    assert first.code == 0
    assert first.stdout == second.stdout
    assert "relevance" in first.stdout
    assert "recency" in first.stdout
    assert "9 h ago" in first.stdout


def test_search_budget_and_limit(filled: dict[str, str]) -> None:
    doc = run("search", "", "--limit", "2", "--json").json()
    assert [c["entity"]["id"] for c in doc["candidates"]] == [filled["message"], filled["command"]]
    tight = run("search", "", "--budget", "5", "--json").json()
    assert tight["candidates"] == []
    assert tight["provenance"]["truncatedDueToTokenBudget"] is True


def test_search_other_scope_finds_nothing(filled: dict[str, str]) -> None:
    out = run("search", "jwt", "--repo", "elsewhere")
    assert out.code == 0
    assert "Candidates (0 of 0)" in out.stdout


def test_list_is_newest_first_and_filters(filled: dict[str, str]) -> None:
    rows = run("list", "observations", "--json").json()
    assert [r["id"] for r in rows] == [filled["message"], filled["command"], filled["error"]]
    errors = run("list", "observations", "--kind", "error", "--json").json()
    assert [r["id"] for r in errors] == [filled["error"]]
    human = run("list", "observations", "--limit", "2").stdout.splitlines()
    assert human[0].split() == ["ID", "KIND", "WHEN", "CONTENT"]
    assert len(human) == 3
    assert "4 h ago" in human[2]
    assert run("list", "capsules").stdout.strip() == "No capsules."


def test_show_links_a_summary_to_capsule_evidence_and_pins() -> None:
    cap = run("capsule", "open", "--intent", "x", "--session", "s").stdout.strip()
    obs = run("log", "evidence", "--session", "s").stdout.strip()
    closed = run("capsule", "close", cap, "--summary", "done", "--evidence", obs, "--json").json()
    pin = run("pin", "summary", closed["summaryId"]).stdout.strip()
    shown = run("show", closed["summaryId"], "--json").json()
    assert shown["type"] == "summary"
    assert shown["links"]["capsules"] == [cap]
    assert [o["id"] for o in shown["links"]["evidence"]] == [obs]
    assert [p["id"] for p in shown["links"]["pins"]] == [pin]
    pin_doc = run("show", pin, "--json").json()
    assert pin_doc["links"]["target"]["id"] == closed["summaryId"]
    human = run("show", cap).stdout
    assert "Observations (1)" in human
    assert obs in human
    missing = run("show", "nope", "--json")
    assert missing.code == 1
    assert missing.json()["error"]["code"] == "not_found"


def test_status_counts(filled: dict[str, str]) -> None:
    run("capsule", "open", "--intent", "ongoing", "--session", "s9")
    doc = run("status", "--json").json()
    assert doc["observations"]["total"] == 3
    assert doc["observations"]["byKind"] == {"command": 1, "error": 1, "message": 1}
    assert doc["capsules"]["byStatus"] == {"open": 1}
    assert [c["intent"] for c in doc["openCapsules"]] == ["ongoing"]
    assert doc["sizeBytes"] > 0
    assert doc["schemaVersion"] >= 5
    assert Path(doc["database"]).name == "kindling.db"
    human = run("status").stdout
    assert "ongoing" in human
    assert "schema" in human


def test_repo_paths_become_the_git_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    monkeypatch.chdir(root / "src")
    doc = run("log", "from a subdirectory", "--repo", ".", "--json").json()
    assert doc["scopeIds"] == {"repoId": str(root.resolve())}
    found = run("search", "subdirectory", "--repo", str(root), "--json").json()
    assert [c["entity"]["id"] for c in found["candidates"]] == [doc["id"]]
    plain = run("log", "opaque", "--repo", "org/webapp", "--json").json()
    assert plain["scopeIds"] == {"repoId": "org/webapp"}


def test_json_never_has_colour(filled: dict[str, str]) -> None:
    coloured = run("search", "auth", "--explain", color=True)
    assert "\x1b[" in coloured.stdout  # on a terminal, colour is on
    for args in (("search", "auth"), ("list", "observations"), ("status",), ("show", "nope")):
        out = run(*args, "--json", color=True)
        assert "\x1b" not in out.stdout

"""``kindling demo`` as a user runs it: a separate process, fresh temp database, same output."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.cli import run, run_process

TITLES = ("1. Resume work", "2. Find the decision", "3. Find the failure")


def _without_path(text: str) -> str:
    return re.sub(r"/\S*kindling-demo-[^/\s]+/kindling\.db", "<db>", text)


def test_demo_runs_and_is_deterministic_apart_from_the_path() -> None:
    first, second = run_process("demo"), run_process("demo")
    assert first.code == 0, first.stderr
    assert first.stderr == ""
    for title in TITLES:
        assert title in first.stdout
    assert "TypeError: jwt.verify is not a function" in first.stdout
    assert "why: matched" in first.stdout
    assert "relevance" in first.stdout
    assert "\x1b" not in first.stdout
    assert _without_path(first.stdout) == _without_path(second.stdout)
    assert _without_path(first.stdout) != first.stdout  # a fresh temporary database each time


def test_demo_never_writes_to_the_users_database(tmp_path: Path) -> None:
    assert run("demo").code == 0
    status = run("status", "--json")  # the default database was never created
    assert status.code == 1
    assert "no database at" in status.json()["error"]["message"]


def test_demo_into_a_given_database_is_idempotent(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    doc = run("demo", "--db", str(db), "--json").json()
    assert doc["database"] == str(db)
    assert doc["recorded"] == {"observations": 12, "capsules": 2, "summaries": 2, "pins": 1}
    failure = doc["retrievals"][2]
    assert failure["candidates"][0]["entity"]["kind"] == "error"
    assert failure["candidates"][0]["explanation"]["matchedTerms"]
    decision = doc["retrievals"][1]
    assert "httpOnly" in decision["candidates"][0]["entity"]["content"]
    assert decision["pins"][0]["pin"]["reason"] == "the repro of the flaky logout test"
    resume = doc["retrievals"][0]
    assert resume["currentSummary"]["capsuleId"] == "demo-c2"
    again = run("--db", str(db), "demo", "--json").json()
    assert sum(again["recorded"].values()) == 0
    assert again["retrievals"] == doc["retrievals"]

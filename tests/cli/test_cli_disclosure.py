"""``kindling timeline`` and ``kindling get`` through the real CLI, on the demo session."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.cli import run, run_process
from tests.support.paths import ROOT

DOCS = ROOT / "docs" / "cli.md"
NOW = {"COLUMNS": "100", "KINDLING_NOW": "1773327600000"}


@pytest.fixture
def demo(tmp_path: Path) -> str:
    db = str(tmp_path / "demo.db")
    assert run("demo", "--db", db).code == 0
    return db


def _documented(command: str) -> str:
    text = DOCS.read_text(encoding="utf-8")
    start = text.index(f"$ {command}\n") + len(command) + 3
    return text[start : text.index("```", start)]


@pytest.mark.parametrize(
    "command",
    [
        "kindling timeline demo-o02 --before 1 --after 2",
        "kindling get demo-o02 demo-s1 --budget 60",
    ],
)
def test_documented_output_is_the_real_output(demo: str, command: str) -> None:
    out = run("--db", demo, *command.split()[1:], env=NOW)
    assert out.code == 0, out.stderr
    assert _documented(command) == out.stdout


def test_timeline_json(demo: str) -> None:
    doc = run(
        "--db", demo, "timeline", "demo-o03", "--before", "2", "--after", "0", "--json"
    ).json()
    assert [o["id"] for o in doc["before"]] == ["demo-o01", "demo-o02"]
    assert doc["anchor"]["id"] == doc["anchorId"] == "demo-o03"
    assert (doc["anchorType"], doc["after"], doc["moreAfter"]) == ("observation", [], True)
    summary = run("--db", demo, "timeline", "demo-s1", "--json").json()
    assert summary["anchorType"] == "summary"
    assert summary["sessionId"] == summary["before"][0]["scopeIds"]["sessionId"]


def test_get_json_and_its_budget(demo: str) -> None:
    doc = run("--db", demo, "get", "demo-s1", "demo-c1", "nope", "--json").json()
    assert [(i["type"], i["entity"]["id"], i["cutChars"]) for i in doc["items"]] == [
        ("summary", "demo-s1", 0),
        ("capsule", "demo-c1", 0),
    ]
    assert (doc["missing"], doc["tokenBudget"], doc["truncated"]) == (["nope"], None, False)
    cut = run("--db", demo, "get", "demo-s1", "--budget", "0", "--json").json()
    (item,) = cut["items"]
    assert item["cutChars"] == item["totalChars"] > 0
    assert re.fullmatch(r"…\[cut \d+ characters: .*\]", item["entity"]["content"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["timeline", "nope"], "no observation or summary has id 'nope'"),
        (["timeline", "demo-c1"], "no observation or summary has id 'demo-c1'"),
        (["timeline", "demo-o01", "--before", "51"], "--before"),
        (["timeline", "demo-o01", "--after", "-1"], "--after"),
        (["get"], "Missing argument 'ID...'"),
        (["get", "nope"], "not found: nope"),
        (["get", "demo-o01", "--budget", "-5"], "--budget"),
    ],
)
def test_bad_input_is_one_line_and_a_non_zero_exit(
    demo: str, args: list[str], message: str
) -> None:
    out = run("--db", demo, *args)
    assert out.code != 0
    assert message in out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr


def test_the_installed_script(demo: str) -> None:
    out = run_process("--db", demo, "timeline", "demo-o02", "--json")
    assert out.code == 0, out.stderr
    assert '"anchorId": "demo-o02"' in out.stdout

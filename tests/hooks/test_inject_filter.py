"""Injected context leaves out noise, puts edits, errors and decisions first and keeps a
command's command line whole (issue 23, item 6): the rules of ``hooks.inject_filter`` and
``build_context`` over sessions recorded through the real hook mapping and the real hook."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kindling import Kindling, Scope
from kindling.agents.events import parse_payload
from kindling.hooks.config import HookConfig
from kindling.hooks.inject import HARD_CHAR_LIMIT, build_context
from kindling.hooks.inject_filter import (
    CHECK,
    COMMAND_CHARS,
    DECISION,
    EDIT,
    EDIT_CHARS,
    ERROR,
    LINE_CHARS,
    WORK,
    render,
    tier,
)
from kindling.hooks.mapping import to_draft
from tests.support.hooks import injected, run_hook

REPO = "/work/app"
CFG = HookConfig()
NOTIFICATION = (
    "<task-notification>\n<task-id>b7f2k</task-id>\n<status>completed</status>\n"
    '<summary>Background command "npm run dev" completed (exit code 0)</summary>\n'
    "</task-notification>"
)


def bash(command: str, stdout: str = "") -> dict[str, Any]:
    return {
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_response": {"stdout": stdout, "stderr": "", "interrupted": False},
    }


def edit(path: str, old: str, new: str) -> dict[str, Any]:
    return {
        "hook_event_name": "PostToolUse",
        "tool_name": "Edit",
        "tool_input": {"file_path": f"{REPO}/{path}", "old_string": old, "new_string": new},
        "tool_response": {"filePath": f"{REPO}/{path}"},
    }


def prompt(text: str) -> dict[str, Any]:
    return {"hook_event_name": "UserPromptSubmit", "prompt": text}


SEQ_OUTPUT = "\n".join(str(k) for k in range(1, 301))
# The session of the issue: one edit among `true`, `sleep 5; echo waited`, a notification and
# long commands.
ISSUE_SESSION = [
    prompt("add retry to the upload client"),
    bash("true"),
    bash("sleep 5; echo waited", "waited"),
    prompt(NOTIFICATION),
    bash("seq 1 300", SEQ_OUTPUT),
    edit("src/upload/client.py", "return self._post()", "return with_retry(self._post)"),
    bash("ls", "client.py\n__init__.py"),
    bash("cd src && ls -la", "total 0"),
    bash("git status", "nothing to commit"),
    prompt("<system-reminder>\nUse the TodoWrite tool.\n</system-reminder>"),
]


def record(kd: Kindling, events: list[dict[str, Any]], session: str = "s1", t0: int = 0) -> None:
    for n, data in enumerate(events):
        data = {"session_id": session, "cwd": REPO, **data}
        draft = to_draft(parse_payload(json.dumps(data).encode(), None), CFG, REPO)
        assert draft is not None
        kd.append_observation(
            kind=draft.kind,  # type: ignore[arg-type]
            content=draft.content,
            provenance=draft.provenance,
            scope=Scope(repo_id=REPO, session_id=session),
            ts=1_700_000_000_000 + (t0 + n) * 1000,
        )


def context(kd: Kindling, query: str = "", **cfg: Any) -> list[str] | None:
    found = build_context(kd, repo=REPO, query=query, cfg=HookConfig(**cfg))
    return None if found is None else found.text.splitlines()[1:]


@pytest.mark.parametrize(
    "content",
    [
        "$ true\n[completed]",
        "$ sleep 5; echo waited\n[completed]\nwaited",
        "$ cd src\n[completed]",
        "$ cd src && ls -la\n[completed]\ntotal 0",
        "$ pwd\n[completed]\n/work/app",
        "$ cat src/app.py | head -20\n[completed]\nimport os",
        "$ git status\n[completed]\nOn branch main",
        "$ git -C /work/app log --oneline -3\n[completed]\na1b2c3 init",
        "$ FOO=1 echo $FOO\n[completed]\n1",
        "$ mkdir -p build/out\n[completed]",
        "$ rm -rf /tmp/x && touch /tmp/y\n[completed]",
    ],
)
def test_trivial_commands_and_no_ops_are_noise(content: str) -> None:
    assert tier("command", content) is None


@pytest.mark.parametrize(
    ("kind", "content", "provenance", "expected"),
    [
        ("file_diff", "Edit a.py\n--- a/a.py\n+++ b/a.py\n-x\n+y", {}, EDIT),
        ("file_diff", "Edit a.py\n(no textual change)", {}, None),
        ("error", "Bash failed: npm run build\n[exit 1]\nerror TS2345", {}, ERROR),
        ("command", "$ python -m pytest -q\n[completed]\n3 passed", {}, CHECK),
        ("command", "$ npm test\n[completed]\nFAIL src/a.test.ts", {}, ERROR),
        ("command", "$ ls missing\n[exit 2]\nls: cannot access", {}, ERROR),
        ("command", "$ npm install left-pad\n[completed]\nadded 1 package", {}, WORK),
        ("command", "$ seq 1 300\n[completed]\n1\n2", {}, WORK),
        ("message", "Decision: money is Decimal, never float", {"role": "user"}, DECISION),
        ("message", "add retry to the upload client", {"role": "user"}, WORK),
        ("message", NOTIFICATION, {"role": "system"}, None),
        ("message", NOTIFICATION, {"role": "user"}, None),  # recorded before roles existed
        ("message", "<system-reminder>x</system-reminder>", {}, None),
        ("message", "<b>bold</b> is fine", {"role": "user"}, WORK),
        ("message", "We fixed it; summary of the session", {"role": "compaction"}, DECISION),
        ("summary", "Fixed the refund bug", None, DECISION),
    ],
)
def test_tiers(
    kind: str, content: str, provenance: dict[str, object] | None, expected: int
) -> None:
    assert tier(kind, content, provenance) == expected


def test_a_long_command_keeps_its_command_line() -> None:
    line = render("command", f"$ seq 1 300\n[completed]\n{SEQ_OUTPUT}")
    assert line == "$ seq 1 300 → 1 … 300"
    long = "python -m pytest " + " ".join(f"tests/test_{i}.py" for i in range(40))
    shown = render("command", f"$ {long}\n[completed]\n80 passed")
    assert shown.startswith("$ " + long[: COMMAND_CHARS - 2])
    assert len(shown) <= LINE_CHARS


def test_an_edit_shows_its_file_and_changed_lines() -> None:
    diff = "Edit src/a.py\n--- a/src/a.py\n+++ b/src/a.py\n@@ -1 +1 @@\n-return 1\n+return 2"
    assert render("file_diff", diff) == "Edit src/a.py: -return 1 +return 2"
    assert render("file_diff", diff, "…return 2") == "Edit src/a.py: -return 1 +return 2"
    long = diff + "\n" + "\n".join(f"+line {i}" for i in range(200)) + "\n+needle here"
    assert render("file_diff", long, "…+needle here") == "Edit src/a.py: …+needle here"


def test_an_error_shows_its_error_line_and_result() -> None:
    text = "Bash failed: pytest -q\n[exit 1]\nF.\n=== FAILURES ===\nE   KeyError: 'id'\n1 failed"
    assert render("error", text) == "Bash failed: pytest -q → E KeyError: 'id' … 1 failed"


@given(
    st.sampled_from(["command", "file_diff", "error", "message", "tool_call", "summary"]),
    st.text(max_size=2000),
    st.one_of(st.none(), st.text(max_size=300)),
)
def test_rules_never_raise_and_lines_are_bounded(
    kind: str, content: str, snippet: str | None
) -> None:
    assert tier(kind, content) == tier(kind, content)
    line = render(kind, content, snippet)
    assert line == render(kind, content, snippet)
    assert "\n" not in line
    assert len(line) <= max(EDIT_CHARS, LINE_CHARS + COMMAND_CHARS)


# ---------------------------------------------------------------------------- build_context


def test_the_issue_session_injects_its_edit_first_and_no_noise() -> None:
    with Kindling.open(":memory:") as kd:
        record(kd, ISSUE_SESSION)
        lines = context(kd)
    assert lines is not None
    assert lines[0] == (
        "- [file_diff] Edit src/upload/client.py: -return self._post() +return"
        " with_retry(self._post)"
    )
    text = "\n".join(lines)
    for noise in ("$ true", "sleep 5", "task-notification", "system-reminder", "$ ls", "git"):
        assert noise not in text
    assert "- [command] $ seq 1 300 → 1 … 300" in lines
    assert "- [message] add retry to the upload client" in lines


def test_only_noise_injects_nothing() -> None:
    with Kindling.open(":memory:") as kd:
        record(kd, [bash("true"), bash("ls", "a"), prompt(NOTIFICATION), bash("pwd", REPO)])
        assert context(kd) is None
        assert context(kd, "ls pwd true notification") is None


def test_edits_outlive_a_hundred_routine_events() -> None:
    with Kindling.open(":memory:") as kd:
        record(kd, [edit(f"src/m{i}.py", "", f"def step_{i}(): ...") for i in range(3)])
        record(kd, [bash("ls", "x"), bash("sleep 1; echo ok", "ok")] * 60, t0=10)
        lines = context(kd)
    assert lines is not None
    assert [line.split(":")[0] for line in lines] == [
        f"- [file_diff] Edit src/m{i}.py" for i in (2, 1, 0)
    ]


def test_edits_errors_and_decisions_come_first_and_the_budget_holds() -> None:
    events = [
        prompt("fix the refund totals"),
        bash("python -m pytest -q", "3 passed"),
        {
            "hook_event_name": "PostToolUseFailure",
            "tool_name": "Bash",
            "tool_input": {"command": "python -m pytest tests/test_refund.py"},
            "error": "Exit code 1\nE   AssertionError: 3.3000000000000003 != 3.3\n1 failed",
        },
        prompt("Decision: refunds use Decimal, never float"),
        edit("src/refund.py", "sum(x)", "sum(x, Decimal(0))"),
        bash("npm install", "added 3 packages"),
    ]
    with Kindling.open(":memory:") as kd:
        record(kd, events)
        lines = context(kd)
        small = context(kd, budget_tokens=80)
    assert lines is not None
    assert [line.split("]")[0] for line in lines] == [
        "- [file_diff",
        "- [error",
        "- [message",  # the decision
        "- [command",  # the check
        "- [command",  # other work, newest first
        "- [message",
    ]
    assert small is not None
    assert small[0].startswith("- [file_diff]")
    assert sum(len(line) for line in small) < 80 * 4


def test_a_prompt_injection_never_shows_noise_even_when_it_matches() -> None:
    with Kindling.open(":memory:") as kd:
        record(kd, [bash("ls uploads", "uploads.py"), edit("src/uploads.py", "a", "uploads b")])
        lines = context(kd, "uploads", min_relevance=0.0)
    assert lines is not None
    assert all("$ ls" not in line for line in lines)
    assert any(line.startswith("- [file_diff]") for line in lines)


def test_the_hard_limit_still_holds_with_many_edits() -> None:
    with Kindling.open(":memory:") as kd:
        record(kd, [edit(f"src/f{i}.py", "", "x = 1\n" * 500) for i in range(60)])
        found = build_context(
            kd, repo=REPO, query="", cfg=HookConfig(budget_tokens=100_000, max_candidates=60)
        )
    assert found is not None
    assert len(found.text) <= HARD_CHAR_LIMIT


def test_session_start_through_the_real_hook(tmp_path: Path) -> None:
    """Record the issue's session with `kindling hook` and read what SessionStart prints."""
    import subprocess

    repo = tmp_path / "app"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    root = str(repo.resolve())
    for data in ISSUE_SESSION:
        data = json.loads(json.dumps(data).replace(REPO, root))
        proc = run_hook(data["hook_event_name"], {"session_id": "s1", "cwd": root, **data})
        assert proc.returncode == 0, proc.stderr
    start = {"hook_event_name": "SessionStart", "session_id": "s2", "cwd": root}
    text = injected(run_hook("SessionStart", start))
    assert text is not None
    lines = text.splitlines()
    assert lines[1].startswith("- [file_diff] Edit src/upload/client.py: ")
    assert "$ true" not in text
    assert "task-notification" not in text
    assert "- [command] $ seq 1 300 → 1 … 300" in lines

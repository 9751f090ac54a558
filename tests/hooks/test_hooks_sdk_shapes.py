"""Payloads shaped like Claude Code's published hook input types, mapped as Claude Code means them.

Every fixture follows a type of ``@anthropic-ai/claude-agent-sdk`` (its ``sdk.d.ts`` and
``sdk-tools.d.ts``, read from the npm package; nothing is copied from it): the hook inputs
``PostToolUseHookInput``, ``PostToolUseFailureHookInput``, ``UserPromptSubmitHookInput``,
``PostCompactHookInput``, ``StopFailureHookInput`` and ``PreCompactHookInput``, all extending
``BaseHookInput``, with ``tool_response`` of a Bash call shaped as ``BashOutput``.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kindling import Kindling
from kindling.agents.events import HookPayload
from kindling.hooks.capture import records
from kindling.hooks.config import HookConfig
from kindling.hooks.mapping import to_draft
from tests.support.hooks import run_hook
from tests.support.paths import TESTS

CFG = HookConfig()
GITHUB = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"


def base(event: str, **fields: object) -> dict[str, object]:
    """``BaseHookInput``: session_id, transcript_path, cwd, plus the optional prompt_id and
    permission_mode; then the event's own fields."""
    return {
        "session_id": "0b6f4c1e-2a7d-4e59-9c3b-5d8e1f2a3b4c",
        "transcript_path": "/home/dev/.claude/projects/-repo/0b6f4c1e.jsonl",
        "cwd": "/repo",
        "prompt_id": "6a1d9e0c-77b2-4c1f-8f43-0d2e9b5a1c37",
        "permission_mode": "default",
        "hook_event_name": event,
        **fields,
    }


def bash_output(stdout: str = "", **extra: object) -> dict[str, object]:
    """``BashOutput`` (sdk-tools.d.ts): stdout, stderr, interrupted, and optional fields."""
    return {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False, **extra}


def post_tool_use(command: str, response: dict[str, object]) -> dict[str, object]:
    """``PostToolUseHookInput`` for the Bash tool (``BashInput``: command, description)."""
    return base(
        "PostToolUse",
        tool_name="Bash",
        tool_input={"command": command, "description": "Run it"},
        tool_response=response,
        tool_use_id="toolu_01" + hashlib.sha256(command.encode()).hexdigest()[:12],
        duration_ms=412,
    )


def draft(data: dict[str, object]) -> tuple[str, dict[str, object]]:
    out = to_draft(HookPayload(data), CFG, "/repo")
    assert out is not None
    return out.content, out.provenance


def test_a_failure_reads_its_exit_code_from_claude_codes_error_text() -> None:
    # PostToolUseFailureHookInput: error is "Exit code N" then the command's output.
    data = base(
        "PostToolUseFailure",
        tool_name="Bash",
        tool_input={"command": "npm test"},
        tool_use_id="toolu_01Fail",
        error="Exit code 2\nnpm ERR! 3 tests failed",
        is_interrupt=False,
        duration_ms=2210,
    )
    content, prov = draft(data)
    assert content == "Bash failed: npm test\n[exit 2]\nnpm ERR! 3 tests failed"
    assert prov["exitCode"] == 2


@pytest.mark.parametrize(
    ("command", "meaning"),
    [("grep -rn TODO src", "No matches found"), ("diff a.txt b.txt", "Files differ")],
)
def test_a_return_code_interpretation_is_kept_and_no_exit_status_invented(
    command: str, meaning: str
) -> None:
    content, prov = draft(post_tool_use(command, bash_output(returnCodeInterpretation=meaning)))
    assert content == f"$ {command}\n[{meaning}]"
    assert prov["returnCodeInterpretation"] == meaning
    assert "exitCode" not in prov
    assert "exit" not in content


def test_a_background_command_is_not_reported_as_finished() -> None:
    response = bash_output(backgroundTaskId="bash_3")
    content, prov = draft(post_tool_use("npm run dev", response))
    assert content == "$ npm run dev\n[running in background: bash_3]"
    assert prov["backgroundTaskId"] == "bash_3"
    assert "exitCode" not in prov


def test_a_plain_success_says_completed_not_exit_0() -> None:
    content, prov = draft(post_tool_use("make", bash_output("built 3 targets")))
    assert content == "$ make\n[completed]\nbuilt 3 targets"
    assert "exitCode" not in prov


def test_output_cut_by_claude_code_keeps_its_real_size() -> None:
    shown = "x" * 30_000  # what Claude Code passes on when the output was too large
    response = bash_output(
        shown, persistedOutputPath="/tmp/tool-results/out.txt", persistedOutputSize=181_234
    )
    content, prov = draft(post_tool_use("cat big.log", response))
    assert prov["outputOriginalBytes"] == 181_234
    assert 30_000 not in prov.values()  # the cut copy's length is not the original size
    assert "chars elided" in content
    assert len(content) < 7_000


def test_a_secret_across_the_cut_is_masked_whole() -> None:
    limit = CFG.max_output_chars
    marker_room = 40
    # Place the token so that the head/tail cut would split it.
    head = "a" * ((limit - marker_room) // 2 - 10)
    stdout = head + " " + GITHUB + " " + "b" * (limit * 2)
    content, prov = draft(post_tool_use("env", bash_output(stdout)))
    for start in range(4, len(GITHUB) - 6):
        assert GITHUB[start : start + 6] not in content
    assert prov["redactedKinds"] == ["github_token"]


def test_tool_search_and_other_routine_lookups_are_noise() -> None:
    for tool in ("ToolSearch", "Read", "Glob", "Grep", "TodoWrite"):
        data = base("PostToolUse", tool_name=tool, tool_input={"query": "x"}, tool_response={})
        assert to_draft(HookPayload(data), CFG, "/repo") is None, tool


def test_a_multiedit_call_is_an_ordinary_tool_call_now() -> None:
    data = base("PostToolUse", tool_name="MultiEdit", tool_input={"file_path": "/repo/a.py"})
    content, _ = draft({**data, "tool_response": {"ok": True}})
    assert content.startswith("MultiEdit file_path=/repo/a.py")


@pytest.mark.parametrize(
    ("fields", "role"),
    [
        ({"prompt": "why does login fail?", "source": "user"}, "user"),
        ({"prompt": "why does login fail?"}, "user"),  # payloads may omit source
        ({"prompt": "<task-notification>\n<task-id>b1</task-id>\n<status>completed"}, "system"),
        ({"prompt": "Background command finished", "source": "system"}, "system"),
        ({"prompt": "wake up and check CI", "source": "loop_wakeup"}, "system"),
    ],
)
def test_prompts_claude_code_injects_are_not_the_users(fields: dict[str, str], role: str) -> None:
    content, prov = draft(base("UserPromptSubmit", **fields))
    assert prov["role"] == role
    assert content == fields["prompt"]


def test_post_compact_keeps_the_compaction_summary() -> None:
    data = base(
        "PostCompact",
        trigger="auto",
        compact_summary=f"We fixed login; the CI token is {GITHUB}.",
    )
    content, prov = draft(data)
    assert prov["role"] == "compaction"
    assert prov["trigger"] == "auto"
    assert GITHUB not in content
    assert content.startswith("We fixed login")


def test_stop_failure_records_the_error_and_saves_the_work_as_the_summary() -> None:
    data = base(
        "StopFailure",
        error="rate_limit",
        error_details="429 Too Many Requests",
        last_assistant_message="Half-way: the session fix is in, tests still to run.",
    )
    [error, record] = records(HookPayload(data), CFG, "/repo")
    assert (error.op, error.kind) == ("observation", "error")
    assert error.content == "Turn ended by an API error: rate_limit\n429 Too Many Requests"
    assert record.op == "summary"
    assert record.content == "Half-way: the session fix is in, tests still to run."


@pytest.mark.parametrize(
    "message", ['API Error: 400 {"type":"error"}', "  API Error (request timed out)"]
)
@pytest.mark.parametrize("event", ["Stop", "StopFailure", "SessionEnd"])
def test_an_api_error_turn_is_never_a_summary(event: str, message: str) -> None:
    data = base(event, error="invalid_request", last_assistant_message=message)
    found = records(HookPayload(data), CFG, "/repo")
    texts = [r.content for r in found if r.op in ("summary", "close")]
    assert all(t is None for t in texts), found
    assert not any(r.op == "summary" for r in found)


def test_pre_compact_records_the_summary_and_prints_nothing(git_repo: Path) -> None:
    data = base(
        "PreCompact",
        cwd=str(git_repo),
        trigger="manual",
        custom_instructions=None,
        transcript_path=str(TESTS / "data" / "claude_code" / "transcript.jsonl"),
    )
    proc = run_hook("PreCompact", data)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        [summary] = kd.list_summaries()
    assert summary.content.startswith("Done: login() validates user_id")


def test_every_sdk_shape_runs_as_a_process_and_exits_0(git_repo: Path) -> None:
    shapes = [
        post_tool_use("grep -rn TODO src", bash_output(returnCodeInterpretation="No matches")),
        post_tool_use("npm run dev", bash_output(backgroundTaskId="bash_9")),
        base("PostCompact", trigger="manual", compact_summary="summary of the work"),
        base("StopFailure", error="overloaded", last_assistant_message="partial"),
        base("UserPromptSubmit", prompt="<task-notification>done</task-notification>"),
    ]
    for data in shapes:
        data = {**data, "cwd": str(git_repo)}
        proc = run_hook(str(data["hook_event_name"]), data)
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", ""), data
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        kinds = sorted((o.kind, o.provenance.get("role")) for o in kd.list_observations())
    assert kinds == [
        ("command", None),
        ("command", None),
        ("error", None),
        ("message", "compaction"),
        ("message", "system"),
    ]


def test_the_capture_path_imports_no_engine(tmp_path: Path) -> None:
    data = json.dumps(post_tool_use("make", bash_output("ok")))
    code = (
        "import sys, io\n"
        f"sys.stdin = io.TextIOWrapper(io.BytesIO({data.encode()!r}))\n"
        "from kindling.hooks import run_hook_cli\n"
        "run_hook_cli(['PostToolUse'], db=sys.argv[1], exit_process=False)\n"
        "heavy = ('kindling.engine', 'kindling.model', 'kindling.store', 'kindling.retrieval',"
        " 'sqlite3', 'click', 'pathlib')\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "k.db")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert proc.stdout.strip() == "[]"
    assert len(list((tmp_path / "k.db-spool").iterdir())) == 1

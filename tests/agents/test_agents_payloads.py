"""Agents v4, payload by payload: each agent module's translation of a native hook payload,
tested as a pure function (the real CLIs' runs are in test_agents_sessions.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kindling.agents import codex, gemini


@pytest.mark.parametrize(
    ("native", "typed"),
    [
        ("<hook_context>Kindling memory ...</hook_context>\n\nFix the test", "Fix the test"),
        # a context recorded before the fix holds a block of its own
        ("<hook_context>a <hook_context>b</hook_context> c</hook_context>\n\nQ?", "Q?"),
        ("<hook_context>x</hook_context>\n\n<hook_context>y</hook_context>\n\nQ?", "Q?"),
        ("<hook_context>only context</hook_context>", ""),
        ("<hook_context>never closed\n\nQ?", "<hook_context>never closed\n\nQ?"),
        ("Explain <hook_context>x</hook_context>", "Explain <hook_context>x</hook_context>"),
        ("  plain prompt\n", "  plain prompt\n"),
    ],
)
def test_gemini_prompt_is_stored_as_typed(native: str, typed: str) -> None:
    out = gemini.canonical({"session_id": "s", "prompt": native}, "BeforeAgent")
    assert out is not None
    assert out["prompt"] == typed


def test_gemini_prompt_of_another_type_is_left_to_the_mapping() -> None:
    out = gemini.canonical({"session_id": "s", "prompt": None}, "BeforeAgent")
    assert out is not None
    assert out["prompt"] is None


def _rollout(tmp_path: Path, *records: dict[str, Any]) -> str:
    path = tmp_path / "rollout.jsonl"
    lines = ["{not json", *(json.dumps(r) for r in records)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _codex_shell(rollout: Any, call_id: Any = "call_1") -> dict[str, Any] | None:
    data = {
        "session_id": "s",
        "transcript_path": rollout,
        "hook_event_name": "PostToolUse",
        "tool_name": "exec_command",
        "tool_input": {"cmd": "pytest"},
        "tool_response": "1 failed",
        "tool_use_id": call_id,
    }
    return codex.canonical(data, "PostToolUse")


COMPLETED = {
    "type": "event_msg",
    "payload": {
        "type": "item_completed",
        "item": {"type": "CommandExecution", "id": "call_1", "exit_code": 3},
    },
}
ENDED = {
    "type": "event_msg",
    "payload": {"type": "exec_command_end", "call_id": "call_1", "exit_code": 2},
}
OUTPUT = {
    "type": "response_item",
    "payload": {
        "type": "function_call_output",
        "call_id": "call_1",
        "output": "Chunk ID: a\nProcess exited with code 4\nOutput:\n1 failed\n",
    },
}


@pytest.mark.parametrize(
    ("records", "code"),
    [((COMPLETED, OUTPUT), 3), ((ENDED,), 2), ((OUTPUT,), 4)],
)
def test_codex_reads_a_commands_exit_code_from_its_rollout(
    tmp_path: Path, records: tuple[dict[str, Any], ...], code: int
) -> None:
    out = _codex_shell(_rollout(tmp_path, *records))
    assert out is not None
    assert out["hook_event_name"] == "PostToolUseFailure"
    assert out["error"] == f"Exit code {code}\n1 failed"


@pytest.mark.parametrize(
    ("rollout", "call_id"),
    [(None, "call_1"), ("/no/such/rollout.jsonl", "call_1"), (42, "call_1"), ("", None)],
)
def test_codex_without_a_readable_rollout_keeps_the_command(rollout: Any, call_id: Any) -> None:
    out = _codex_shell(rollout, call_id)
    assert out is not None
    assert out["tool_response"] == {"stdout": "1 failed", "stderr": ""}


def test_codex_exit_zero_and_other_calls_stay_completed(tmp_path: Path) -> None:
    zero = json.loads(json.dumps(COMPLETED))
    zero["payload"]["item"]["exit_code"] = 0
    other = json.loads(json.dumps(COMPLETED))
    other["payload"]["item"]["id"] = "call_2"
    for records in ((zero,), (other,)):
        out = _codex_shell(_rollout(tmp_path, *records))
        assert out is not None
        assert out["tool_response"] == {"stdout": "1 failed", "stderr": ""}


PATCH = """*** Begin Patch
*** Update File: src/a.py
*** Move to: src/b.py
@@ def f():
-    return 1
+    return 2
*** Delete File: old.txt
*** End Patch
"""


def _apply_patch(patch: Any, response: Any = "Exit code: 0\nOutput:\nSuccess.") -> dict[str, Any]:
    data = {
        "session_id": "s",
        "cwd": "/repo",
        "hook_event_name": "PostToolUse",
        "tool_name": "apply_patch",
        "tool_input": {"command": patch},
        "tool_response": response,
        "tool_use_id": "call_p",
    }
    out = codex.canonical(data, "PostToolUse")
    assert out is not None
    return out


def test_codex_apply_patch_becomes_an_edit_with_its_diff() -> None:
    out = _apply_patch(PATCH)
    assert out["tool_name"] == "Edit"
    assert out["tool_input"]["file_path"] == "/repo/src/a.py"
    assert out["tool_input"]["file_paths"] == ["/repo/src/a.py", "/repo/src/b.py", "/repo/old.txt"]
    assert out["tool_response"]["unifiedDiff"] == (
        "--- a/src/a.py\n+++ b/src/b.py\n@@ def f():\n-    return 1\n+    return 2\n"
        "--- a/old.txt\n+++ /dev/null"
    )


def test_a_failed_codex_patch_is_a_failure() -> None:
    out = _apply_patch(PATCH, "Exit code: 1\nOutput:\nverification failed")
    assert out["hook_event_name"] == "PostToolUseFailure"
    assert out["error"].startswith("Exit code 1\n")


@pytest.mark.parametrize("patch", [None, "", 42, ["x"]])
def test_a_codex_patch_it_cannot_read_is_left_to_the_mapping(patch: Any) -> None:
    out = _apply_patch(patch)
    assert out["tool_name"] == "Edit"
    assert out["tool_input"] == {}


def test_a_codex_patch_touching_an_excluded_file_keeps_no_diff(git_repo: Path) -> None:
    from kindling.agents.events import HookPayload
    from kindling.hooks.config import load_hook_config
    from kindling.hooks.mapping import to_draft

    patch = PATCH.replace("*** Delete File: old.txt", "*** Add File: .env\n+TOKEN=abc")
    out = _apply_patch(patch)
    out["cwd"] = str(git_repo)
    draft = to_draft(HookPayload(out, "PostToolUse"), load_hook_config(), str(git_repo))
    assert draft is not None
    assert draft.kind == "file_diff"
    assert "TOKEN=abc" not in draft.content
    assert "withheld" in draft.content


def test_opencode_session_start_and_end_from_the_plugin() -> None:
    from kindling.agents import opencode

    start = opencode.canonical({"directory": "/r", "sessionID": "ses_1"}, "session.start")
    assert start == {"cwd": "/r", "session_id": "ses_1", "source": "startup"}
    end = opencode.canonical(
        {"directory": "/r", "sessionID": "ses_1", "lastAssistantText": "Done."}, "session.end"
    )
    assert end is not None
    assert (end["session_id"], end["last_assistant_message"], end["reason"]) == (
        "ses_1",
        "Done.",
        "exit",
    )
    deleted = {"directory": "/r", "event": {"properties": {"info": {"id": "ses_2"}}}}
    out = opencode.canonical(deleted, "session.deleted")
    assert out is not None
    assert (out["session_id"], out["reason"]) == ("ses_2", "deleted")
    shown = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "x"}}
    assert opencode.render("SessionStart", shown) == shown  # the plugin reads this shape

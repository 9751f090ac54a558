"""Nothing lost at the end of a headless run: the transcript is reconciled at the synchronous
points (Stop, StopFailure, PreCompact, SessionEnd), deduplicated by the tool call's id; an API
error turn is never a summary; and the local and remote modes store the same records."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from kindling import Kindling, Scope
from tests.support.hooks import run_hook

SESSION = "0d4f6c1e-8a2b-4c3d-9e8f-1a2b3c4d5e6f"


def entry(kind: str, blocks: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    role = "assistant" if kind == "assistant" else "user"
    return {
        "type": kind,
        "message": {"role": role, "content": blocks},
        "sessionId": SESSION,
        "uuid": os.urandom(4).hex(),
        **extra,
    }


def tool_use(tid: str, name: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return entry("assistant", [{"type": "tool_use", "id": tid, "name": name, "input": tool_input}])


def tool_result(
    tid: str, content: str, *, error: bool = False, result: Any = None
) -> dict[str, Any]:
    block = {"type": "tool_result", "tool_use_id": tid, "content": content, "is_error": error}
    extra = {"toolUseResult": result} if result is not None else {}
    return entry("user", [block], **extra)


def say(text: str, **extra: Any) -> dict[str, Any]:
    return entry("assistant", [{"type": "text", "text": text}], **extra)


def write(path: Path, entries: list[dict[str, Any]]) -> None:
    with path.open("a", encoding="utf-8") as fh:
        for item in entries:
            fh.write(json.dumps(item) + "\n")


def hook(event: str, cwd: Path, transcript: Path, **fields: Any) -> None:
    data = {
        "session_id": SESSION,
        "transcript_path": str(transcript),
        "cwd": str(cwd),
        "hook_event_name": event,
        **fields,
    }
    proc = run_hook(event, data)
    assert (proc.returncode, proc.stdout if event != "SessionStart" else "", proc.stderr) == (
        0,
        "",
        "",
    )


def bash_payload(cwd: Path, transcript: Path) -> dict[str, Any]:
    return {
        "tool_name": "Bash",
        "tool_input": {"command": "pytest -q"},
        "tool_response": {"stdout": "3 passed", "stderr": "", "interrupted": False},
        "tool_use_id": "toolu_1",
    }


def session_records() -> tuple[list[Any], list[Any]]:
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        obs = kd.list_observations(scope=Scope(session_id=SESSION), limit=100)
        caps = kd.list_capsules(scope=Scope(session_id=SESSION), limit=10)
        summaries = [kd.get_summary(c.summary_id) for c in caps if c.summary_id]
    return sorted(obs, key=lambda o: o.content), summaries


def test_tool_calls_whose_hooks_were_cancelled_come_from_the_transcript(
    git_repo: Path, tmp_path: Path
) -> None:
    transcript = tmp_path / "t.jsonl"
    write(
        transcript,
        [
            entry("user", [{"type": "text", "text": "fix the tests"}]),
            tool_use("toolu_1", "Bash", {"command": "pytest -q"}),
            tool_result("toolu_1", "3 passed", result={"stdout": "3 passed", "stderr": ""}),
            tool_use(
                "toolu_2",
                "Edit",
                {"file_path": str(git_repo / "a.py"), "old_string": "x = 1", "new_string": "x = 2"},
            ),
            tool_result("toolu_2", "ok", result={"filePath": str(git_repo / "a.py")}),
            tool_use("toolu_3", "Bash", {"command": "make lint"}),
            tool_result("toolu_3", "Exit code 2\nE501 line too long", error=True),
            tool_use("toolu_4", "Read", {"file_path": "a.py"}),
            tool_result("toolu_4", "x = 2"),
            tool_use("toolu_5", "Bash", {"command": "sleep 100"}),  # its result comes later
        ],
    )
    hook("SessionStart", git_repo, transcript, source="startup")
    # Only the first tool call's background hook ran; `claude -p` cancelled the others.
    hook("PostToolUse", git_repo, transcript, **bash_payload(git_repo, transcript))
    hook("Stop", git_repo, transcript, last_assistant_message="Tests pass; lint fails.")
    obs, [summary] = session_records()
    assert [o.kind for o in obs] == ["command", "error", "file_diff"]  # Read is a skipped tool
    assert obs[0].content == "$ pytest -q\n[completed]\n3 passed"
    assert obs[1].content == "Bash failed: make lint\n[exit 2]\nE501 line too long"
    assert "-x = 1\n+x = 2" in obs[2].content
    assert obs[1].provenance["reconciled"] is True
    assert "reconciled" not in obs[0].provenance  # the hook's own record came first
    assert summary.content == "Tests pass; lint fails."

    # The pending call finishes; the next synchronous point records it, and only it.
    write(transcript, [tool_result("toolu_5", "done", result={"stdout": "done", "stderr": ""})])
    hook("Stop", git_repo, transcript, last_assistant_message="Slept.")
    # A lost reconciliation state re-reads everything: the ids keep it to one record each.
    for state in (Path(os.environ["KINDLING_HOME"]) / "transcripts").glob("*.json"):
        state.unlink()
    hook("SessionEnd", git_repo, transcript, reason="other")
    hook("PostToolUse", git_repo, transcript, **bash_payload(git_repo, transcript))  # late
    obs, _ = session_records()
    assert sorted(o.content.split("\n")[0] for o in obs) == [
        "$ pytest -q",
        "$ sleep 100",
        "Bash failed: make lint",
        f"Edit {'a.py'}",
    ]


@pytest.mark.parametrize("event", ["Stop", "StopFailure"])
def test_an_api_error_turn_never_becomes_the_summary(
    event: str, git_repo: Path, tmp_path: Path
) -> None:
    transcript = tmp_path / "t.jsonl"
    error = 'API Error: 400 {"type":"error","error":{"type":"invalid_request_error"}}'
    write(transcript, [say("Refactored auth; tests pass."), say(error, isApiErrorMessage=True)])
    hook("SessionStart", git_repo, transcript, source="startup")
    fields: dict[str, Any] = {"last_assistant_message": error}
    if event == "StopFailure":
        fields |= {"error": "invalid_request", "error_details": error}
    hook(event, git_repo, transcript, **fields)
    hook("SessionEnd", git_repo, transcript, reason="other")
    obs, summaries = session_records()
    assert [s.content for s in summaries] == ["Refactored auth; tests pass."]
    kinds = [o.kind for o in obs]
    assert kinds == (["error"] if event == "StopFailure" else [])


def test_a_run_that_only_failed_leaves_no_summary(git_repo: Path, tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    error = "API Error: 400 bad request"
    write(transcript, [say(error, isApiErrorMessage=True)])
    hook("SessionStart", git_repo, transcript, source="startup")
    hook("StopFailure", git_repo, transcript, error="invalid_request", last_assistant_message=error)
    hook("SessionEnd", git_repo, transcript, reason="other")
    obs, summaries = session_records()
    assert summaries == []
    assert [o.kind for o in obs] == ["error"]


def test_a_background_commands_result_arrives_with_its_exit_code_and_output(
    git_repo: Path, tmp_path: Path
) -> None:
    transcript = tmp_path / "t.jsonl"
    transcript.write_text("", encoding="utf-8")
    output = tmp_path / "bash_7.output"
    secret = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
    output.write_text(
        f"compiling\n.env:1:DB_PASSWORD=hunter2\nGITHUB_TOKEN={secret}\nbuild failed: 2 errors\n",
        encoding="utf-8",
    )
    note = (
        "<task-notification><task-id>bash_7</task-id><tool-use-id>toolu_bg</tool-use-id>"
        f"<output-file>{output}</output-file><status>failed</status>"
        '<summary>Background command "npm run build" failed with exit code 2</summary>'
        "</task-notification>"
    )
    hook("SessionStart", git_repo, transcript, source="startup")
    for _ in range(2):  # delivered twice: one result
        hook("UserPromptSubmit", git_repo, transcript, prompt=note)
    hook(
        "UserPromptSubmit", git_repo, transcript, prompt="<task-notification>x</task-notification>"
    )
    obs, _ = session_records()
    [result] = [o for o in obs if o.kind == "command"]
    assert result.content.startswith("[background task bash_7 failed, exit 2]\n")
    assert "build failed: 2 errors" in result.content
    assert secret not in result.content
    assert "hunter2" not in result.content  # a grep line from an excluded file is dropped
    assert result.provenance["exitCode"] == 2
    assert result.provenance["backgroundTaskId"] == "bash_7"
    assert result.provenance["toolUseId"] == "toolu_bg"
    assert [o.provenance["role"] for o in obs if o.kind == "message"] == ["system"]


def test_the_next_session_start_takes_what_a_run_left_unreconciled(
    git_repo: Path, tmp_path: Path
) -> None:
    """A run whose synchronous hooks never saw its last tool call (cancelled, or run before
    the transcript was written): the next SessionStart, of any session, records it, once."""
    transcript = tmp_path / "t.jsonl"
    write(transcript, [entry("user", [{"type": "text", "text": "build it"}])])
    hook("SessionStart", git_repo, transcript, source="startup")
    hook("UserPromptSubmit", git_repo, transcript, prompt="build it")  # notes the transcript
    write(
        transcript,
        [
            tool_use("toolu_9", "Bash", {"command": "make"}),
            tool_result("toolu_9", "built", result={"stdout": "built", "stderr": ""}),
        ],
    )
    # No PostToolUse, Stop or SessionEnd ran. A new session starts:
    other = tmp_path / "other.jsonl"
    other.write_text("", encoding="utf-8")
    for _ in range(2):
        data = {"session_id": "next", "transcript_path": str(other), "cwd": str(git_repo)}
        proc = run_hook("SessionStart", {**data, "hook_event_name": "SessionStart"})
        assert proc.returncode == 0
    obs, _ = session_records()
    assert [o.content for o in obs if o.kind == "command"] == ["$ make\n[completed]\nbuilt"]
    assert all(o.scope.repo_id == str(git_repo) for o in obs)


def test_reconciliation_states_are_pruned_at_session_start(tmp_path: Path) -> None:
    """The states of old sessions go: beyond the newest STATE_MAX_FILES, older than
    STATE_MAX_AGE_S, those whose transcript is gone, and half-written ones a crash left."""
    import time

    from kindling.agents import claude_transcript

    folder = Path(os.environ["KINDLING_HOME"]) / claude_transcript.STATE_DIR
    folder.mkdir(parents=True)
    transcript = tmp_path / "done.jsonl"
    transcript.write_text("", encoding="utf-8")
    now = time.time()
    extra = 30

    def state(name: str, age_s: float, target: Path = transcript) -> Path:
        path = folder / name
        data = {"transcript": str(target), "offset": 0, "session": name, "cwd": str(tmp_path)}
        path.write_text(json.dumps(data), encoding="utf-8")
        os.utime(path, (now - age_s, now - age_s))
        return path

    fresh = [
        state(f"s{i:03d}.json", 60 + i) for i in range(claude_transcript.STATE_MAX_FILES + extra)
    ]
    old = state("old.json", claude_transcript.STATE_MAX_AGE_S + 60)
    gone = state("gone.json", 1, tmp_path / "deleted.jsonl")  # the newest: the sweep reads it
    half = folder / "x.json.123.tmp"
    half.write_text("{", encoding="utf-8")
    os.utime(half, (now - claude_transcript.TMP_MAX_AGE_S - 60,) * 2)
    writing = folder / "y.json.456.tmp"  # another process writing it now
    writing.write_text("{", encoding="utf-8")
    start = {"session_id": "new", "cwd": str(tmp_path), "hook_event_name": "SessionStart"}
    assert run_hook("SessionStart", start).returncode == 0
    left = {p.name for p in folder.iterdir()}
    kept = fresh[
        : claude_transcript.STATE_MAX_FILES - 1
    ]  # the newest STATE_MAX_FILES, less gone.json
    assert left == {p.name for p in kept} | {writing.name}
    assert not old.exists()
    assert not gone.exists()
    assert not half.exists()

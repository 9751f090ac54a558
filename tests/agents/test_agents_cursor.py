"""Cursor beside Claude Code, and Cursor's MCP server environment.

Cursor runs the hooks of ``.claude/settings.json`` too, with its own payloads: one Cursor
session in a repository with ``init --claude-code`` and ``init --cursor`` must be recorded
once, and one with ``init --claude-code`` only must still be recorded (as Cursor's). The
payloads below have the shapes Cursor's SDK 1.0.32 sends (tests/agents/test_cursor_sdk.py runs it):
each step reaches Kindling's Cursor hook and, under Claude Code's event name, its Claude Code
hook.

And ``init --cursor`` forwards Kindling's variables to `kindling mcp` as ``${NAME:-}``, which a
client may pass on expanded to "" or not expanded at all: both mean "unset" (``config.setting``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kindling import Kindling
from kindling.config import SERVER_ENV, default_db_file, is_placeholder, kindling_home, setting
from tests.support.hooks import run_hook

KINDLING = str(Path(sys.executable).with_name("kindling"))
AGENT = "agent-e1aa1370-3e4a-4866-8dd9-48791aa90e20"  # the SDK's conversation (and session) id
PROMPT = "Recall marker-cursor and print it with the shell"


def kindling(*args: str, cwd: Path, env: dict[str, str] | None = None) -> Any:
    return subprocess.run(
        [KINDLING, *args], capture_output=True, text=True, cwd=cwd, timeout=60, env=env
    )


def base(event: str, repo: Path, model: str = "fake-model") -> dict[str, Any]:
    """The fields of every payload the SDK sent."""
    return {
        "conversation_id": AGENT,
        "generation_id": AGENT,
        "model": model,
        "session_id": AGENT,
        "hook_event_name": event,
        "cursor_version": "1.0.0",
        "workspace_roots": [str(repo)],
        "user_email": None,
        "transcript_path": None,
    }


def steps(repo: Path, exit_code: int = 0) -> list[tuple[str | None, str | None, dict[str, Any]]]:
    """One session, as (Cursor's hook event, Claude Code's hook event or None, payload)."""
    start = {**base("sessionStart", repo), "model_id": "fake-model", "is_background_agent": False}
    prompt = {**base("beforeSubmitPrompt", repo), "prompt": PROMPT, "attachments": []}
    shell = {
        **base("afterShellExecution", repo, "unknown"),
        "command": "echo marker-cursor",
        "output": "marker-cursor\n",
        "duration": 193.392,
        "sandbox": False,
    }
    shell_tool = {
        **base("postToolUse", repo, "unknown"),
        "tool_name": "Shell",
        "tool_input": {"command": "echo marker-cursor", "cwd": str(repo), "timeout": 60000},
        "tool_output": json.dumps({"output": "marker-cursor\n", "exitCode": exit_code}),
        "duration": 193.392,
        "tool_use_id": "f9d255fb-6271-4b47-abf4-3fe11f552981",
        "cwd": str(repo),
    }
    edit = {
        **base("afterFileEdit", repo, "unknown"),
        "file_path": str(repo / "notes.txt"),
        "edits": [{"old_string": "", "new_string": "marker-cursor\n"}],
    }
    write_tool = {
        **base("postToolUse", repo, "unknown"),
        "tool_name": "Write",
        "tool_input": {"file_path": str(repo / "notes.txt"), "content": "marker-cursor\n"},
        "tool_output": json.dumps({"file_path": str(repo / "notes.txt"), "success": True}),
        "duration": 33.029,
        "tool_use_id": "call_marker_write",
    }
    answer = {**base("afterAgentResponse", repo, ""), "generation_id": ""}
    answer["text"] = "Done with marker-cursor."
    stop = {**base("stop", repo), "model_id": "fake-model", "status": "completed"}
    stop["loop_count"] = 0
    end = {**base("sessionEnd", repo), "model_id": "fake-model", "reason": "completed"}
    end |= {"duration_ms": 3259, "is_background_agent": False, "final_status": "completed"}
    return [
        ("sessionStart", "SessionStart", start),
        ("beforeSubmitPrompt", "UserPromptSubmit", prompt),
        ("afterShellExecution", None, shell),
        (None, "PostToolUse", shell_tool),
        ("afterFileEdit", None, edit),
        (None, "PostToolUse", write_tool),
        ("afterAgentResponse", None, answer),
        ("stop", "Stop", stop),
        ("sessionEnd", "SessionEnd", end),
    ]


def run_session(repo: Path, *, cursor_hooks: bool, exit_code: int = 0) -> None:
    """Run the hooks Cursor runs: Kindling's Cursor hooks (when ``cursor_hooks``) and its
    Claude Code hooks, in the SDK's order."""
    for native, claude, data in steps(repo, exit_code):
        runs: list[list[str]] = [[native, "--agent", "cursor"]] if cursor_hooks and native else []
        runs += [[claude]] if claude else []
        for args in runs:
            proc = run_hook(args[0], data, *args[1:])
            assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", ""), proc
    log = Path(os.environ["KINDLING_HOME"]) / "hooks.log"
    assert not log.exists(), log.read_text(encoding="utf-8")


def recorded() -> list[tuple[str, str, str, str]]:
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        obs = kd.list_observations(limit=50)
    assert {o.scope.session_id for o in obs} <= {AGENT}
    return sorted((o.kind, o.provenance["source"], o.provenance["event"], o.content) for o in obs)


def capsule_state() -> tuple[str, str | None]:
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        [capsule] = kd.list_capsules()
        summary = kd.get_summary(capsule.summary_id) if capsule.summary_id else None
    return capsule.status, summary.content if summary else None


@pytest.mark.parametrize("scope", ["project", "user"])
def test_with_both_inits_each_step_is_recorded_once_by_the_cursor_hook(
    git_repo: Path, scope: str
) -> None:
    """Kindling's Cursor hooks installed (in either scope): the Claude Code hook Cursor also
    runs records nothing, so each step is one observation, Cursor's."""
    for flag in ("--claude-code", "--cursor"):
        proc = kindling("init", flag, "--scope", scope, cwd=git_repo)
        assert proc.returncode == 0, proc.stderr
    run_session(git_repo, cursor_hooks=True)
    assert [(k, s, e) for k, s, e, _ in recorded()] == [
        ("command", "cursor", "PostToolUse"),
        ("file_diff", "cursor", "PostToolUse"),
        ("message", "cursor", "UserPromptSubmit"),
    ]
    assert capsule_state() == ("closed", "Done with marker-cursor.")


def test_with_claude_codes_hooks_only_a_cursor_session_is_recorded_as_cursors(
    git_repo: Path,
) -> None:
    """No Kindling Cursor hook: the Claude Code hooks record Cursor's payloads as Cursor's
    (its shell tool is a command, its write a diff). Cursor does not send the agent's answer
    to Claude Code's hooks (no afterAgentResponse there), so the capsule closes without a
    summary."""
    proc = kindling("init", "--claude-code", cwd=git_repo)
    assert proc.returncode == 0, proc.stderr
    run_session(git_repo, cursor_hooks=False)
    found = recorded()
    assert [(k, s, e) for k, s, e, _ in found] == [
        ("command", "cursor", "PostToolUse"),
        ("file_diff", "cursor", "PostToolUse"),
        ("message", "cursor", "UserPromptSubmit"),
    ]
    by_kind = {k: c for k, _, _, c in found}
    assert by_kind["command"] == "$ echo marker-cursor\n[completed]\nmarker-cursor"
    assert by_kind["file_diff"].endswith("+marker-cursor")
    assert by_kind["message"] == PROMPT
    assert capsule_state() == ("closed", None)


def test_a_failed_shell_command_cursor_sent_to_claude_codes_hook_is_an_error(
    git_repo: Path,
) -> None:
    run_session(git_repo, cursor_hooks=False, exit_code=2)
    found = recorded()
    assert [r[:3] for r in found] == [
        ("error", "cursor", "PostToolUseFailure"),
        ("file_diff", "cursor", "PostToolUse"),
        ("message", "cursor", "UserPromptSubmit"),
    ]
    assert found[0][3] == "Bash failed: echo marker-cursor\n[exit 2]\nmarker-cursor"


def test_a_cursor_hooks_file_that_does_not_parse_leaves_the_claude_code_hook_recording(
    git_repo: Path,
) -> None:
    """Cursor cannot run hooks from a file it cannot read: the Claude Code hook records."""
    (git_repo / ".cursor").mkdir()
    (git_repo / ".cursor" / "hooks.json").write_text('{"hooks": {"stop": [kindling hook', "utf-8")
    run_session(git_repo, cursor_hooks=False)
    assert [r[0] for r in recorded()] == ["command", "file_diff", "message"]


def test_other_hooks_in_cursors_file_are_not_kindlings(git_repo: Path) -> None:
    """Only Kindling's own Cursor hooks mean the event is recorded elsewhere."""
    hooks = {"version": 1, "hooks": {"stop": [{"command": "./audit.sh"}], "x": "y"}}
    (git_repo / ".cursor").mkdir()
    (git_repo / ".cursor" / "hooks.json").write_text(json.dumps(hooks), "utf-8")
    run_session(git_repo, cursor_hooks=False)
    assert [r[0] for r in recorded()] == ["command", "file_diff", "message"]


def test_a_cursor_event_kindling_does_not_translate_is_logged_not_dropped(git_repo: Path) -> None:
    """Cursor runs Claude Code's SubagentStop hook with its ``subagentStop``: not recorded, and
    said so in hooks.log (with Kindling's Cursor hooks installed, it is left to them)."""
    proc = run_hook("SubagentStop", base("subagentStop", git_repo))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    log = (Path(os.environ["KINDLING_HOME"]) / "hooks.log").read_text(encoding="utf-8")
    assert "cursor event 'subagentStop' is not one Kindling records" in log


# ---------------------------------------------------------------- the MCP server's environment


@pytest.mark.parametrize(
    ("value", "unset"),
    [
        ("${KINDLING_DB:-}", True),
        ("${env:KINDLING_DB}", True),
        ("${KINDLING_DB}", True),
        (" ${KINDLING_DB:-} ", True),
        ("", True),
        ("   ", True),
        ("/data/k.db", False),
        ("${HOME}/k.db", False),  # a path around a reference, not a bare placeholder
        ("$KINDLING_DB", False),
        ("${a}${b}", False),
        ("${", False),
    ],
)
def test_an_empty_or_unexpanded_variable_is_unset(
    monkeypatch: pytest.MonkeyPatch, value: str, unset: bool
) -> None:
    monkeypatch.setenv("KINDLING_DB", value)
    assert setting("KINDLING_DB") == (None if unset else value)
    if value.strip():
        assert is_placeholder(value) == unset
    home = os.environ["KINDLING_HOME"]
    assert default_db_file() == (os.path.join(home, "kindling.db") if unset else value)


def test_a_placeholder_home_is_the_default_home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KINDLING_HOME", "${KINDLING_HOME:-}")
    assert kindling_home() == os.path.expanduser("~/.kindling")


def test_kindling_with_its_variables_left_as_placeholders_uses_its_defaults(
    git_repo: Path,
) -> None:
    """What `kindling mcp` gets from a client that did not expand the ``env`` init wrote:
    every command runs on the default store, locally (not a server named ``${...}``)."""
    env = {**os.environ, **{name: f"${{{name}:-}}" for name in SERVER_ENV}}
    env["KINDLING_URL"] = "${env:KINDLING_URL}"
    del env["KINDLING_DB"]
    home = Path(env["HOME"])
    env["KINDLING_HOME"] = "${KINDLING_HOME:-}"
    proc = kindling("log", "note from the mcp side", "--repo", ".", cwd=git_repo, env=env)
    assert proc.returncode == 0, proc.stderr
    assert (home / ".kindling" / "kindling.db").is_file()
    assert not list(git_repo.glob("$*"))  # no file or folder named after a placeholder


def mcp_json(repo: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((repo / ".cursor" / "mcp.json").read_text("utf-8"))
    return data


def test_init_cursor_forwards_kindlings_variables_to_its_server(git_repo: Path) -> None:
    """The server entry forwards each variable as ``${NAME:-}``; a re-run upgrades an entry
    an earlier init wrote without it, in place, once; --uninstall takes it out and leaves
    the user's own server."""
    (git_repo / ".cursor").mkdir()
    old = {"command": KINDLING, "args": ["mcp"]}
    gh = {"command": "gh-mcp"}
    (git_repo / ".cursor" / "mcp.json").write_text(
        json.dumps({"mcpServers": {"gh": gh, "kindling": old}}), "utf-8"
    )
    first = kindling("init", "--cursor", "--json", cwd=git_repo)
    assert first.returncode == 0, first.stderr
    [change, _] = json.loads(first.stdout)["agents"]["cursor"]
    assert (change["changed"], change["items"], bool(change["backup"])) == (True, ["mcp"], True)
    server = mcp_json(git_repo)["mcpServers"]["kindling"]
    assert server["env"] == {name: "${" + name + ":-}" for name in SERVER_ENV}
    assert {"KINDLING_DB", "KINDLING_HOME", "KINDLING_URL", "KINDLING_TOKEN"} <= set(server["env"])
    assert server["args"][-1] == "mcp"
    assert mcp_json(git_repo)["mcpServers"]["gh"] == gh
    again = kindling("init", "--cursor", "--json", cwd=git_repo)
    assert again.returncode == 0, again.stderr
    [change, _] = json.loads(again.stdout)["agents"]["cursor"]
    assert (change["changed"], change["items"]) == (False, [])
    assert mcp_json(git_repo)["mcpServers"]["kindling"] == server
    gone = kindling("init", "--cursor", "--uninstall", cwd=git_repo)
    assert gone.returncode == 0, gone.stderr
    assert mcp_json(git_repo) == {"mcpServers": {"gh": gh}}

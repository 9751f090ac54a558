"""``kindling init`` and ``kindling init --claude-code`` through a real process."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from kindling.agents.claude_code import is_kindling_hook, merge_hooks, remove_hooks, tool_matcher
from kindling.agents.events import EVENTS
from kindling.hooks.config import DEFAULT_SKIP_TOOLS
from tests.support.hooks import KINDLING
from tests.support.paths import ROOT

EXISTING = {
    "model": "opus",
    "permissions": {"allow": ["Bash(npm run test:*)"], "deny": ["Read(./.env)"]},
    "hooks": {
        "PostToolUse": [
            {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "prettier -w"}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}],
    },
    "env": {"FOO": "1"},
}


def kindling(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [KINDLING, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=60,
        check=False,
    )


def settings(repo: Path) -> Path:
    return repo / ".claude" / "settings.json"


def backups(repo: Path) -> list[Path]:
    return sorted((repo / ".claude").glob("settings.json.kindling-backup-*"))


def kindling_commands(data: dict[str, object]) -> dict[str, list[str]]:
    hooks = data.get("hooks")
    assert isinstance(hooks, dict)
    found: dict[str, list[str]] = {}
    for event, groups in hooks.items():
        for group in groups:
            for entry in group["hooks"]:
                if is_kindling_hook(entry, event):
                    found.setdefault(event, []).append(entry["command"])
    return found


def test_init_creates_the_database_idempotently(tmp_path: Path) -> None:
    first = kindling("init", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    db = Path(os.environ["KINDLING_DB"])
    assert first.stdout.strip() == f"Database: {db}"
    assert db.exists()
    again = kindling("init", "--json", cwd=tmp_path)
    assert json.loads(again.stdout) == {"db": str(db)}


def test_fresh_install_adds_every_event_once(git_repo: Path) -> None:
    sub = git_repo / "src"
    sub.mkdir()
    proc = kindling("init", "--claude-code", cwd=sub)  # the project is the repository root
    assert proc.returncode == 0, proc.stderr
    assert f"Claude Code: {', '.join(EVENTS)} installed in {settings(git_repo)}" in proc.stdout
    data = json.loads(settings(git_repo).read_text())
    commands = kindling_commands(data)
    assert sorted(commands) == sorted(EVENTS)
    assert all(len(c) == 1 for c in commands.values())
    assert data["hooks"]["PostToolUse"][0]["matcher"] == tool_matcher(DEFAULT_SKIP_TOOLS)
    assert data["hooks"]["PostToolUseFailure"][0]["matcher"] == tool_matcher(DEFAULT_SKIP_TOOLS)
    assert "matcher" not in data["hooks"]["SessionStart"][0]
    assert data["hooks"]["Stop"][0]["hooks"][0]["timeout"] == 10
    # Claude Code waits for every hook but the tool events': `claude -p` cancels the background
    # hooks still running when it exits, and then runs no SessionEnd.
    is_async = {e: g[0]["hooks"][0].get("async", False) for e, g in data["hooks"].items()}
    background = ("PostToolUse", "PostToolUseFailure")
    assert is_async == {e: e in background for e in EVENTS}
    assert backups(git_repo) == []  # nothing to back up


SKIPPED = ["Read", "Glob", "Grep", "TodoWrite", "ToolSearch", "mcp__kindling__retrieve"]
RECORDED = ["Bash", "Edit", "Write", "WebFetch", "Task", "mcp__github__x", "ReadX", "XRead"]


def test_the_tool_matcher_skips_the_default_skipped_tools() -> None:
    matcher = re.compile(tool_matcher(DEFAULT_SKIP_TOOLS))
    assert [t for t in SKIPPED + RECORDED if matcher.search(t)] == RECORDED


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_tool_matcher_as_claude_code_reads_it() -> None:
    # Claude Code compiles a matcher with JavaScript's RegExp and tests it unanchored.
    script = (
        "const re = new RegExp(process.argv[1]);"
        "console.log(JSON.stringify(JSON.parse(process.argv[2]).filter(t => re.test(t))))"
    )
    tools = json.dumps(SKIPPED + RECORDED)
    proc = subprocess.run(
        ["node", "-e", script, tool_matcher(DEFAULT_SKIP_TOOLS), tools],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(proc.stdout) == RECORDED


def test_the_matcher_follows_the_skip_tools_setting(git_repo: Path) -> None:
    home = Path(os.environ["KINDLING_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.json").write_text(json.dumps({"hooks": {"skip_tools": ["Web*", "Bash:ls*"]}}))
    assert kindling("init", "--claude-code", cwd=git_repo).returncode == 0
    data = json.loads(settings(git_repo).read_text())
    matcher = data["hooks"]["PostToolUse"][0]["matcher"]
    assert matcher == "^(?!(?:Web.*)$).*"
    assert not re.search(matcher, "WebFetch")
    assert re.search(matcher, "Read")  # no longer skipped


def test_an_old_install_gets_async_and_the_matcher(git_repo: Path) -> None:
    old_entry = {"type": "command", "command": "kindling hook PostToolUse", "timeout": 10}
    shared = {"type": "command", "command": "prettier -w"}
    old = {
        "hooks": {
            "PostToolUse": [{"matcher": "*", "hooks": [shared, old_entry]}],
            "Stop": [{"hooks": [{**old_entry, "command": "kindling hook Stop"}]}],
        }
    }
    merged, touched = merge_hooks(old, "kindling", "^(?!Read$).*")
    assert "PostToolUse" in touched
    assert "Stop" not in touched
    groups = merged["hooks"]["PostToolUse"]
    assert groups[0] == {"matcher": "*", "hooks": [shared]}  # the user's hook keeps its group
    assert groups[1] == {"matcher": "^(?!Read$).*", "hooks": [{**old_entry, "async": True}]}
    assert "async" not in merged["hooks"]["Stop"][0]["hooks"][0]
    assert merge_hooks(merged, "kindling", "^(?!Read$).*")[1] == []  # idempotent


def test_an_install_from_before_loses_async_where_claude_must_wait(git_repo: Path) -> None:
    """Installs before 8d80973 ran PreCompact and SubagentStop in the background, and ``claude
    -p`` runs no SessionEnd while a background hook still runs: ``init`` again makes them
    synchronous."""

    def entry(event: str) -> dict[str, object]:
        return {
            "type": "command",
            "command": f"kindling hook {event}",
            "timeout": 10,
            "async": True,
        }

    old = {"hooks": {e: [{"hooks": [entry(e)]}] for e in ("PreCompact", "SubagentStop")}}
    merged, touched = merge_hooks(old, "kindling")
    assert {"PreCompact", "SubagentStop"} <= set(touched)
    for event in ("PreCompact", "SubagentStop"):
        assert [g["hooks"][0].get("async") for g in merged["hooks"][event]] == [None]


def test_existing_settings_keep_every_other_key_and_are_backed_up(git_repo: Path) -> None:
    path = settings(git_repo)
    path.parent.mkdir()
    original = json.dumps(EXISTING, indent=4)
    path.write_text(original)
    assert kindling("init", "--claude-code", cwd=git_repo).returncode == 0
    data = json.loads(path.read_text())
    assert {k: data[k] for k in ("model", "permissions", "env")} == {
        k: EXISTING[k] for k in ("model", "permissions", "env")
    }
    assert data["hooks"]["PostToolUse"][0] == EXISTING["hooks"]["PostToolUse"][0]  # type: ignore[index]
    assert data["hooks"]["Stop"][0] == EXISTING["hooks"]["Stop"][0]  # type: ignore[index]
    [backup] = backups(git_repo)
    assert backup.read_text() == original

    again = kindling("init", "--claude-code", cwd=git_repo)  # repeated: nothing changes
    assert "already installed" in again.stdout
    assert json.loads(path.read_text()) == data
    assert len(backups(git_repo)) == 1

    removed = kindling("init", "--claude-code", "--uninstall", cwd=git_repo)
    assert removed.returncode == 0, removed.stderr
    assert json.loads(path.read_text()) == EXISTING  # exactly what was added is gone
    assert "not installed" in kindling("init", "--claude-code", "--uninstall", cwd=git_repo).stdout


@pytest.mark.parametrize(
    "content",
    ["{not json", '["a list"]', '{"hooks": []}', '{"hooks": {"Stop": {"x": 1}}}'],
)
def test_invalid_settings_are_refused_and_left_untouched(git_repo: Path, content: str) -> None:
    path = settings(git_repo)
    path.parent.mkdir()
    path.write_text(content)
    for args in (("--claude-code",), ("--claude-code", "--uninstall")):
        proc = kindling("init", *args, cwd=git_repo)
        assert proc.returncode == 1
        assert proc.stderr.startswith(f"kindling: {path}") or f"in {path}" in proc.stderr
        assert "untouched" in proc.stderr
        assert "Traceback" not in proc.stderr
        assert path.read_text() == content
    assert backups(git_repo) == []
    proc = kindling("init", "--claude-code", "--json", cwd=git_repo)
    assert json.loads(proc.stdout)["error"]["code"] == "invalid_input"


def test_user_scope_writes_to_home(tmp_path: Path) -> None:
    proc = kindling("init", "--claude-code", "--scope", "user", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    path = Path(os.environ["HOME"]) / ".claude" / "settings.json"
    assert sorted(kindling_commands(json.loads(path.read_text()))) == sorted(EVENTS)
    kindling("init", "--claude-code", "--scope", "user", "--uninstall", cwd=tmp_path)
    assert json.loads(path.read_text()) == {}


def test_uninstall_needs_claude_code(tmp_path: Path) -> None:
    proc = kindling("init", "--uninstall", cwd=tmp_path)
    assert proc.returncode == 2


def test_installed_command_runs(git_repo: Path) -> None:
    kindling("init", "--claude-code", cwd=git_repo)
    data = json.loads(settings(git_repo).read_text())
    command = data["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    payload = json.dumps({"session_id": "s", "cwd": str(git_repo), "source": "startup"})
    proc = subprocess.run(
        command, shell=True, input=payload, capture_output=True, text=True, check=False
    )
    assert (proc.returncode, proc.stderr) == (0, "")


def test_merge_refreshes_a_moved_executable_and_remove_keeps_foreign_hooks() -> None:
    old, _ = merge_hooks(EXISTING, "/old/venv/bin/kindling")
    new, touched = merge_hooks(old, "kindling")
    assert touched == list(EVENTS)
    assert kindling_commands(new)["Stop"] == ["kindling hook Stop"]
    cleaned, removed = remove_hooks(new)
    assert cleaned == EXISTING
    assert sorted(removed) == sorted(EVENTS)
    mine = {"type": "command", "command": "kindling hook Stop --verbose"}
    assert not is_kindling_hook(mine, "Stop")  # not exactly ours: left alone
    assert not is_kindling_hook({"type": "command", "command": "kindling hook Stop"}, "SessionEnd")


def test_docs_show_the_real_hook_configuration() -> None:
    docs = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    block = docs.split("<!-- hooks-config -->\n```json\n", 1)[1].split("\n```", 1)[0]
    shown = json.loads(block)["hooks"]
    real = merge_hooks({}, "kindling", tool_matcher(DEFAULT_SKIP_TOOLS))[0]["hooks"]
    assert shown == {event: real[event] for event in shown}
    assert len(shown) >= 3

"""What an agent needs before Kindling works in it: ``init`` says it or writes it, and
``kindling doctor`` warns about hooks installed that never ran (Codex runs none until the user
trusts them; Gemini CLI strips ``KINDLING_TOKEN`` from the MCP server unless allowed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.hooks import run_hook

KINDLING = str(Path(sys.executable).with_name("kindling"))


def kindling(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KINDLING, *args], capture_output=True, text=True, cwd=cwd, timeout=60)


def test_init_codex_says_what_codex_needs_before_hooks_run(git_repo: Path) -> None:
    proc = kindling("init", "--codex", cwd=git_repo)
    assert proc.returncode == 0, proc.stderr
    assert "--dangerously-bypass-hook-trust" in proc.stdout
    assert "Trust all and continue" in proc.stdout
    proc = kindling("init", "--codex", "--gemini", "--json", cwd=git_repo)
    notes = json.loads(proc.stdout)["notes"]
    assert list(notes) == ["codex"]


def test_init_opencode_says_while_opencode_has_not_installed_its_own_package(
    git_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Until OpenCode has installed ``@opencode-ai/plugin`` into its own config folder (at its
    first start online), every start offline waits about 70 s for that install before loading
    any plugin (bench/README.md): ``init`` says so, as OpenCode checks that folder, and writes
    nothing there."""
    from bench.opencode_start import used_online

    folder = tmp_path / "config" / "opencode"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder.parent))

    def note() -> str | None:
        proc = kindling("init", "--opencode", "--json", cwd=git_repo)
        assert proc.returncode == 0, proc.stderr
        notes: dict[str, str] = json.loads(proc.stdout).get("notes", {})
        return notes.get("opencode")

    said = note()
    assert said is not None
    assert "@opencode-ai/plugin" in said
    assert str(folder) in said
    assert not folder.exists()  # init leaves OpenCode's folder alone
    used_online(folder)  # as OpenCode's first start online leaves it
    assert note() is None
    lock = folder / "package-lock.json"
    lock.write_text(json.dumps({"packages": {"": {"dependencies": {}}}}), encoding="utf-8")
    assert note() is not None  # OpenCode would install again: its package is not locked
    used_online(folder)
    (folder / "package.json").write_text(
        json.dumps({"dependencies": {"@opencode-ai/plugin": "1", "left-pad": "1"}}),
        encoding="utf-8",
    )
    assert note() is not None  # a dependency the lockfile lacks: OpenCode installs again
    proc = kindling("doctor", "--json", cwd=git_repo)
    [warning] = json.loads(proc.stdout)["warnings"]
    assert warning.startswith("OpenCode's hooks are installed in")
    assert str(folder) in warning


def test_doctor_warns_about_hooks_that_never_ran(git_repo: Path) -> None:
    assert kindling("init", "--codex", "--gemini", cwd=git_repo).returncode == 0
    proc = kindling("doctor", cwd=git_repo)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    warnings = [line for line in proc.stdout.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 2, proc.stdout
    assert any("Codex's hooks" in w and "--dangerously-bypass-hook-trust" in w for w in warnings)
    assert any("Gemini CLI's hooks" in w for w in warnings)
    data = {"session_id": "s", "cwd": str(git_repo), "hook_event_name": "Stop"}
    assert run_hook("Stop", data, "--agent", "codex").returncode == 0
    proc = kindling("doctor", "--json", cwd=git_repo)
    [warning] = json.loads(proc.stdout)["warnings"]
    assert warning.startswith("Gemini CLI's hooks are installed in")


def test_doctor_says_nothing_of_agents_never_installed(git_repo: Path) -> None:
    assert kindling("init", cwd=git_repo).returncode == 0
    proc = kindling("doctor", "--json", cwd=git_repo)
    assert json.loads(proc.stdout)["warnings"] == []


ALLOWED = ("security", "environmentVariableRedaction", "allowed")


def _allowed(path: Path) -> Any:
    data = json.loads(path.read_text(encoding="utf-8"))
    for key in ALLOWED:
        data = data.get(key) if isinstance(data, dict) else None
    return data


def test_init_gemini_lets_kindlings_variables_reach_its_mcp_server(git_repo: Path) -> None:
    settings = git_repo / ".gemini" / "settings.json"
    settings.parent.mkdir()
    mine = {
        "security": {
            "folderTrust": {"enabled": True},
            "environmentVariableRedaction": {"enabled": True, "allowed": ["MY_VAR"]},
        }
    }
    settings.write_text(json.dumps(mine), encoding="utf-8")
    assert kindling("init", "--gemini", cwd=git_repo).returncode == 0
    allowed = _allowed(settings)
    assert allowed[0] == "MY_VAR"
    assert "KINDLING_TOKEN" in allowed
    assert "KINDLING_URL" in allowed
    data = json.loads(settings.read_text(encoding="utf-8"))
    assert data["security"]["folderTrust"] == {"enabled": True}
    assert data["security"]["environmentVariableRedaction"]["enabled"] is True
    assert kindling("init", "--gemini", cwd=git_repo).stdout.count("nothing changed") == 1
    assert kindling("init", "--gemini", "--uninstall", cwd=git_repo).returncode == 0
    assert json.loads(settings.read_text(encoding="utf-8")) == mine


def test_init_gemini_on_fresh_settings_and_back(git_repo: Path) -> None:
    assert kindling("init", "--gemini", cwd=git_repo).returncode == 0
    settings = git_repo / ".gemini" / "settings.json"
    assert "KINDLING_TOKEN" in _allowed(settings)
    assert kindling("init", "--gemini", "--uninstall", cwd=git_repo).returncode == 0
    assert "security" not in json.loads(settings.read_text(encoding="utf-8"))


def test_init_gemini_refuses_an_allowed_list_it_cannot_read(git_repo: Path) -> None:
    settings = git_repo / ".gemini" / "settings.json"
    settings.parent.mkdir()
    text = '{"security": {"environmentVariableRedaction": {"allowed": "MY_VAR"}}}'
    settings.write_text(text, encoding="utf-8")
    proc = kindling("init", "--gemini", cwd=git_repo)
    assert proc.returncode == 1
    assert "left untouched" in proc.stderr
    assert settings.read_text(encoding="utf-8") == text


def test_gemini_and_codex_tool_hooks_leave_kindlings_own_tools_out(git_repo: Path) -> None:
    import re

    settings = git_repo / ".gemini" / "settings.json"
    settings.parent.mkdir()
    old = {"type": "command", "command": "kindling hook --agent gemini PreCompress"}
    mine = {"type": "command", "command": "./mine.sh"}
    stale = {"PreCompress": [{"hooks": [old]}, {"hooks": [mine]}]}
    settings.write_text(json.dumps({"hooks": stale}), encoding="utf-8")
    assert kindling("init", "--gemini", "--codex", cwd=git_repo).returncode == 0
    hooks = json.loads(settings.read_text(encoding="utf-8"))["hooks"]
    assert hooks["PreCompress"] == [{"hooks": [mine]}]  # Kindling's gone, the user's kept
    [group] = hooks["AfterTool"]
    gemini = re.compile(group["matcher"])  # Python's re reads this JavaScript regex alike
    codex_hooks = json.loads((git_repo / ".codex" / "hooks.json").read_text(encoding="utf-8"))
    [codex_group] = codex_hooks["hooks"]["PostToolUse"]
    assert "(?!" not in codex_group["matcher"]  # Codex's regex has no lookahead
    codex = re.compile(codex_group["matcher"])
    for matcher, own, other in (
        (gemini, "mcp_kindling_retrieve", "run_shell_command"),
        (codex, "mcp__kindling__retrieve", "Bash"),
    ):
        assert matcher.search(own) is None
        assert matcher.search(other) is not None
        assert matcher.search("mcp__github__search") is not None
    # Gemini's routine look-ups (Read, Glob, Grep, LS, TodoWrite in skip_tools) start no hook
    for name in ("read_file", "read_many_files", "glob", "grep_search", "list_directory"):
        assert gemini.search(name) is None, name
    for name in ("replace", "write_file", "web_fetch", "mcp_github_search", "read_file_x"):
        assert gemini.search(name) is not None, name


def test_gemini_tool_matcher_follows_skip_tools(git_repo: Path) -> None:
    import re

    from kindling.agents import gemini

    gemini.install("project", str(git_repo), "kindling", skip_tools=("Re*", "Bash:git *"))
    settings = json.loads((git_repo / ".gemini" / "settings.json").read_text(encoding="utf-8"))
    [group] = settings["hooks"]["AfterTool"]
    matcher = re.compile(group["matcher"])
    assert matcher.search("read_file") is None
    assert matcher.search("mcp_kindling_get") is None  # never Kindling's own, whatever the list
    assert matcher.search("glob") is not None  # not in this list
    assert matcher.search("run_shell_command") is not None  # `Bash:git *` needs the command

"""What an agent needs before its hooks run: ``init`` says it, and ``kindling doctor`` warns
about hooks installed that never ran (Codex runs none until the user trusts them)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.hookutil import run_hook

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

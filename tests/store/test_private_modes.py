"""Everything Kindling writes under its home is its user's alone (issue 32): folders 0700,
files 0600, whatever runs first (a hook, the spool, a transcript's state, the database, the
session secrets, the log), under the usual umask 022. Real processes, a fresh home each."""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.hooks import KINDLING, payload, run_hook


@pytest.fixture
def fresh_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path / "fresh" / ".kindling"  # its parent exists, it does not
    monkeypatch.setenv("KINDLING_HOME", str(home))
    monkeypatch.setenv("KINDLING_DB", str(home / "kindling.db"))
    old = os.umask(0o022)
    yield home
    os.umask(old)


def too_open(home: Path) -> list[str]:
    """Every path under ``home`` (itself included) that group or others may use."""
    found = []
    for path in [home, *home.rglob("*")]:
        mode = stat.S_IMODE(path.lstat().st_mode)
        want = 0o700 if path.is_dir() else 0o600
        if mode & 0o077 or (path.is_dir() and mode != want):
            found.append(f"{oct(mode)} {path.relative_to(home.parent)}")
    return sorted(found)


def hook_session(cwd: Path, session: str) -> None:
    for event, name in (
        ("SessionStart", "session_start"),
        ("UserPromptSubmit", "user_prompt_submit"),
        ("PostToolUse", "post_tool_use_bash"),
        ("PostToolUse", "post_tool_use_read_env"),
        ("Stop", "stop"),
        ("PreCompact", "pre_compact"),
        ("SessionEnd", "session_end"),
    ):
        done = run_hook(event, payload(name, cwd, session_id=session))
        assert done.returncode == 0, done.stderr


def test_a_first_hook_run_makes_a_private_home(fresh_home: Path, tmp_path: Path) -> None:
    hook_session(tmp_path, "sess-modes-1")
    assert fresh_home.is_dir()
    assert (fresh_home / "transcripts").is_dir()  # the transcript's state was written
    assert too_open(fresh_home) == []


def test_the_spool_of_a_remote_hook_is_private(
    fresh_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KINDLING_URL", "http://127.0.0.1:9")  # nothing listens: all spooled
    monkeypatch.setenv("KINDLING_TOKEN", "kdt_x")
    hook_session(tmp_path, "sess-modes-2")
    assert (fresh_home / "spool").is_dir()
    assert too_open(fresh_home) == []


def test_the_cli_first_makes_a_private_home(fresh_home: Path) -> None:
    for args in (["log", "a first note"], ["search", "note"], ["status"], ["doctor"]):
        done = subprocess.run([KINDLING, *args], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, (args, done.stderr)
    assert (fresh_home / "kindling.db").is_file()
    assert too_open(fresh_home) == []


def test_new_parent_folders_are_private_too(
    fresh_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hook log and a database in folders that do not exist yet: every folder Kindling
    makes on the way is 0700 (``os.makedirs`` made all but the last 0755)."""
    from kindling.hooks.log import log_problem

    nested = fresh_home / "a" / "b"
    monkeypatch.setenv("KINDLING_HOME", str(nested))
    log_problem("Stop", "a problem")
    assert (nested / "hooks.log").is_file()
    monkeypatch.setenv("KINDLING_DB", str(fresh_home / "c" / "d" / "kindling.db"))
    done = subprocess.run([KINDLING, "log", "x"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert too_open(fresh_home) == []

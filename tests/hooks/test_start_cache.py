"""The context SessionStart injects, kept ahead of time (``kindling.hooks.start_cache``): printed
byte for byte as the full path would print it, never once anything it depends on changed, and
without importing the engine."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kindling import Kindling, Scope, spool
from kindling.hooks import start_cache
from kindling.hooks.config import config_path
from kindling.ids import wall_clock_ms
from tests.support.hooks import KINDLING, payload, run_hook, wait_for_refreshers

SESSION = "9f1c2a7e-5b3d-4c8e-a1f0-2d6b8e4c3a10"
EVENTS = [
    ("SessionStart", "session_start"),
    ("UserPromptSubmit", "user_prompt_submit"),
    ("PostToolUse", "post_tool_use_bash"),
    ("PostToolUse", "post_tool_use_edit"),
    ("PostToolUseFailure", "post_tool_use_failure"),
    ("Stop", "stop"),
    ("SessionEnd", "session_end"),
]


def db() -> Path:
    return Path(os.environ["KINDLING_DB"])


def run_session(repo: Path, session: str = SESSION) -> None:
    for event, name in EVENTS:
        proc = run_hook(event, payload(name, repo, session_id=session))
        assert (proc.returncode, proc.stderr) == (0, "")
    wait_for_refreshers()


def kept(repo: Path) -> tuple[bool, str | None]:
    return start_cache.lookup(str(db()), str(repo), config_path())


def context(proc: subprocess.CompletedProcess[str]) -> str | None:
    if not proc.stdout:
        return None
    out = json.loads(proc.stdout)
    assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    text: str = out["hookSpecificOutput"]["additionalContext"]
    return text


def start(repo: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    data = json.dumps(payload("session_start", repo, session_id="next"))
    return subprocess.run(
        [KINDLING, "hook", "SessionStart"],
        input=data,
        capture_output=True,
        text=True,
        env=env or dict(os.environ),
        timeout=60,
        check=False,
    )


def copy_home(tmp_path: Path) -> dict[str, str]:
    """The whole Kindling home (database, WAL, spool, transcripts) copied elsewhere, less the
    kept context: the same state, which only the full path can answer."""
    home = Path(os.environ["KINDLING_HOME"])
    other = tmp_path / "other-home"
    shutil.copytree(home, other)
    shutil.rmtree(other / f"{db().name}{start_cache.CACHE_SUFFIX}")
    return dict(os.environ, KINDLING_HOME=str(other), KINDLING_DB=str(other / db().name))


@pytest.mark.parametrize("with_pins", [False, True])
def test_the_kept_context_is_what_the_full_path_prints(
    git_repo: Path, tmp_path: Path, with_pins: bool
) -> None:
    run_session(git_repo)
    run_session(git_repo, session="second")
    if with_pins:
        with Kindling.open(db()) as kd:
            [error, *_] = kd.list_observations(kind="error", limit=1)
            [edit, *_] = kd.list_observations(kind="file_diff", limit=1)
            kd.pin("observation", error.id, reason="the build error", ttl_ms=3_600_000)
            kd.pin("observation", edit.id, reason="kept for good")
        run_hook("Stop", payload("stop", git_repo, session_id="second"))  # starts a refresher
        wait_for_refreshers()
    hit, text = kept(git_repo)
    assert hit
    assert text is not None
    assert text.startswith("Kindling memory for this repository")
    assert ("[pinned (the build error)]" in text) is with_pins
    assert ("[pinned (kept for good)]" in text) is with_pins
    full = copy_home(tmp_path)
    fast = start(git_repo)
    slow = start(git_repo, full)
    assert fast.returncode == slow.returncode == 0
    assert fast.stdout == slow.stdout  # byte for byte, the JSON around the text too
    assert context(fast) == text


def test_the_fast_path_does_not_import_the_engine(git_repo: Path) -> None:
    run_session(git_repo)
    assert kept(git_repo)[0]
    data = json.dumps(payload("session_start", git_repo, session_id="next"))
    code = "import sys; from kindling.cli import main; sys.argv[0] = 'kindling'; main()"
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code, "hook", "SessionStart"],
        input=data,
        capture_output=True,
        text=True,
        check=True,
    )
    assert context(proc)
    imported = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines()}
    assert "kindling.hooks" in imported
    leaked = sorted(
        m for m in imported if m.split(".")[0] in ("sqlite3", "dataclasses", "typing", "pathlib")
    )
    assert leaked == []
    assert not {"kindling.engine", "kindling.store", "kindling.secrets.scrub"} & imported


def test_the_refresher_opens_the_new_sessions_capsule(git_repo: Path) -> None:
    run_session(git_repo)
    assert kept(git_repo)[0]
    before = wall_clock_ms()
    assert context(start(git_repo))
    wait_for_refreshers()
    assert kept(git_repo)[0]  # and kept the context for the state after it
    with Kindling.open(db()) as kd:
        [capsule] = kd.list_capsules(scope=Scope(session_id="next"))
    assert capsule.status == "open"
    assert capsule.intent.startswith("Claude Code session in")
    assert before <= capsule.opened_at <= wall_clock_ms()


def test_anything_it_depends_on_makes_the_kept_context_stale(git_repo: Path) -> None:
    run_session(git_repo)
    assert kept(git_repo)[0]
    kd = Kindling.open(db())  # the refresher's connection is gone: this one rebuilds the
    try:  # WAL index, and reads: the state is the same
        kd.list_observations(limit=5)
        assert kept(git_repo)[0]
    finally:
        kd.close()  # the last connection checkpoints the WAL: the files change, so it is stale
    # a record waiting in the spool
    run_hook("PostToolUse", payload("post_tool_use_bash", git_repo, session_id=SESSION))
    assert not kept(git_repo)[0]
    wait_for_refreshers()
    with Kindling.open(db()) as kd:
        pass  # applies it
    run_hook("Stop", payload("stop", git_repo, session_id=SESSION))
    wait_for_refreshers()
    assert kept(git_repo)[0]
    # a write by any other process
    with Kindling.open(db()) as kd:
        kd.append_observation(kind="message", content="x", scope=Scope(repo_id=str(git_repo)))
    assert not kept(git_repo)[0]


def test_settings_a_pins_expiry_and_damage_make_it_stale(git_repo: Path) -> None:
    run_session(git_repo)
    with Kindling.open(db()) as kd:
        [obs, *_] = kd.list_observations(limit=1)
        pin = kd.pin("observation", obs.id, ttl_ms=60_000)
    run_hook("Stop", payload("stop", git_repo, session_id=SESSION))
    wait_for_refreshers()
    assert kept(git_repo)[0]
    assert pin.expires_at is not None
    path, repo, cfg = str(db()), str(git_repo), config_path()
    assert start_cache.lookup(path, repo, cfg, now=pin.expires_at - 1)[0]
    assert not start_cache.lookup(path, repo, cfg, now=pin.expires_at)[0]  # the pin is gone
    assert not start_cache.lookup(path, "/elsewhere", cfg)[0]  # another repository
    Path(cfg).write_text('{"hooks": {"budget_tokens": 300}}', encoding="utf-8")
    assert not kept(git_repo)[0]
    Path(cfg).unlink()
    assert kept(git_repo)[0]
    kept_file = Path(start_cache.cache_file(path, repo))
    assert oct(kept_file.stat().st_mode & 0o777) == "0o600"
    assert oct(kept_file.parent.stat().st_mode & 0o777) == "0o700"
    for damage in ("", "{", "[]", '{"repo": 1}', json.dumps({"repo": repo, "text": 5})):
        kept_file.write_text(damage, encoding="utf-8")
        assert kept(git_repo) == (False, None)
    proc = start(git_repo)  # the full path answers, and nothing is logged
    assert proc.returncode == 0
    assert context(proc)
    assert not (Path(os.environ["KINDLING_HOME"]) / "hooks.log").exists()


def test_forget_removes_the_kept_context(git_repo: Path) -> None:
    run_session(git_repo)
    kept_file = Path(start_cache.cache_file(str(db()), str(git_repo)))
    text = json.loads(kept_file.read_text(encoding="utf-8"))["text"]
    assert "auth/session.py" in text
    with Kindling.open(db()) as kd:
        report = kd.forget_matching("auth/session.py")
    assert report.observations
    assert not kept_file.exists()
    assert kept(git_repo) == (False, None)


def test_the_names_agree_with_the_spool() -> None:
    assert start_cache.SPOOL_SUFFIX == spool.SPOOL_SUFFIX
    assert start_cache.RECORD_SUFFIX == spool.RECORD_SUFFIX
    assert start_cache.CACHE_SUFFIX == spool.CACHE_SUFFIX


def test_no_refresher_when_turned_off(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KINDLING_HOOK_REFRESH", "0")
    run_session(git_repo)
    assert spool.pending(spool.spool_dir(str(db())))  # nobody applied the session's records
    assert not kept(git_repo)[0]

"""Hooks in remote mode: with the server down they exit at once, spool privately and scrubbed;
once it is up, the next hook delivers everything, in order, exactly once (both backends)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from kindling import Kindling, Scope
from tests.support.hooks import payload, run_hook
from tests.support.server import free_port, kindling, running_server

pytest.importorskip("uvicorn")

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

SECRET = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
SESSION = "9f1c2a7e-5b3d-4c8e-a1f0-2d6b8e4c3a10"


def spool_dir() -> Path:
    return Path(os.environ["KINDLING_HOME"]) / "spool"


def test_hooks_spool_while_the_server_is_down_then_deliver(
    store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = kindling(store_url, "token", "create", "--user", "alice").stdout.split()[-1]
    monkeypatch.setenv("KINDLING_TOKEN", token)
    monkeypatch.setenv("KINDLING_URL", f"http://127.0.0.1:{free_port()}")  # nobody listens
    cwd = tmp_path / "proj"
    cwd.mkdir()
    prompt = payload("user_prompt_submit", cwd, prompt=f"deploy with token {SECRET} please")
    for event, data in (
        ("SessionStart", payload("session_start", cwd)),
        ("UserPromptSubmit", prompt),
        ("PostToolUse", payload("post_tool_use_bash", cwd)),
    ):
        out = run_hook(event, data)
        assert (out.returncode, out.stdout) == (0, "")
    entries = sorted(spool_dir().glob("*.json"))
    assert len(entries) == 3
    assert stat.S_IMODE(spool_dir().stat().st_mode) == 0o700
    for entry in entries:
        assert stat.S_IMODE(entry.stat().st_mode) == 0o600
        assert SECRET not in entry.read_text(encoding="utf-8")

    with running_server(store_url) as (url, _proc):
        monkeypatch.setenv("KINDLING_URL", url)
        out = run_hook("SessionEnd", payload("session_end", cwd))
        assert out.returncode == 0
    assert list(spool_dir().glob("*.json")) == []
    with Kindling.open(store_url) as kd:
        stored = kd.list_observations(scope=Scope(session_id=SESSION), limit=10)
        capsules = kd.list_capsules(scope=Scope(session_id=SESSION), limit=10)
    assert len(stored) == 2
    assert {o.scope.user_id for o in stored} == {"alice"}
    assert all(SECRET not in o.content for o in stored)
    assert [c.status for c in capsules] == ["closed"]
    assert set(capsules[0].observation_ids) == {o.id for o in stored}


def test_a_request_the_server_refuses_moves_aside_and_never_blocks(
    store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kindling(store_url, "token", "create", "--user", "bob", "--team", "t")  # no repo granted
    token = kindling(store_url, "token", "create", "--user", "bob", "--team", "t").stdout
    monkeypatch.setenv("KINDLING_TOKEN", token.split()[-1])
    cwd = tmp_path / "proj"
    cwd.mkdir()
    with running_server(store_url) as (url, _proc):
        monkeypatch.setenv("KINDLING_URL", url)
        out = run_hook("UserPromptSubmit", payload("user_prompt_submit", cwd))
        assert (out.returncode, out.stdout) == (0, "")
    assert list(spool_dir().glob("*.json")) == []
    # the prompt's record (applying it would open its session's capsule: no SessionStart came)
    assert len(list((spool_dir() / "failed").glob("*.json"))) == 1
    log = (Path(os.environ["KINDLING_HOME"]) / "hooks.log").read_text(encoding="utf-8")
    assert "refused" in log


def test_session_start_injects_the_servers_memory(
    store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.support.hooks import git_repo, injected

    token = kindling(store_url, "token", "create", "--user", "carol").stdout.split()[-1]
    monkeypatch.setenv("KINDLING_TOKEN", token)
    cwd = git_repo(tmp_path / "proj")
    with running_server(store_url) as (url, _proc):
        monkeypatch.setenv("KINDLING_URL", url)
        for event, name in (
            ("SessionStart", "session_start"),
            ("UserPromptSubmit", "user_prompt_submit"),
            ("PostToolUse", "post_tool_use_bash"),
            ("SessionEnd", "session_end"),
        ):
            assert run_hook(event, payload(name, cwd)).returncode == 0
        later = run_hook("SessionStart", payload("session_start", cwd, session_id="s-next"))
    assert later.returncode == 0
    context = injected(later)
    assert context is not None
    assert "KeyError 'user_id'" in context


def test_an_opencode_session_gets_its_capsule_and_summary_on_the_server(
    store_url: str, git_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """OpenCode has no session start hook: its first recorded event opens the session's
    capsule on the server, so its summary is taken, not refused ("no capsule with id")."""
    from tests.agents.test_opencode_plugin import SESSION as OPENCODE_SESSION
    from tests.agents.test_opencode_plugin import session_payloads

    token = kindling(store_url, "token", "create", "--user", "alice").stdout.split()[-1]
    monkeypatch.setenv("KINDLING_TOKEN", token)
    with running_server(store_url) as (url, _proc):
        monkeypatch.setenv("KINDLING_URL", url)
        for data in session_payloads(git_repo):
            out = run_hook(data["hook_event_name"], data, "--agent", "opencode")
            assert (out.returncode, out.stdout) == (0, "")
    assert list(spool_dir().glob("*.json")) == []
    assert not (spool_dir() / "failed").exists() or not list((spool_dir() / "failed").iterdir())
    with Kindling.open(store_url) as kd:
        scope = Scope(session_id=OPENCODE_SESSION)
        stored = kd.list_observations(scope=scope, limit=20)
        [capsule] = kd.list_capsules(scope=scope, limit=10)
        summary = kd.get_summary(capsule.summary_id) if capsule.summary_id else None
    assert capsule.intent.startswith("OpenCode session in")
    assert set(capsule.observation_ids) == {o.id for o in stored}
    assert summary is not None
    assert summary.content == "Fixed a.py."


def test_what_an_end_hook_leaves_in_the_outbox_is_flushed_in_the_background(
    store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another deliverer holds the outbox (here: this test) while a whole session's hooks run:
    each returns at once, nothing applied; SessionEnd leaves a detached flusher that delivers
    it all once the holder lets go, since no other hook may come (CI saw a team session's
    close left behind)."""
    import fcntl
    import time

    token = kindling(store_url, "token", "create", "--user", "dora").stdout.split()[-1]
    monkeypatch.setenv("KINDLING_TOKEN", token)
    cwd = tmp_path / "proj"
    cwd.mkdir()
    spool_dir().parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    holder = os.open(spool_dir().with_name("spool.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(holder, fcntl.LOCK_EX)
    try:
        with running_server(store_url) as (url, _proc):
            monkeypatch.setenv("KINDLING_URL", url)
            for event, name in (
                ("SessionStart", "session_start"),
                ("PostToolUse", "post_tool_use_bash"),
                ("SessionEnd", "session_end"),
            ):
                out = run_hook(event, payload(name, cwd))
                assert (out.returncode, out.stdout) == (0, "")
            assert len(list(spool_dir().glob("*.json"))) == 3  # taken: none applied
            os.close(holder)
            holder = -1
            deadline = time.monotonic() + 60
            while list(spool_dir().glob("*.json")) and time.monotonic() < deadline:
                time.sleep(0.2)
    finally:
        if holder >= 0:
            os.close(holder)
    assert list(spool_dir().glob("*.json")) == []
    with Kindling.open(store_url) as kd:
        capsules = kd.list_capsules(scope=Scope(session_id=SESSION), limit=10)
        stored = kd.list_observations(scope=Scope(session_id=SESSION), limit=10)
    assert [c.status for c in capsules] == ["closed"]
    assert [o.kind for o in stored] == ["command"]

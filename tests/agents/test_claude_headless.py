"""The real ``claude -p`` (``@anthropic-ai/claude-code`` from npm) against a local stand-in
for the model API (``fake_anthropic``): 20 headless runs, each ending right after a tool call,
store every tool call and the summary Stop saves, with no duplicate; a run that ends on an API
error stores its tool call and the error, and no summary made of the error.

When ``claude -p`` exits it cancels the background hooks still running: these runs pass only
because Stop and SessionEnd are synchronous and reconcile the transcript. Skips in one line
without the CLI (see ``scripts/agent_clis.sh``), except under ``CI=true``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kindling import Kindling, Scope
from tests.support.fake_anthropic import FakeAnthropic
from tests.support.hooks import wait_for_refreshers
from tests.support.requires import unavailable

pytestmark = pytest.mark.slow

KINDLING = str(Path(sys.executable).with_name("kindling"))
CACHE = Path(os.environ.get("KINDLING_NPM_CACHE", Path.home() / ".cache" / "kindling-npm"))
CLAUDE = CACHE / "node_modules" / "@anthropic-ai" / "claude-code" / "bin" / "claude.exe"
RUNS = 20


def claude() -> str:
    if CLAUDE.is_file():
        return str(CLAUDE)
    found = shutil.which("claude")
    if found:
        return found
    unavailable("claude CLI not found (run scripts/agent_clis.sh to install it from npm)")


def run_claude(exe: str, repo: Path, api: FakeAnthropic, prompt: str) -> dict[str, Any]:
    env = dict(os.environ)
    env |= {
        "ANTHROPIC_BASE_URL": api.url,
        "ANTHROPIC_API_KEY": "sk-ant-test-not-a-key",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
    }
    argv = [exe, "-p", prompt, "--allowedTools", "Bash", "--output-format", "json"]
    proc = subprocess.run(
        argv,
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def init(repo: Path) -> None:
    proc = subprocess.run(
        [KINDLING, "init", "--claude-code"], cwd=repo, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr


def session_of(kd: Kindling, session: str) -> tuple[list[Any], Any]:
    obs = kd.list_observations(scope=Scope(session_id=session), limit=100)
    [capsule] = kd.list_capsules(scope=Scope(session_id=session), limit=10)
    return obs, capsule


def test_headless_runs_lose_nothing_and_store_nothing_twice(git_repo: Path) -> None:
    exe = claude()
    init(git_repo)
    sessions = {}
    with FakeAnthropic() as api:
        for n in range(RUNS):
            marker = f"marker-run-{n}"
            result = run_claude(exe, git_repo, api, f"Print {marker} with Bash")
            assert result["is_error"] is False, result
            sessions[marker] = result["session_id"]
    # Under load a run may end while a tool's background hook still runs (Claude Code then
    # cancels it and runs no SessionEnd), or a hook may run before the transcript is written:
    # the next session's start reconciles what is left.
    start = {"session_id": "after", "cwd": str(git_repo), "hook_event_name": "SessionStart"}
    proc = subprocess.run(
        [KINDLING, "hook", "SessionStart"], input=json.dumps(start), capture_output=True, text=True
    )
    assert proc.returncode == 0
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        for marker, session in sessions.items():
            obs, capsule = session_of(kd, session)
            commands = [o for o in obs if o.kind == "command"]
            assert [o.content for o in commands] == [f"$ echo {marker}\n[completed]\n{marker}"]
            assert capsule.summary_id is not None, marker
            assert kd.get_summary(capsule.summary_id).content == f"Done with {marker}."
        everything = kd.list_observations(kind="command", limit=1000)
    assert len(everything) == RUNS  # 0 duplicates
    log = Path(os.environ["KINDLING_HOME"]) / "hooks.log"
    assert not log.exists(), log.read_text(encoding="utf-8")


def test_a_run_ending_on_an_api_error_leaves_no_summary_of_it(git_repo: Path) -> None:
    exe = claude()
    init(git_repo)
    with FakeAnthropic(fail_after_tool=True) as api:
        result = run_claude(exe, git_repo, api, "Print marker-fails with Bash")
    assert result["is_error"] is True
    assert result["result"].startswith("API Error: 400")
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        obs, capsule = session_of(kd, result["session_id"])
        summaries = kd.list_summaries(limit=10)
    assert summaries == []
    assert capsule.summary_id is None
    kinds = sorted(o.kind for o in obs)
    assert kinds == ["command", "error", "message"]  # the tool call, the failed turn, the prompt
    error = next(o for o in obs if o.kind == "error")
    assert error.content.startswith("Turn ended by an API error")


def run_stream(
    exe: str, repo: Path, api: FakeAnthropic, prompts: list[str]
) -> list[dict[str, Any]]:
    """One headless ``claude -p`` fed its prompts one after the other (``stream-json``), as an
    SDK client does; returns the result events."""
    env = dict(os.environ)
    env |= {
        "ANTHROPIC_BASE_URL": api.url,
        "ANTHROPIC_API_KEY": "sk-ant-test-not-a-key",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
    }
    argv = [exe, "-p", "--input-format", "stream-json", "--output-format", "stream-json"]
    argv += ["--verbose", "--allowedTools", "Bash"]
    waiting = list(prompts)
    results: list[dict[str, Any]] = []
    with subprocess.Popen(
        argv,
        cwd=repo,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as proc:
        stdin, stdout = proc.stdin, proc.stdout
        assert stdin is not None
        assert stdout is not None

        def ask() -> None:
            message = {"role": "user", "content": waiting.pop(0)}
            stdin.write(json.dumps({"type": "user", "message": message}) + "\n")
            stdin.flush()

        ask()
        for line in stdout:
            event = json.loads(line)
            if event.get("type") == "result":
                results.append(event)
                if waiting:
                    ask()
                else:
                    stdin.close()
        assert proc.wait(timeout=120) == 0
    return results


def test_a_headless_compaction_stores_its_summary_once(git_repo: Path) -> None:
    """``/compact`` in a headless run: PostCompact stores the summary (role "compaction"); the
    subagent Claude Code runs the compaction in is not stored again; the session keeps one
    capsule, whatever order the background refresher comes in."""
    exe = claude()
    init(git_repo)
    prompts = [f"Print marker-c{n} with Bash" for n in range(3)]
    with FakeAnthropic() as api:
        results = run_stream(exe, git_repo, api, [*prompts, "/compact"])
    assert [r["is_error"] for r in results] == [False] * 4
    session = results[0]["session_id"]
    wait_for_refreshers()
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        obs, capsule = session_of(kd, session)
    compacted = [o for o in obs if o.provenance.get("role") == "compaction"]
    assert [o.content for o in compacted] == [
        "<analysis>Short.</analysis>\n<summary>Compacted: printed marker-c0, marker-c1,"
        " marker-c2.</summary>"
    ]
    assert compacted[0].provenance["event"] == "PostCompact"
    assert [o for o in obs if o.provenance.get("event") == "SubagentStop"] == []
    commands = sorted(o.content for o in obs if o.kind == "command")
    assert commands == [f"$ echo marker-c{n}\n[completed]\nmarker-c{n}" for n in range(3)]
    assert capsule.status == "closed"


class SlowServer:
    """A ``kindling serve`` stand-in on loopback that holds each request ``delay`` seconds,
    then hangs up: a team server under load, as slow hooks see it."""

    def __init__(self, delay: float) -> None:
        import socket
        import threading

        self.delay = delay
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        import threading
        import time

        def hold(conn: Any) -> None:
            time.sleep(self.delay)
            conn.close()

        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=hold, args=(conn,), daemon=True).start()

    def close(self) -> None:
        self.sock.close()


def test_a_slow_tool_hook_does_not_cost_the_session_its_end(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``claude -p`` runs no SessionEnd when a tool's background hook still runs as it exits.
    Against a slow server the tool hook outlasts the model's last reply: Stop waits for it
    (``hooks.inflight``), so SessionEnd runs and its close waits in the outbox."""
    exe = claude()
    init(git_repo)
    server = SlowServer(delay=1.2)
    monkeypatch.setenv("KINDLING_URL", server.url)
    monkeypatch.setenv("KINDLING_TOKEN", "kdt_" + "x" * 43)
    try:
        with FakeAnthropic() as api:
            result = run_claude(exe, git_repo, api, "Print marker-slow with Bash")
    finally:
        server.close()
    assert result["is_error"] is False, result
    spool = Path(os.environ["KINDLING_HOME"]) / "spool"
    records = [json.loads(p.read_text(encoding="utf-8"))["record"] for p in spool.glob("*.json")]
    ours = [r for r in records if r.get("session_id") == result["session_id"]]
    ops = sorted(r["op"] for r in ours)
    assert "close" in ops, ops  # SessionEnd ran
    assert ops.count("observation") >= 2, ops  # the prompt and the tool call

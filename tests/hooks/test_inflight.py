"""Stop waits for its session's tool hooks still running in the background (``hooks.inflight``):
``claude -p`` skips SessionEnd when one is still running as it exits, which left a capsule
open for good (seen in CI, and in /tmp experiments with a slow background hook).

A tool hook's process holds its session's lock until it ends; here a stand-in process holds it
for a while, and the real ``kindling hook Stop`` must return only after it let go.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from kindling.hooks import inflight
from tests.support.hooks import payload, run_hook

SESSION = "9f1c2a7e-5b3d-4c8e-a1f0-2d6b8e4c3a10"  # the session of tests/support/hooks' payloads


def holder(session: str, seconds: float, done: Path) -> subprocess.Popen[bytes]:
    """A process that holds ``session``'s lock as a tool hook does, for ``seconds``, then
    writes the time it let go to ``done``; returns once it holds it."""
    code = (
        "import sys, time\n"
        "from kindling.hooks.inflight import hold\n"
        "assert hold(sys.argv[1]) is not None\n"
        "print('held', flush=True)\n"
        "time.sleep(float(sys.argv[2]))\n"
        "open(sys.argv[3], 'w').write(repr(time.time()))\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, session, str(seconds), str(done)],
        stdout=subprocess.PIPE,
        env=dict(os.environ),
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == b"held"
    return proc


def finish(proc: subprocess.Popen[bytes], kill: bool = False) -> None:
    if kill:
        proc.kill()
    proc.wait(30)
    assert proc.stdout is not None
    proc.stdout.close()


def test_stop_returns_only_after_the_sessions_tool_hooks(tmp_path: Path) -> None:
    cwd = tmp_path / "proj"
    cwd.mkdir()
    done = tmp_path / "done"
    proc = holder(SESSION, 1.0, done)
    try:
        out = run_hook("Stop", payload("stop", cwd))
        returned = time.time()
    finally:
        finish(proc)
    assert out.returncode == 0
    assert float(done.read_text()) <= returned  # the holder let go before Stop returned


def test_another_sessions_tool_hook_is_not_waited_for(tmp_path: Path) -> None:
    done = tmp_path / "done"
    proc = holder("another-session", 30.0, done)
    try:
        assert inflight.wait_idle(SESSION, wait_s=0.0)
        assert not inflight.wait_idle("another-session", wait_s=0.2)  # held: waits, gives up
    finally:
        finish(proc, kill=True)
    assert inflight.wait_idle("another-session", wait_s=5.0)  # its lock ended with it
    assert not done.exists()


def test_a_tool_hook_holds_and_session_end_forgets(tmp_path: Path) -> None:
    """The real hooks: PostToolUse's lock ends with its process; SessionEnd removes the
    session's file. Files are private."""
    cwd = tmp_path / "proj"
    cwd.mkdir()
    assert run_hook("PostToolUse", payload("post_tool_use_bash", cwd)).returncode == 0
    folder = Path(os.environ["KINDLING_HOME"]) / inflight.DIR_NAME
    [lock] = list(folder.iterdir())
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(lock.stat().st_mode) == 0o600
    assert SESSION not in lock.name  # a checksum, not the id
    assert inflight.wait_idle(SESSION, wait_s=0.0)
    assert run_hook("SessionEnd", payload("session_end", cwd)).returncode == 0
    assert list(folder.iterdir()) == []


def test_a_hook_called_in_process_holds_nothing(tmp_path: Path) -> None:
    """A caller that runs hooks in its own process (an SDK adapter) would hold the lock for
    its whole life: in-process hooks neither hold nor wait."""
    code = (
        "import io, json, sys\n"
        "from kindling.hooks import run_hook_cli\n"
        "from kindling.hooks.inflight import wait_idle\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))\n"
        "run_hook_cli(['PostToolUse'], exit_process=False)\n"
        "print(wait_idle(sys.argv[2], wait_s=0.0))\n"
    )
    data = json.dumps(payload("post_tool_use_bash", tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", code, data, SESSION],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=60,
        check=True,
    )
    assert out.stdout.strip() == "True"


def transcript(path: Path, last_result_at: float) -> Path:
    """A Claude Code transcript whose last tool result was written at ``last_result_at``."""
    stamp = datetime.fromtimestamp(last_result_at, UTC).isoformat().replace("+00:00", "Z")
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "done"}
    lines = [
        {"type": "user", "timestamp": "2026-01-01T00:00:00.000Z", "message": {"content": "go"}},
        {"type": "user", "timestamp": stamp, "message": {"role": "user", "content": [result]}},
        {"type": "assistant", "timestamp": stamp, "message": {"content": [{"type": "text"}]}},
    ]
    path.write_text("\n".join(map(json.dumps, lines)) + "\n", encoding="utf-8")
    return path


def test_stop_waits_for_a_tool_hook_that_has_not_taken_its_lock_yet(tmp_path: Path) -> None:
    """A fast model answers before the last tool hook's process holds its lock (60 ms after
    the result, in a CI run that lost its close): Stop lets ``SETTLE_S`` pass since the
    result, then waits for the hook."""
    cwd = tmp_path / "proj"
    cwd.mkdir()
    done = tmp_path / "done"
    code = (
        "import sys, time\n"
        "from kindling.hooks.inflight import hold\n"
        "time.sleep(0.4)\n"  # a tool hook still starting when Stop runs
        "assert hold(sys.argv[1]) is not None\n"
        "time.sleep(0.5)\n"
        "open(sys.argv[2], 'w').write(repr(time.time()))\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, SESSION, str(done)], env=dict(os.environ))
    path = transcript(tmp_path / "t.jsonl", time.time())
    try:
        out = run_hook("Stop", payload("stop", cwd, transcript_path=str(path)))
        returned = time.time()
    finally:
        proc.wait(30)
    assert out.returncode == 0
    assert float(done.read_text()) <= returned


def test_settle_sleeps_only_just_after_a_tool_result(tmp_path: Path) -> None:
    now = time.time()
    assert inflight.last_tool_result(str(transcript(tmp_path / "a", now - 5))) == (
        pytest.approx(now - 5, abs=0.01)
    )
    assert inflight.settle(str(transcript(tmp_path / "b", now - 5))) == 0.0  # long ago
    assert inflight.settle(str(transcript(tmp_path / "c", now + 60))) <= inflight.SETTLE_S
    slept = inflight.settle(str(transcript(tmp_path / "d", time.time() - 0.7)))
    assert 0.0 < slept <= 0.3 + 0.01


@pytest.mark.parametrize(
    "text",
    [
        "",  # empty
        "not json\n{\n",  # damaged
        '{"type": "assistant", "message": {"content": "I saw a \\"tool_result\\" once"}}\n',
        '{"type": "user", "timestamp": 5, "message": {"content": [{"type": "tool_result"}]}}\n',
        '{"timestamp": "yesterday", "message": {"content": [{"type": "tool_result"}]}}\n',
    ],
)
def test_a_transcript_without_a_readable_tool_result_costs_stop_nothing(
    tmp_path: Path, text: str
) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(text, encoding="utf-8")
    assert inflight.last_tool_result(str(path)) is None
    assert inflight.settle(str(path)) == 0.0
    assert inflight.settle(str(tmp_path / "missing.jsonl")) == 0.0
    assert inflight.settle(None) == 0.0

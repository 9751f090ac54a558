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
from pathlib import Path

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

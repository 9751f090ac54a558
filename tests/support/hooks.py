"""Helpers for driving ``kindling hook`` as a real process with recorded payloads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.support.paths import TESTS

DATA = TESTS / "data" / "claude_code"
KINDLING = str(Path(sys.executable).parent / "kindling")


def payload(name: str, cwd: Path, root: Path | None = None, **overrides: Any) -> dict[str, Any]:
    """A recorded payload run in ``cwd``, its file paths under ``root`` (default: ``cwd``)."""
    text = (DATA / f"{name}.json").read_text(encoding="utf-8")
    text = (
        text.replace("@CWD@", str(cwd))
        .replace("@ROOT@", str(root or cwd))
        .replace("@TRANSCRIPT@", str(DATA / "transcript.jsonl"))
    )
    data: dict[str, Any] = json.loads(text)
    data.update(overrides)
    return data


def run_hook(
    event: str, data: dict[str, Any] | bytes | str, *args: str
) -> subprocess.CompletedProcess[str]:
    if isinstance(data, dict):
        stdin = json.dumps(data).encode()
    elif isinstance(data, str):
        stdin = data.encode()
    else:
        stdin = data
    proc = subprocess.run(
        [KINDLING, "hook", event, *args],
        input=stdin,
        capture_output=True,
        env=dict(os.environ),
        timeout=60,
        check=False,
    )
    return subprocess.CompletedProcess(
        proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode()
    )


def injected(proc: subprocess.CompletedProcess[str]) -> str | None:
    """The additionalContext a hook printed, or None when it printed nothing."""
    if not proc.stdout.strip():
        return None
    out = json.loads(proc.stdout)
    context: str = out["hookSpecificOutput"]["additionalContext"]
    return context


def git_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path.resolve()


def wait_for_refreshers(db: Path | None = None, quiet_s: float = 1.0) -> None:
    """Wait until no background refresher (``kindling.hooks.refresh``) has worked on ``db``
    (default ``$KINDLING_DB``) for ``quiet_s``: the ones the hooks started are done."""
    import fcntl
    import time

    target = db or Path(os.environ["KINDLING_DB"])
    lock = Path(f"{target}-inject") / ".lock"
    deadline = time.monotonic() + 120
    free_since = time.monotonic()
    while time.monotonic() < deadline:
        busy = False
        if lock.exists():
            with open(lock, "rb") as fh:
                try:
                    fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                    fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
                except BlockingIOError:
                    busy = True
        now = time.monotonic()
        if busy:
            free_since = now
        elif now - free_since >= quiet_s:
            return
        time.sleep(0.05)

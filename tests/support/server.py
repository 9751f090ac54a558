"""Helpers for the server tests: an app over a test store, and tokens for it."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from kindling import Kindling


def make_token(kd: Kindling, user: str, team: str | None = None, *repos: str) -> str:
    _record, token = kd.team.create_token(user=user, team=team)
    for repo in repos:
        assert team is not None
        kd.team.grant_repo(team=team, repo=repo)
    return token


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def error_code(response: Any) -> str:
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message"}, body
    return str(body["error"]["code"])


KINDLING = Path(sys.executable).with_name("kindling")
START_TIMEOUT_S = 30.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def kindling(
    db: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(KINDLING), "--db", db, *args], capture_output=True, text=True, timeout=60, env=env
    )


@contextmanager
def running_server(
    store_url: str, *args: str, port: int | None = None
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``kindling --db STORE serve [ARGS]`` on ``port`` (default: a free one) of the loopback
    interface, until the block ends."""
    port = port or free_port()
    proc = subprocess.Popen(
        [str(KINDLING), "--db", store_url, "serve", "--port", str(port), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        try:
            urllib.request.urlopen(url + "/openapi.json", timeout=1).close()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                err = proc.stderr.read().decode() if proc.stderr else ""
                pytest.fail(f"kindling serve did not start: {err}")
            time.sleep(0.1)
    try:
        yield url, proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc.stderr:
            proc.stderr.close()

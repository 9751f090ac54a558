"""The real ``kindling serve`` process: tokens from the real CLI, requests over loopback, and
a SIGKILL mid-stream that must not lose any acknowledged write (both backends)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from kindling import Kindling
from tests.support.server import kindling, running_server

pytest.importorskip("uvicorn")

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)


def call(url: str, path: str, token: str | None, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method="POST" if data else "GET")
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@pytest.fixture
def server(store_url: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    with running_server(store_url) as running:
        yield running


def test_token_create_prints_the_token_as_its_last_word(store_url: str) -> None:
    out = kindling(store_url, "token", "create", "--user", "alice", "--team", "web")
    assert out.returncode == 0, out.stderr
    token = out.stdout.split()[-1]
    assert token.startswith("kdt_")
    listed = kindling(store_url, "token", "list", "--json")
    assert token not in listed.stdout  # only the hash is stored
    (row,) = json.loads(listed.stdout)
    assert (row["user"], row["team"], row["revokedAt"]) == ("alice", "web", None)
    assert kindling(store_url, "token", "revoke", row["id"]).returncode == 0
    again = kindling(store_url, "token", "revoke", row["id"])
    assert again.returncode == 1
    assert "no active token" in again.stderr
    assert kindling(store_url, "token", "create").returncode == 2  # --user is required


def test_a_killed_server_loses_no_acknowledged_write(
    store_url: str, server: tuple[str, subprocess.Popen[bytes]]
) -> None:
    url, proc = server
    token = kindling(store_url, "token", "create", "--user", "alice").stdout.split()[-1]
    status, _ = call(url, "/v1/status", None)
    assert status == 401
    acked: list[str] = []
    for i in range(60):
        status, body = call(
            url, "/v1/observations", token, {"kind": "command", "content": f"write {i}"}
        )
        assert status == 201, body
        acked.append(body["id"])
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    with Kindling.open(store_url) as kd:
        stored = kd.store.get_observations(acked)
    assert sorted(stored) == sorted(acked)
    assert all(o.scope.user_id == "alice" for o in stored.values())

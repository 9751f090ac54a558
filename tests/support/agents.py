"""What the tests that drive the agents' real CLIs from npm share (test_agents_cli.py,
test_agents_sessions.py, test_agents_team.py): where the CLIs are, how each is run headless
against a stand-in model on loopback (tests/fake_*.py), the ``home`` fixture (a private HOME
with ``init`` run for Gemini CLI, Codex and OpenCode), and reading what a store holds.

The CLIs are looked up in ``$KINDLING_NPM_CACHE`` (default ``~/.cache/kindling-npm``, where
``scripts/agent_clis.sh`` installs them) and on PATH; without one, a test skips in one line,
except under ``CI=true``, where it fails.
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

from tests.support.requires import unavailable

KINDLING = str(Path(sys.executable).with_name("kindling"))
CACHE = Path(os.environ.get("KINDLING_NPM_CACHE", Path.home() / ".cache" / "kindling-npm"))
MODULES = CACHE / "node_modules"

CLIS = {
    "gemini": ["node", str(MODULES / "@google" / "gemini-cli" / "bundle" / "gemini.js")],
    "codex": ["node", str(MODULES / "@openai" / "codex" / "bin" / "codex.js")],
    "opencode": [str(MODULES / "opencode-ai" / "bin" / "opencode.exe")],
    "claude": [str(MODULES / "@anthropic-ai" / "claude-code" / "bin" / "claude.exe")],
}


# Kindling's disclosure tools: a real session's model requests must offer them.
KINDLING_TOOLS = ("retrieve", "timeline", "get")


def offered(bodies: list[dict[str, Any]]) -> set[str]:
    """The names of the tools the agent offered its model, in any request."""
    import re

    text = json.dumps([b.get("tools") for b in bodies])
    return set(re.findall(r'"name": "([^"]+)"', text))


def kindling_tools(names: set[str]) -> set[str]:
    return {t for t in KINDLING_TOOLS if any("kindling" in n and n.endswith(t) for n in names)}


def cli(name: str) -> list[str]:
    argv = CLIS[name]
    if Path(argv[-1]).is_file() and (argv[0] != "node" or shutil.which("node")):
        return argv
    on_path = shutil.which(name)
    if on_path:
        return [on_path]
    unavailable(f"{name} CLI not found (run scripts/agent_clis.sh to install it from npm)")


def run(argv: list[str], cwd: Path, env: dict[str, str]) -> str:
    proc = subprocess.run(
        argv,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
    )
    return proc.stdout + proc.stderr


def init_agents(git_repo: Path, env: dict[str, str], *flags: str) -> None:
    """``kindling init FLAG`` in ``git_repo`` for each flag, in ``env`` (remote mode when it
    holds ``KINDLING_URL``)."""
    for flag in flags:
        proc = subprocess.run(
            [KINDLING, "init", flag], cwd=git_repo, env=env, capture_output=True, text=True
        )
        assert proc.returncode == 0, proc.stderr


@pytest.fixture
def home(tmp_path: Path, git_repo: Path) -> dict[str, str]:
    """An environment whose HOME is private, with ``init`` already run for the agents."""
    env = dict(os.environ)
    env["CODEX_HOME"] = str(Path(env["HOME"]) / ".codex")
    env["NO_COLOR"] = "1"
    init_agents(git_repo, env, "--gemini", "--codex", "--opencode")
    return env


# A model Codex (0.169, 0.171) has metadata for (its bundled catalog): with it Codex behaves as
# for a real user, so the model gets `tool_search` and the MCP tools stay behind it. With a model
# it has no metadata for, Codex warns, offers no `tool_search` and lists the MCP tools directly.
CODEX_MODEL = "gpt-5.5"


def codex_session(
    argv: list[str],
    git_repo: Path,
    env: dict[str, str],
    api_url: str,
    prompt: str,
    *,
    trust_hooks: bool = True,
) -> str:
    """``codex exec`` of ``prompt`` against the stand-in at ``api_url``, with the project
    trusted and its hooks too unless ``trust_hooks`` is false (``--dangerously-bypass-hook-trust``:
    a user reviews them once).
    ``-c mcp_servers.kindling.required=true`` makes Codex wait for `kindling mcp` before its
    first request: Codex 0.169 does not wait for an optional server, so a first request sent
    while the server starts (3-4 s on a loaded 2-core machine) offers no Kindling tool, not
    even through tool_search. The config ``init`` wrote is used as it is."""
    codex_home = Path(env["CODEX_HOME"])
    codex_home.mkdir(parents=True, exist_ok=True)
    (codex_home / "config.toml").write_text(
        f'model = "{CODEX_MODEL}"\nmodel_provider = "fake"\n'
        f'[model_providers.fake]\nname = "fake"\nbase_url = "{api_url}"\n'
        'wire_api = "responses"\nenv_key = "FAKE_OPENAI_KEY"\n'
        f'[projects."{git_repo}"]\ntrust_level = "trusted"\n',
        encoding="utf-8",
    )
    run_argv = [*argv, "exec", "-c", "mcp_servers.kindling.required=true"]
    run_argv += ["--dangerously-bypass-approvals-and-sandbox"]
    run_argv += ["--dangerously-bypass-hook-trust"] if trust_hooks else []
    return run([*run_argv, prompt], git_repo, {**env, "FAKE_OPENAI_KEY": "not-a-key"})


INJECTED = "Kindling memory for this repository"


def observations(kind: str | None = None, db: str | None = None) -> list[Any]:
    """The observations in ``db`` (default: ``$KINDLING_DB``), of ``kind`` if given."""
    from kindling import Kindling

    with Kindling.open(db or Path(os.environ["KINDLING_DB"])) as kd:
        found = kd.list_observations(limit=200)
    return [o for o in found if kind is None or o.kind == kind]


def gemini_env(git_repo: Path, env: dict[str, str], api_url: str) -> dict[str, str]:
    user = Path(env["HOME"]) / ".gemini"
    user.mkdir(parents=True, exist_ok=True)
    (user / "trustedFolders.json").write_text(f'{{"{git_repo}": "TRUST_FOLDER"}}')
    auth = {"security": {"auth": {"selectedType": "gemini-api-key"}}}
    (user / "settings.json").write_text(json.dumps(auth), encoding="utf-8")
    return {**env, "GOOGLE_GEMINI_BASE_URL": api_url, "GEMINI_API_KEY": "not-a-key"}


def opencode_env(home: dict[str, str], git_repo: Path) -> dict[str, str]:
    user = Path(home["HOME"])
    env = {
        **home,
        "PWD": str(git_repo),  # OpenCode takes its directory from PWD
        "XDG_CONFIG_HOME": str(user / ".config"),
        "XDG_DATA_HOME": str(user / ".local" / "share"),
        "XDG_CACHE_HOME": str(user / ".cache"),
        "XDG_STATE_HOME": str(user / ".local" / "state"),
        "OPENCODE_DISABLE_AUTOUPDATE": "1",
        "OPENCODE_DISABLE_MODELS_FETCH": "1",
    }
    # OpenCode's own folder as its first start online leaves it (bench/opencode_start.py):
    # else, offline, any configured plugin makes it wait for its own install there.
    from bench.opencode_start import used_online

    used_online(user / ".config" / "opencode")
    return env


def opencode_run(
    argv: list[str], git_repo: Path, env: dict[str, str], api_url: str, prompt: str
) -> str:
    """``opencode run`` of ``prompt`` against the stand-in at ``api_url`` (a provider added to
    the ``opencode.json`` that ``init`` wrote). The prompt goes word by word, as typed without
    quotes: ``opencode run`` puts quotes around each argument that holds a space (1.18.33), so
    the model, and Kindling, would see the prompt in quotes."""
    config = git_repo / "opencode.json"
    data = json.loads(config.read_text(encoding="utf-8"))
    data["provider"] = {
        "fake": {
            "npm": "@ai-sdk/anthropic",
            "name": "Fake",
            "options": {"baseURL": f"{api_url}/v1", "apiKey": "not-a-key"},
            "models": {"claude-fake": {"name": "Claude Fake", "tool_call": True}},
        }
    }
    config.write_text(json.dumps(data), encoding="utf-8")
    return run([*argv, "run", "-m", "fake/claude-fake", *prompt.split()], git_repo, env)


def wait_for(check: Any, timeout: float = 60) -> Any:
    """``check()`` once it is truthy (the OpenCode plugin's hooks run detached)."""
    import time

    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.5)

"""Conformance with the agents' real CLIs, from npm: each accepts the config ``kindling init``
wrote and lists Kindling's MCP server (Gemini CLI and OpenCode connect to it: they start
``kindling mcp`` and list its tools; Codex lists it as enabled), a headless session offers the
model Kindling's tools (Codex: once the model searches for them with ``tool_search``), and the
capture hooks record its tool call.

The CLIs are looked up in ``$KINDLING_NPM_CACHE`` (default ``~/.cache/kindling-npm``, where
``scripts/agent_clis.sh`` installs them) and on PATH. Without them each test skips in one line,
except under ``CI=true``, where a missing CLI fails. Cursor's CLI is not published on npm (it
installs from cursor.com), so nothing here runs Cursor: test_cursor_sdk.py runs a session of
Cursor's own client code (its TypeScript SDK, from npm), and test_agents.py validates the files
``init --cursor`` writes against Cursor's published formats and replays its documented payloads.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support.agents import (
    KINDLING_TOOLS,
    cli,
    codex_session,
    home,
    kindling_tools,
    offered,
    run,
)

__all__ = ["home"]  # the fixture, shared (tests/support/agents.py)
pytestmark = pytest.mark.slow  # real agent CLIs from npm: `-m "not slow"` leaves them out


def test_gemini_cli_loads_the_config_and_connects(git_repo: Path, home: dict[str, str]) -> None:
    argv = cli("gemini")
    trusted = Path(home["HOME"]) / ".gemini" / "trustedFolders.json"
    trusted.parent.mkdir(parents=True, exist_ok=True)
    trusted.write_text(f'{{"{git_repo}": "TRUST_FOLDER"}}', encoding="utf-8")  # as the user would
    out = run([*argv, "mcp", "list"], git_repo, home)
    assert "kindling" in out
    assert "Connected" in out, out  # it started `kindling mcp` and listed its tools
    assert "Invalid hook event" not in out, out


def test_codex_loads_the_config_and_lists_the_server(git_repo: Path, home: dict[str, str]) -> None:
    argv = cli("codex")
    codex_home = Path(home["CODEX_HOME"])
    codex_home.mkdir(parents=True, exist_ok=True)
    (codex_home / "config.toml").write_text(
        f'[projects."{git_repo}"]\ntrust_level = "trusted"\n', encoding="utf-8"
    )  # Codex reads a project's .codex/ only once the user trusts it
    out = run([*argv, "mcp", "list"], git_repo, home)
    line = next((x for x in out.splitlines() if x.startswith("kindling")), "")
    assert "mcp" in line, out
    assert "enabled" in line, out


def test_opencode_loads_the_config_and_connects(git_repo: Path, home: dict[str, str]) -> None:
    argv = cli("opencode")
    out = run([*argv, "mcp", "list"], git_repo, home)
    assert "kindling" in out
    assert "connected" in out, out


def test_a_real_codex_session_records_its_tool_call_and_summary(
    git_repo: Path, home: dict[str, str]
) -> None:
    """``codex exec`` against a local stand-in for the Responses API: the hooks ``init`` wrote
    run and record the prompt, the shell command and the summary Stop leaves."""
    from kindling import Kindling
    from tests.support.fake_openai import FakeOpenAI

    argv = cli("codex")
    with FakeOpenAI() as api:
        out = codex_session(argv, git_repo, home, api.url, "Print marker-codex with the shell")
    assert "Done with marker-codex." in out, out
    assert "clamping" not in out, out  # the timeouts init wrote are within Codex's limits
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        obs = kd.list_observations(limit=10)
        [capsule] = kd.list_capsules()
        summary = kd.get_summary(capsule.summary_id) if capsule.summary_id else None
    assert sorted((o.kind, o.provenance["source"]) for o in obs) == [
        ("command", "codex"),
        ("message", "codex"),
    ]
    command = next(o for o in obs if o.kind == "command")
    assert command.content == "$ echo marker-codex\n[completed]\nmarker-codex"
    assert command.provenance["toolUseId"] == "call_marker_codex"
    assert capsule.intent.startswith("Codex session in")
    assert summary is not None
    assert summary.content == "Done with marker-codex."


def test_a_real_codex_session_finds_kindlings_tools_and_calls_retrieve(
    git_repo: Path, home: dict[str, str]
) -> None:
    """Codex 0.169-0.171 defers every MCP tool behind its ``tool_search`` tool for a model with
    search support (no config key turns that off for a server), so the model sees Kindling's
    tools once it searches. The stand-in model searches, Codex answers with Kindling's tools,
    the model calls ``retrieve``, and the answer comes back to the model: the prompt the
    UserPromptSubmit hook stored in ``$KINDLING_DB``, a store other than the default, which
    `kindling mcp` opens only because ``init`` forwards the variable (``env_vars``)."""
    from tests.support.fake_openai import FakeOpenAI

    argv = cli("codex")
    prompt = "Recall marker-codex from Kindling's memory"
    store = Path(home["HOME"]) / "elsewhere" / "memory.db"
    env = {**home, "KINDLING_DB": str(store)}
    with FakeOpenAI(search="kindling memory retrieve", call="retrieve") as api:
        out = codex_session(argv, git_repo, env, api.url, prompt)
        bodies = api.bodies
    assert store.is_file(), out
    assert "Done with marker-codex." in out, out
    assert len(bodies) == 3, out
    first = bodies[0].get("tools") or []
    assert any(t.get("type") == "tool_search" for t in first), first
    assert kindling_tools(offered(bodies[:1])) == set()  # deferred: not offered up front
    [found] = [i for i in bodies[1]["input"] if i.get("type") == "tool_search_output"]
    [space] = [t for t in found["tools"] if t.get("name") == "mcp__kindling"]
    names = {t["name"] for t in space["tools"]}
    assert set(KINDLING_TOOLS) <= names, sorted(names)
    call = next(i for i in bodies[2]["input"] if i.get("type") == "function_call")
    assert (call["namespace"], call["name"]) == ("mcp__kindling", "retrieve")
    [result] = [
        i
        for i in bodies[2]["input"]
        if i.get("type") == "function_call_output" and i.get("call_id") == call["call_id"]
    ]
    assert prompt in json.dumps(result["output"]), result  # found in the hooks' store


def test_a_real_gemini_session_records_its_tool_call_and_summary(
    git_repo: Path, home: dict[str, str]
) -> None:
    """``gemini -p`` against a local stand-in for the Gemini API: the hooks ``init`` wrote
    record the prompt, the shell command (its output, not the model's wrapper) and the
    summary AfterAgent leaves."""
    from kindling import Kindling
    from tests.support.fake_gemini import FakeGemini

    argv = cli("gemini")
    user = Path(home["HOME"]) / ".gemini"
    user.mkdir(parents=True, exist_ok=True)
    (user / "trustedFolders.json").write_text(f'{{"{git_repo}": "TRUST_FOLDER"}}')
    auth = {"security": {"auth": {"selectedType": "gemini-api-key"}}}
    (user / "settings.json").write_text(json.dumps(auth), encoding="utf-8")
    with FakeGemini() as api:
        env = {**home, "GOOGLE_GEMINI_BASE_URL": api.url, "GEMINI_API_KEY": "not-a-key"}
        out = run([*argv, "-p", "Print marker-gemini", "--yolo"], git_repo, env)
        names = offered(api.bodies)
    assert kindling_tools(names) == set(KINDLING_TOOLS), sorted(names)  # from the MCP server
    assert "Done with marker-gemini." in out, out
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        obs = kd.list_observations(limit=10)
        [capsule] = kd.list_capsules()
        summary = kd.get_summary(capsule.summary_id) if capsule.summary_id else None
    assert sorted((o.kind, o.provenance["source"]) for o in obs) == [
        ("command", "gemini"),
        ("message", "gemini"),
    ]
    command = next(o for o in obs if o.kind == "command")
    assert command.content == "$ echo marker-gemini\n[completed]\nmarker-gemini"
    assert capsule.intent.startswith("Gemini CLI session in")
    assert summary is not None
    assert summary.content == "Done with marker-gemini."


def test_a_real_opencode_session_records_its_tool_call_and_summary(
    git_repo: Path, home: dict[str, str]
) -> None:
    """``opencode run`` against a local stand-in for the Messages API (a provider of the
    config, through the ``@ai-sdk/anthropic`` OpenCode bundles): the plugin ``init`` wrote
    hands the prompt, the shell command and the end of the turn to ``kindling hook``."""
    import time

    from kindling import Kindling
    from tests.support.fake_anthropic import FakeAnthropic

    argv = cli("opencode")
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
    config = git_repo / "opencode.json"
    with FakeAnthropic() as api:
        data = json.loads(config.read_text(encoding="utf-8"))
        data["provider"] = {
            "fake": {
                "npm": "@ai-sdk/anthropic",
                "name": "Fake",
                "options": {"baseURL": f"{api.url}/v1", "apiKey": "not-a-key"},
                "models": {"claude-fake": {"name": "Claude Fake", "tool_call": True}},
            }
        }
        config.write_text(json.dumps(data), encoding="utf-8")
        run_argv = [*argv, "run", "-m", "fake/claude-fake", "Print marker-opencode with bash"]
        out = run(run_argv, git_repo, env)
        assert api.requests >= 2, out
        names = offered(api.bodies)
    assert kindling_tools(names) == set(KINDLING_TOOLS), sorted(names)  # from the MCP server
    deadline = time.monotonic() + 60  # the plugin's hooks run detached: they may land later
    while True:
        with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
            obs = kd.list_observations(limit=10)
            capsules = kd.list_capsules()
            summary = None
            if capsules and capsules[0].summary_id:
                summary = kd.get_summary(capsules[0].summary_id)
        if (len(obs) >= 2 and summary is not None) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert sorted((o.kind, o.provenance["source"]) for o in obs) == [
        ("command", "opencode"),
        ("message", "opencode"),
    ], out
    command = next(o for o in obs if o.kind == "command")
    assert command.content == "$ echo marker-opencode\n[completed]\nmarker-opencode"
    assert command.provenance["toolUseId"].startswith("toolu_marker_opencode")
    [capsule] = capsules
    assert capsule.intent.startswith("OpenCode session in")
    assert summary is not None
    assert summary.content == "Done with marker-opencode."

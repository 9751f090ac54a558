"""Agents v4: each agent's real CLI from npm, headless, through several sessions against a
stand-in model on loopback (tests/fake_*.py), checked for what a user of Kindling relies on:
the prompt stored as the user typed it, a command's exit code, edits as diffs, the memory of
one session in the next one's model request, and no growth from memory fed back.

The CLIs come from ``scripts/agent_clis.sh`` (see tests/agents/test_agents_cli.py, whose helpers and
``home`` fixture these tests share); without them each test skips, except under ``CI=true``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.support.agents import (
    INJECTED,
    cli,
    gemini_env,
    home,
    observations,
    opencode_env,
    opencode_run,
    run,
    wait_for,
)

__all__ = ["home"]  # the fixture, shared (tests/support/agents.py)
pytestmark = pytest.mark.slow


def test_gemini_stores_the_prompt_as_typed_through_three_sessions(
    git_repo: Path, home: dict[str, str]
) -> None:
    """Headless Gemini CLI puts session start's context in front of the prompt it hands
    BeforeAgent (``<hook_context>...</hook_context>``): the prompt is stored as the user typed
    it, so the second and third sessions' context holds no copy of an earlier one."""
    from tests.support.fake_gemini import FakeGemini

    argv = cli("gemini")
    prompt = "Print marker-gemini and tell me what the last session did"
    firsts: list[str] = []
    for _ in range(3):
        with FakeGemini() as api:
            env = gemini_env(git_repo, home, api.url)
            out = run([*argv, "-p", prompt, "--yolo"], git_repo, env)
            streamed = [b for b in api.bodies if b.get("contents")]
            firsts.append(json.dumps(streamed[0]["contents"]) if streamed else "")
        assert "Done with marker-gemini." in out, out
    assert INJECTED not in firsts[0]
    assert INJECTED in firsts[1], firsts[1][:2000]  # session 1's memory reached session 2
    assert firsts[2].count(INJECTED) == 1, firsts[2][:4000]  # no memory fed back into memory
    prompts = [o.content for o in observations("message")]
    assert prompts == [prompt] * 3, prompts
    assert all("hook_context" not in o.content for o in observations())


def test_opencode_init_leaves_nothing_in_the_repository_but_its_config(
    git_repo: Path, home: dict[str, str]
) -> None:
    """OpenCode installs ``@opencode-ai/plugin`` into every config folder it scans for plugins,
    and waits for it at each start; ``init`` makes none in the repository, and a real session
    still hands its events to Kindling through the plugin ``opencode.json`` names."""
    from tests.support.fake_anthropic import FakeAnthropic

    argv = cli("opencode")
    env = opencode_env(home, git_repo)
    with FakeAnthropic() as api:
        out = opencode_run(argv, git_repo, env, api.url, "Print marker-opencode with bash")
    assert "Done with marker-opencode." in out, out
    others = (".git", ".codex", ".gemini")  # the other agents' config (the fixture's init)
    left = sorted(
        str(p.relative_to(git_repo))
        for p in git_repo.rglob("*")
        if not any(part in others for part in p.relative_to(git_repo).parts)
    )
    assert left == ["opencode.json"], left
    commands = wait_for(lambda: observations("command"))
    assert [c.content for c in commands] == ["$ echo marker-opencode\n[completed]\nmarker-opencode"]


def test_codex_stores_a_failed_commands_exit_code(git_repo: Path, home: dict[str, str]) -> None:
    """Codex's PostToolUse payload carries no exit code; its session log (the rollout file,
    ``transcript_path``) has it under the same call id: a failing command is stored failed."""
    from tests.support.agents import codex_session
    from tests.support.fake_openai import FakeOpenAI

    argv = cli("codex")
    failing = "echo marker-codex-fail; exit 3"
    with FakeOpenAI(command=failing) as api:
        out = codex_session(argv, git_repo, home, api.url, "Run marker-codex-fail")
    assert "Done with marker-codex-fail." in out, out
    [error] = observations("error")
    assert error.content.startswith(f"Bash failed: {failing}\n[exit 3]"), error.content
    assert "marker-codex-fail" in error.content
    assert error.provenance["exitCode"] == 3
    assert observations("command") == []


def test_gemini_hands_kindling_token_to_the_mcp_server(
    git_repo: Path, home: dict[str, str]
) -> None:
    """Team mode: Gemini CLI strips variables named like a token from an MCP server's
    environment unless its settings allow them; ``init`` allows Kindling's. The server here
    is down, so the tool fails, but for want of the server, not of the token."""
    from tests.support.fake_gemini import FakeGemini
    from tests.support.server import free_port

    argv = cli("gemini")
    team = {**home, "KINDLING_URL": f"http://127.0.0.1:{free_port()}", "KINDLING_TOKEN": "kdt_x"}
    with FakeGemini(tool="status") as api:
        out = run(
            [*argv, "-p", "Kindling status marker-gemini", "--yolo"],
            git_repo,
            gemini_env(git_repo, team, api.url),
        )
        bodies = api.bodies
    answered = [json.dumps(b) for b in bodies if "functionResponse" in json.dumps(b)]
    assert answered, out
    assert "needs a token" not in answered[-1], answered[-1][-3000:]
    assert "status" in answered[-1]


def test_codex_edits_are_stored_as_whole_diffs(git_repo: Path, home: dict[str, str]) -> None:
    """Codex edits with ``apply_patch`` (its own patch format): stored as a ``file_diff``,
    the whole diff, as Claude Code's Edit, not a tool call cut to about 1 KB."""
    from tests.support.agents import codex_session
    from tests.support.fake_openai import FakeOpenAI

    argv = cli("codex")
    (git_repo / "a.py").write_text("x = 1\ny = 2\n", encoding="utf-8")
    added = [f"line_{n} = {n}  # marker-codex-patch" for n in range(150)]
    patch = "\n".join(
        [
            "*** Begin Patch",
            "*** Update File: a.py",
            "@@",
            "-x = 1",
            "+x = 3",
            " y = 2",
            "*** Add File: b.py",
            *(f"+{line}" for line in added),
            "*** End Patch",
            "",
        ]
    )
    with FakeOpenAI(patch=patch) as api:
        out = codex_session(argv, git_repo, home, api.url, "Patch marker-codex-patch")
    assert "Done with marker-codex-patch." in out, out
    assert (git_repo / "a.py").read_text(encoding="utf-8") == "x = 3\ny = 2\n"
    [edit] = observations("file_diff")
    assert edit.content.startswith("Edit a.py (+1 more)\n--- a/a.py\n+++ b/a.py\n"), edit.content
    assert "-x = 1\n+x = 3\n y = 2" in edit.content
    assert "--- /dev/null\n+++ b/b.py" in edit.content
    assert all(f"+{line}" in edit.content for line in added)
    assert len(edit.content) > 4000
    assert observations("tool_call") == []


def test_codex_starts_no_hook_for_kindlings_own_tools(git_repo: Path, home: dict[str, str]) -> None:
    """The PostToolUse matcher ``init`` writes leaves out Kindling's MCP tools: a session
    whose only tool call is Kindling's ``retrieve`` runs no PostToolUse hook at all."""
    from tests.support.agents import codex_session
    from tests.support.fake_openai import FakeOpenAI

    argv = cli("codex")
    with FakeOpenAI(search="kindling memory retrieve", call="retrieve") as api:
        out = codex_session(argv, git_repo, home, api.url, "Recall marker-codex-own")
    assert "Done with marker-codex-own." in out, out
    assert "hook: Stop" in out, out  # hooks run (and say so)...
    assert "hook: PostToolUse" not in out, out  # ...but none for Kindling's own tool


def test_gemini_runs_no_hook_for_precompress_or_kindlings_own_tools(
    git_repo: Path, home: dict[str, str]
) -> None:
    """Gemini CLI fires PreCompress before every model request, and AfterTool for Kindling's
    own MCP tools: ``init`` installs no PreCompress hook and an AfterTool matcher that leaves
    Kindling's tools out (checked with a second hook of the same matcher, which logs)."""
    from tests.support.fake_gemini import FakeGemini

    argv = cli("gemini")
    settings = git_repo / ".gemini" / "settings.json"
    data = json.loads(settings.read_text(encoding="utf-8"))
    assert "PreCompress" not in data["hooks"]
    [group] = data["hooks"]["AfterTool"]
    seen = git_repo.parent / "seen.txt"
    spy = {"type": "command", "command": f"cat >> {seen}; echo >> {seen}"}
    data["hooks"]["AfterTool"].append({"matcher": group["matcher"], "hooks": [spy]})
    settings.write_text(json.dumps(data), encoding="utf-8")
    for tool in ("status", None):  # Kindling's own tool, then the shell
        with FakeGemini(tool=tool) as api:
            env = gemini_env(git_repo, home, api.url)
            out = run([*argv, "-p", "Status marker-gemini", "--yolo"], git_repo, env)
        assert "Done with marker-gemini." in out, out
    lines = [json.loads(x) for x in seen.read_text(encoding="utf-8").splitlines() if x.strip()]
    assert [x["tool_name"] for x in lines] == ["run_shell_command"]


def test_opencode_injects_memory_and_closes_its_sessions(
    git_repo: Path, home: dict[str, str]
) -> None:
    """OpenCode 1.18's ``experimental.chat.system.transform``: the plugin adds session start's
    context to the system prompt, so session 1's memory is in session 2's model request; and
    each session's capsule is closed, with its summary, when OpenCode exits."""
    from kindling import Kindling
    from tests.support.fake_anthropic import FakeAnthropic

    argv = cli("opencode")
    env = opencode_env(home, git_repo)
    systems = []
    for _ in range(2):
        with FakeAnthropic() as api:
            out = opencode_run(argv, git_repo, env, api.url, "Print marker-opencode with bash")
            main = [b for b in api.bodies if "tools" in b and b.get("tools")]
            systems.append(json.dumps([b.get("system") for b in main]))
        assert "Done with marker-opencode." in out, out

        def closed() -> list[Any]:
            with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
                return [c for c in kd.list_capsules() if c.status == "closed"]

        count = len(systems)
        wait_for(lambda: len(closed()) >= count)  # noqa: B023 (count is read at once)
    assert INJECTED not in systems[0], systems[0][-1500:]
    assert INJECTED in systems[1], systems[1][:3000]
    assert "Done with marker-opencode." in systems[1]  # session 1's summary
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        capsules = kd.list_capsules()
        summaries = [kd.get_summary(c.summary_id).content for c in capsules if c.summary_id]
    assert [c.status for c in capsules] == ["closed", "closed"]
    assert summaries == ["Done with marker-opencode."] * 2


def test_doctor_warns_until_codex_runs_the_hooks(git_repo: Path, home: dict[str, str]) -> None:
    """Headless Codex runs no hook the user has not trusted, and says nothing: ``kindling
    doctor`` warns, and stops warning once a session with the hooks trusted has run."""
    import subprocess

    from tests.support.agents import KINDLING, codex_session
    from tests.support.fake_openai import FakeOpenAI

    def codex_warned() -> bool:
        proc = subprocess.run(
            [KINDLING, "doctor", "--json"], cwd=git_repo, env=home, capture_output=True, text=True
        )
        return any(w.startswith("Codex's hooks") for w in json.loads(proc.stdout)["warnings"])

    argv = cli("codex")
    with FakeOpenAI() as api:
        out = codex_session(
            argv, git_repo, home, api.url, "Untrusted marker-codex", trust_hooks=False
        )
    assert "Done with marker-codex." in out, out
    assert observations() == []  # Codex ran the command, and no hook
    assert codex_warned()
    with FakeOpenAI() as api:
        out = codex_session(argv, git_repo, home, api.url, "Trusted marker-codex")
    assert "Done with marker-codex." in out, out
    assert [o.content for o in observations("message")] == ["Trusted marker-codex"]
    assert not codex_warned()

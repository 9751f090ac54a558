"""Agents v4 in team mode: each agent's real CLI from npm, headless, with ``kindling init
--<agent>`` run in remote mode (``KINDLING_URL`` and a team's ``KINDLING_TOKEN``) against a
``kindling serve`` on loopback, through two sessions against a stand-in model (tests/fake_*.py).

Each session is the same script: a failing command that prints a file holding a (fake) secret,
a passing command, and a file written with the secret in it, then an answer. The SERVER's store
must hold the prompt as typed; each command with its output, the failure with its exit code;
the write as a diff; each session closed with its summary; and session 1's memory must be in
session 2's model request. No raw secret, nor the raw team token, is anywhere in the server's
database, and nothing is left undelivered in the local outbox.

Shares its machinery with the local-mode tests (tests/support/agents.py); skips without the CLIs
(``scripts/agent_clis.sh``), except under ``CI=true``.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.agents import (
    INJECTED,
    cli,
    codex_session,
    gemini_env,
    init_agents,
    observations,
    opencode_env,
    opencode_run,
    run,
    wait_for,
)
from tests.support.server import kindling, running_server

pytestmark = pytest.mark.slow

MARKER = "marker-team"
PROMPT = f"{MARKER}: check the config, print {MARKER}-ok and write notes"


@dataclass
class Team:
    """A ``kindling serve`` on loopback, its store, and a developer's environment for it."""

    store: str
    url: str
    token: str
    env: dict[str, str]


@pytest.fixture
def team(tmp_path: Path, git_repo: Path) -> Iterator[Team]:
    pytest.importorskip("uvicorn")
    store = str(tmp_path / "server.db")
    made = kindling(store, "token", "create", "--user", "alice", "--team", "web")
    assert made.returncode == 0, made.stderr
    token = made.stdout.split()[-1]
    granted = kindling(store, "token", "grant", "--team", "web", "--repo", str(git_repo))
    assert granted.returncode == 0, granted.stderr
    with running_server(store) as (url, _proc):
        env = dict(os.environ, KINDLING_URL=url, KINDLING_TOKEN=token, NO_COLOR="1")
        env["CODEX_HOME"] = str(Path(env["HOME"]) / ".codex")
        env["KINDLING_DB"] = str(tmp_path / "never" / "local.db")  # remote mode: never opened
        yield Team(store, url, token, env)


def steps(git_repo: Path, n: int, absolute: bool) -> list[tuple[str, ...]]:
    notes = git_repo / f"notes{n}.txt" if absolute else Path(f"notes{n}.txt")
    return [
        ("shell", "cat config.env; exit 3"),
        ("shell", f"echo {MARKER}-ok"),
        ("write", str(notes), f"note {n}\ntoken = {{secret}}\n"),
    ]


def with_secret(script: list[tuple[str, ...]], secret: str) -> list[tuple[str, ...]]:
    return [tuple(part.replace("{secret}", secret) for part in step) for step in script]


def gemini(git_repo: Path, env: dict[str, str], script: list[tuple[str, ...]]) -> tuple[str, str]:
    from tests.support.fake_gemini import FakeGemini

    with FakeGemini(steps=script) as api:
        env = gemini_env(git_repo, env, api.url)
        out = run([*cli("gemini"), "-p", PROMPT, "--yolo"], git_repo, env)
        main = [b for b in api.bodies if b.get("tools")]
    return out, json.dumps(main[:1])


def codex(git_repo: Path, env: dict[str, str], script: list[tuple[str, ...]]) -> tuple[str, str]:
    from tests.support.fake_openai import FakeOpenAI

    with FakeOpenAI(steps=script) as api:
        out = codex_session(cli("codex"), git_repo, env, api.url, PROMPT)
    return out, json.dumps(api.bodies[:1])


def opencode(git_repo: Path, env: dict[str, str], script: list[tuple[str, ...]]) -> tuple[str, str]:
    from tests.support.fake_anthropic import FakeAnthropic

    with FakeAnthropic(steps=script, tools="opencode") as api:
        out = opencode_run(cli("opencode"), git_repo, opencode_env(env, git_repo), api.url, PROMPT)
        main = [b for b in api.bodies if b.get("tools")]
    return out, json.dumps(main[:1])


def claude_code(
    git_repo: Path, env: dict[str, str], script: list[tuple[str, ...]]
) -> tuple[str, str]:
    from tests.support.fake_anthropic import FakeAnthropic

    with FakeAnthropic(steps=script) as api:
        env = {
            **env,
            "ANTHROPIC_BASE_URL": api.url,
            "ANTHROPIC_API_KEY": "sk-ant-test-not-a-key",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
        }
        argv = [*cli("claude"), "-p", PROMPT, "--allowedTools", "Bash,Write"]
        out = run(argv, git_repo, env)
        main = [b for b in api.bodies if b.get("tools")]
    return out, json.dumps(main[:1])


Session = Callable[[Path, dict[str, str], list[tuple[str, ...]]], tuple[str, str]]
AGENTS: dict[str, tuple[Session, bool]] = {  # the session, and whether writes take an absolute path
    "gemini": (gemini, True),
    "codex": (codex, False),
    "opencode": (opencode, True),
    "claude-code": (claude_code, True),
}


def store_bytes(store: str) -> bytes:
    """Every byte of the server's SQLite database (its WAL and journal too)."""
    found = b""
    for suffix in ("", "-wal", "-journal", "-shm"):
        path = Path(store + suffix)
        if path.is_file():
            found += path.read_bytes()
    return found


def closed_summaries(store: str) -> list[str]:
    from kindling import Kindling

    with Kindling.open(store) as kd:
        capsules = kd.list_capsules()
        if any(c.status != "closed" or not c.summary_id for c in capsules):
            return []
        return [kd.get_summary(c.summary_id).content for c in capsules if c.summary_id]


@pytest.mark.parametrize("agent", list(AGENTS))
def test_two_team_sessions_reach_the_server_whole(agent: str, git_repo: Path, team: Team) -> None:
    session, absolute = AGENTS[agent]
    cli(agent.removesuffix("-code"))  # skips without the CLI
    secret = "ghp_" + secrets.token_hex(18)
    (git_repo / "config.env").write_text(f"GITHUB_TOKEN={secret}\n", encoding="utf-8")
    init_agents(git_repo, team.env, f"--{agent}")
    firsts = []
    for n in (1, 2):
        script = with_secret(steps(git_repo, n, absolute), secret)
        out, first = session(git_repo, team.env, script)
        assert f"Done with {MARKER}." in out, out[-3000:]
        assert secret in (git_repo / f"notes{n}.txt").read_text(encoding="utf-8")
        firsts.append(first)
        wait_for(lambda: len(closed_summaries(team.store)) >= n)  # noqa: B023 (read at once)
    server = team.store
    wait_for(lambda: len(observations("file_diff", server)) >= 2)
    assert INJECTED not in firsts[0], firsts[0][-2000:]
    assert INJECTED in firsts[1], firsts[1][:3000]  # session 1's memory, from the server:
    assert f"Done with {MARKER}." in firsts[1], firsts[1][:3000]  # its summary
    assert closed_summaries(server) == [f"Done with {MARKER}."] * 2
    found = observations(None, server)
    assert {o.provenance.get("source") for o in found} == {agent}, found
    assert [o.content for o in observations("message", server)] == [PROMPT] * 2
    errors = observations("error", server)
    assert len(errors) == 2, errors
    for error in errors:
        assert error.content.startswith("Bash failed: cat config.env; exit 3\n[exit 3]"), error
        assert "GITHUB_TOKEN=" in error.content, error.content  # the output, scrubbed
        assert error.provenance.get("exitCode") == 3, error.provenance
    ok = f"$ echo {MARKER}-ok\n[completed]\n{MARKER}-ok"
    assert [o.content for o in observations("command", server)] == [ok] * 2
    diffs = sorted(o.content for o in observations("file_diff", server))
    assert len(diffs) == 2, diffs
    for n, diff in enumerate(diffs, start=1):
        assert f"+++ b/notes{n}.txt" in diff, diff
        assert f"+note {n}" in diff, diff
    raw = store_bytes(server)
    assert secret.encode() not in raw
    assert secret[4:16].encode() not in raw
    assert team.token.encode() not in raw
    outbox = Path(team.env["KINDLING_HOME"]) / "spool"
    left = [str(p.relative_to(outbox)) for p in outbox.rglob("*") if p.is_file()]
    assert left == [], left
    assert not Path(team.env["KINDLING_DB"]).exists()

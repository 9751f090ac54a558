"""Agents v4 end to end: each agent's real CLI from npm, headless, with ``kindling init
--<agent>`` run, through three sessions against a stand-in model (tests/fake_*.py), in local
mode (the hooks' store, ``$KINDLING_DB``) and in team mode (``KINDLING_URL`` and a team's
``KINDLING_TOKEN``, against a ``kindling serve`` on loopback).

Each session is the same script: a failing command that prints a file holding a (fake) secret,
a passing command, and a file written with the secret in it, then an answer. The store (the
server's, in team mode) must hold the prompt as typed; each command with its output, the
failure with its exit code; the write as a diff; each session closed with its summary; and
session 1's memory must be in session 2's model request. The third session's request holds one
injection, no copy of an earlier one fed back through a stored prompt (issue 34, item 1). No
raw secret, nor the raw team token, is anywhere in the store (its WAL too) or in any file under
Kindling's home, and nothing is left undelivered in the spool.

Shares its machinery with the other real-CLI tests (tests/support/agents.py); skips without the
CLIs (``scripts/agent_clis.sh``), except under ``CI=true``.
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


SESSIONS = 3


@dataclass
class Where:
    """Where the sessions' memory goes: the local store, or a ``kindling serve`` on loopback
    (its store, URL and team token); and a developer's environment for it."""

    mode: str
    store: str
    env: dict[str, str]
    token: str = ""


@pytest.fixture(params=["local", "team"])
def where(request: pytest.FixtureRequest, tmp_path: Path, git_repo: Path) -> Iterator[Where]:
    env = dict(os.environ, NO_COLOR="1")
    env["CODEX_HOME"] = str(Path(env["HOME"]) / ".codex")
    if request.param == "local":
        yield Where("local", env["KINDLING_DB"], env)
        return
    pytest.importorskip("uvicorn")
    store = str(tmp_path / "server.db")
    made = kindling(store, "token", "create", "--user", "alice", "--team", "web")
    assert made.returncode == 0, made.stderr
    token = made.stdout.split()[-1]
    granted = kindling(store, "token", "grant", "--team", "web", "--repo", str(git_repo))
    assert granted.returncode == 0, granted.stderr
    with running_server(store) as (url, _proc):
        env |= {"KINDLING_URL": url, "KINDLING_TOKEN": token}
        env["KINDLING_DB"] = str(tmp_path / "never" / "local.db")  # remote mode: never opened
        yield Where("team", store, env, token)


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


def written(where: Where) -> bytes:
    """Every byte Kindling wrote: the store (its WAL and journal too) and every file under
    Kindling's home (the local store, the spool, the hook log)."""
    found = b""
    for suffix in ("", "-wal", "-journal", "-shm"):
        path = Path(where.store + suffix)
        if path.is_file():
            found += path.read_bytes()
    for path in Path(where.env["KINDLING_HOME"]).rglob("*"):
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


def state(where: Where) -> str:
    """What a failed wait saw: each capsule (status, summary or not, intent) and what is left
    in the outbox."""
    from kindling import Kindling

    with Kindling.open(where.store) as kd:
        capsules = [(c.status, bool(c.summary_id), c.intent) for c in kd.list_capsules()]
    return f"capsules {capsules}; outbox {left_in_spool(where)}"


def left_in_spool(where: Where) -> list[str]:
    spool = Path(where.env["KINDLING_HOME"]) / "spool"
    return sorted(str(p.relative_to(spool)) for p in spool.rglob("*") if p.is_file())


@pytest.mark.parametrize("agent", list(AGENTS))
def test_three_sessions_reach_memory_whole(agent: str, git_repo: Path, where: Where) -> None:
    session, absolute = AGENTS[agent]
    cli(agent.removesuffix("-code"))  # skips without the CLI
    secret = "ghp_" + secrets.token_hex(18)
    (git_repo / "config.env").write_text(f"GITHUB_TOKEN={secret}\n", encoding="utf-8")
    init_agents(git_repo, where.env, f"--{agent}")
    store = where.store
    firsts = []
    for n in range(1, SESSIONS + 1):
        script = with_secret(steps(git_repo, n, absolute), secret)
        out, first = session(git_repo, where.env, script)
        assert f"Done with {MARKER}." in out, out[-3000:]
        assert secret in (git_repo / f"notes{n}.txt").read_text(encoding="utf-8")
        firsts.append(first)
        ended = wait_for(lambda: len(closed_summaries(store)) >= n)  # noqa: B023 (read at once)
        assert ended, state(where)
    assert wait_for(lambda: len(observations("file_diff", store)) >= SESSIONS), state(where)
    assert INJECTED not in firsts[0], firsts[0][-2000:]
    assert INJECTED in firsts[1], firsts[1][:3000]  # session 1's memory, from the store:
    assert f"Done with {MARKER}." in firsts[1], firsts[1][:3000]  # its summary
    assert firsts[2].count(INJECTED) == 1, firsts[2][:6000]  # no memory fed back into memory
    assert closed_summaries(store) == [f"Done with {MARKER}."] * SESSIONS
    found = observations(None, store)
    assert {o.provenance.get("source") for o in found} == {agent}, found
    assert [o.content for o in observations("message", store)] == [PROMPT] * SESSIONS
    assert not [o for o in found if INJECTED in o.content or "hook_context" in o.content]
    errors = observations("error", store)
    assert len(errors) == SESSIONS, errors
    for error in errors:
        assert error.content.startswith("Bash failed: cat config.env; exit 3\n[exit 3]"), error
        assert "GITHUB_TOKEN=" in error.content, error.content  # the output, scrubbed
        assert error.provenance.get("exitCode") == 3, error.provenance
    ok = f"$ echo {MARKER}-ok\n[completed]\n{MARKER}-ok"
    assert [o.content for o in observations("command", store)] == [ok] * SESSIONS
    diffs = sorted(o.content for o in observations("file_diff", store))
    assert len(diffs) == SESSIONS, diffs
    for n, diff in enumerate(diffs, start=1):
        assert f"+++ b/notes{n}.txt" in diff, diff
        assert f"+note {n}" in diff, diff
    raw = written(where)
    assert secret.encode() not in raw
    assert secret[4:16].encode() not in raw
    if where.token:
        assert where.token.encode() not in raw
    assert left_in_spool(where) == []
    if where.mode == "team":
        assert not Path(where.env["KINDLING_DB"]).exists()

"""The parity suite, adapter half: every CLI command with ``--json`` (and the bridge, whose
output is JSON) and every MCP tool, run on a local database and against ``kindling serve`` over
another database of the same backend (both backends), must print equal JSON (ids and the
server's user stamp aside, ``paritylib.normal``).

Commands remote mode cannot serve (``token``, ``doctor``) refuse in one line with exit 1 and
never touch a local file; ``status`` answers in its two documented shapes. The user-visible
bugs of e518108 each have a test here: ``bridge ingest`` wrote to the local file under
``KINDLING_URL``, ``token list`` read the empty local file, and a 1.1 MB ``log`` failed
remotely (``test_parity.py`` has ``contextOnly``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kindling import Kindling, connect
from kindling.mcp.tools import KindlingTools
from kindling.memory import Memory
from tests.support.cli import Run, run
from tests.support.parity import T0, Pair, local_and_served, normal

pytest.importorskip("uvicorn")
pytest.importorskip("mcp")
pytestmark = pytest.mark.contract  # both backends (conftest)

REPO = "webapp"
BIG = "a long build log line\n" * 52_000  # 1.1 MB: over the content cap


@pytest.fixture
def pair(store_url: str, tmp_path: Path) -> Iterator[Pair]:
    with local_and_served(store_url, tmp_path) as both:
        yield both


class Side:
    """Runs commands on one side: ``local`` (``--db``) or ``remote`` (``KINDLING_URL``)."""

    def __init__(self, pair: Pair, remote: bool, home: Path) -> None:
        self.remote = remote
        self.env = {"KINDLING_NOW": str(T0)}
        if remote:
            self.env |= {"KINDLING_URL": pair.url, "KINDLING_TOKEN": pair.token}
            self.env["KINDLING_DB"] = str(home / "never-written.db")  # must stay absent
        else:
            self.env["KINDLING_DB"] = pair.local_url
        self.step = 0

    def __call__(self, *args: str, stdin: str | None = None, code: int = 0) -> Any:
        self.step += 1
        self.env["KINDLING_NOW"] = str(T0 + self.step * 1000)
        out = run(*args, stdin=stdin, env=self.env)
        assert out.code == code, (self.remote, args, out.stdout, out.stderr)
        assert "Traceback" not in out.stderr
        return out.json() if out.stdout.lstrip().startswith(("{", "[")) else out


def scenario(k: Side, tmp: Path) -> list[Any]:
    """Every data command with --json, building on each other's ids."""
    out: list[Any] = []
    scope = ["--repo", REPO, "--session", "s1"]
    cap = k("capsule", "open", "--intent", "fix the zebra login", *scope, "--json")
    obs = k("log", "login fails: KeyError 'user_id'", "--kind", "error", *scope, "--json")
    big = k("log", "-", *scope, "--json", stdin=BIG)
    out += [cap, obs, big]
    assert big["provenance"]["contentTruncatedFromBytes"] == len(BIG.encode())
    out.append(k("log", "pytest -k login passes", "--kind", "command", *scope, "--json"))
    closed = k("capsule", "close", cap["id"], "--summary", "a guard", "--evidence", obs["id"],
               "--json")  # fmt: skip
    pin = k("pin", "observation", obs["id"], "--reason", "the symptom", "--ttl", "2h", "--json")
    out += [closed, pin]
    for what in ("observations", "capsules", "summaries", "pins"):
        out.append(k("list", what, "--repo", REPO, "--json"))
    out.append(k("list", "observations", "--repo", REPO, "--kind", "error", "--json"))
    for query in ("login KeyError", "zebra", ""):
        out.append(k("search", query, "--repo", REPO, "--json"))
    for entity_id in (obs["id"], cap["id"], closed["summaryId"], pin["id"]):
        out.append(k("show", entity_id, "--json"))
    out.append(k("timeline", obs["id"], "--json"))
    out.append(k("get", obs["id"], cap["id"], "--budget", "40", "--json"))
    bundle = tmp / "bundle.json"  # the same name on both sides: it is in the JSON
    out.append(k("export", str(bundle), "--repo", REPO, "--json"))
    exported = json.loads(bundle.read_text())
    out.append(exported)
    out.append(k("import", str(bundle), "--dry-run", "--json"))
    out.append(k("forget", "--match", "pytest -k", "--dry-run", "--json"))
    out.append(k("forget", obs["id"], "--json"))
    out.append(k("forget", "--finish", "--json"))
    out.append(k("unpin", pin["id"], "--json"))
    memory = '{"topic": "Auth", "decisions": ["Use JWT"], "topic_id": "auth"}'
    ws = str(tmp.resolve())
    out.append(k("bridge", "ingest", ws, stdin=memory))
    out.append(k("bridge", "retrieve", ws, "JWT decisions", "3", "2000", "7", "false"))
    return out


def test_every_command_gives_equal_json(pair: Pair, tmp_path: Path) -> None:
    home = tmp_path / "home-remote"
    home.mkdir()
    local, remote = Side(pair, False, tmp_path), Side(pair, True, home)
    here, there = scenario(local, tmp_path), scenario(remote, tmp_path)
    assert len(here) == len(there)
    for mine, theirs in zip(here, there, strict=True):
        assert normal(mine) == normal(theirs)
    (zebra,) = [
        o for o in there if isinstance(o, dict) and o.get("provenance", {}).get("query") == "zebra"
    ]
    # contextOnly travels (it was always false remotely): the hits match the capsule's intent
    assert zebra["candidates"]
    assert all(c["explanation"]["contextOnly"] for c in zebra["candidates"])
    assert not (home / "never-written.db").exists()  # remote mode never opened a local file


def test_status_answers_in_its_two_shapes(pair: Pair, tmp_path: Path) -> None:
    local, remote = Side(pair, False, tmp_path), Side(pair, True, tmp_path)
    for side in (local, remote):
        side("log", "something", "--repo", REPO, "--json")
    mine, theirs = local("status", "--json"), remote("status", "--json")
    assert {"database", "sizeBytes", "observations"} <= set(mine)
    assert {"server", "backend", "user", "repos"} <= set(theirs)
    assert "observations" not in theirs
    assert theirs["user"] == "alice"


def one_line_refusal(out: Run) -> None:
    assert out.code == 1
    assert out.stderr.startswith("kindling: "), out.stderr
    assert out.stderr.count("\n") == 1, out.stderr
    assert json.loads(out.stdout)["error"]["code"] == "remote_mode", out.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("token", "list", "--json"),
        ("token", "create", "--user", "bob", "--json"),
        ("token", "revoke", "abc", "--json"),
        ("token", "grant", "--team", "web", "--repo", "x", "--json"),
        ("doctor", "--json"),
        ("doctor", "--rebuild-index", "--json"),
    ],
)
def test_what_remote_mode_cannot_serve_refuses_in_one_line(
    pair: Pair, tmp_path: Path, args: tuple[str, ...]
) -> None:
    """``token list`` used to read the empty local file and print nothing, exit 0."""
    local_db = tmp_path / "local-only.db"
    env = {"KINDLING_URL": pair.url, "KINDLING_TOKEN": pair.token, "KINDLING_DB": str(local_db)}
    one_line_refusal(run(*args, env=env))
    assert not local_db.exists()


def test_bridge_ingest_writes_to_the_server(pair: Pair, tmp_path: Path) -> None:
    """With KINDLING_URL set, ``bridge ingest`` wrote to the local file, and the server's
    search found nothing."""
    local_db = tmp_path / "local-only.db"
    env = {"KINDLING_URL": pair.url, "KINDLING_TOKEN": pair.token, "KINDLING_DB": str(local_db)}
    memory = '{"topic": "Deploys", "decisions": ["Deploy on Fridays never"]}'
    ws = str(tmp_path.resolve())
    out = run("bridge", "ingest", ws, stdin=memory, env=env)
    assert out.code == 0, out.stdout
    assert out.json()["success"]
    assert not local_db.exists()
    with Kindling.open(pair.server_url) as kd:
        assert [m.memory.summary.id for m in kd.search_memories(ws, "Fridays")] == [
            out.json()["id"]
        ]
    found = run("bridge", "retrieve", ws, "Fridays", env=env).json()
    assert [r["id"] for r in found["results"]] == [out.json()["id"]]


def test_a_big_log_works_remotely(pair: Pair, tmp_path: Path) -> None:
    """A 1.1 MB ``log`` worked locally and failed remotely (413): the server's body cap was
    below the content cap plus JSON overhead. Control characters cost 6 bytes each in JSON."""
    env = {"KINDLING_URL": pair.url, "KINDLING_TOKEN": pair.token}
    text = "\x01" * (1 << 20)  # the worst spelling: 6 MiB of JSON for 1 MiB of content
    out = run("log", "-", "--repo", REPO, "--json", stdin=text, env=env)
    assert out.code == 0, out.stderr
    assert len(out.json()["content"]) == 1 << 20


# ------------------------------------------------------------------ MCP tools


def tool_calls(t: KindlingTools) -> list[Any]:
    """Every MCP tool once (and more for the ones with modes), as their structured JSON."""
    out: list[Any] = []

    def call(tool: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        result = tool(*args, **kw)
        out.append(result.structured_content)
        return result.structured_content

    made = call(t.remember, "the zebra deploy failed on a missing env var", kind="error",
                pin=True, reason="remember this")  # fmt: skip
    call(t.remember, "fixed by exporting DATABASE_URL", kind="message")
    call(t.retrieve, "zebra deploy")
    call(t.retrieve, "zebra deploy", explain=True)
    call(t.recent, limit=5)
    obs_id = made["id"]
    call(t.timeline, obs_id)
    call(t.get, [obs_id])
    pinned = call(t.pin, obs_id, reason="again", ttl_minutes=60)
    call(t.unpin, pinned["pinId"])
    call(t.forget, match="DATABASE_URL", dry_run=True)
    call(t.forget, observation_id=obs_id)
    return out


def test_every_mcp_tool_gives_equal_json(pair: Pair, tmp_path: Path) -> None:
    now = [T0]

    def local() -> Memory:
        now[0] += 1000
        stamp = now[0]
        return connect(pair.local_url, now=stamp)

    def remote() -> Memory:
        now[0] += 1000
        return connect(pair.url, token=pair.token, now=now[0])

    repo = str(tmp_path)
    here = tool_calls(KindlingTools(tmp_path / "unused.db", repo, local))
    now[0] = T0
    there = tool_calls(KindlingTools(tmp_path / "unused.db", repo, remote))
    for mine, theirs in zip(here, there, strict=True):
        assert normal(mine) == normal(theirs)
    status_here = KindlingTools(tmp_path / "unused.db", repo, local).status().structured_content
    status_there = KindlingTools(tmp_path / "unused.db", repo, remote).status().structured_content
    assert "observationsByKind" in status_here
    assert "server" in status_there

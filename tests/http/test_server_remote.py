"""Remote mode: the real CLI with --url/--token (or KINDLING_URL/KINDLING_TOKEN) against a real
``kindling serve``, and the client's own secret masking, before anything leaves the machine."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any, ClassVar

import jsonschema
import pytest

from kindling import Kindling, Scope
from kindling.bundle import parse_bundle
from kindling.client.front import RemoteKindling
from kindling.errors import InvalidInputError, ServerUnreachableError, UnauthorizedError
from kindling.mcp.schemas import OUTPUT_SCHEMAS
from tests.support.cli import run
from tests.support.server import KINDLING, free_port, running_server

pytest.importorskip("uvicorn")

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


@pytest.fixture
def remote(store_url: str) -> Iterator[dict[str, str]]:
    """The environment of a developer pointed at a running server."""
    # set-up on the server's database: the CLI in this process (the commands under test,
    # ``cli`` below, are real processes)
    token = run("--db", store_url, "token", "create", "--user", "alice").stdout.split()[-1]
    with running_server(store_url) as (url, _proc):
        env = dict(os.environ, KINDLING_URL=url, KINDLING_TOKEN=token)
        env["KINDLING_DB"] = "/nonexistent/never-used.db"
        yield env


def cli(env: dict[str, str], *args: str) -> Any:
    import subprocess

    return subprocess.run(
        [str(KINDLING), *args], capture_output=True, text=True, timeout=60, env=env
    )


def test_the_cli_talks_to_the_server(remote: dict[str, str], store_url: str) -> None:
    logged = cli(
        remote,
        "log",
        "pytest fails: KeyError user_id",
        "--kind",
        "error",
        "--repo",
        "webapp",
        "--json",
    )
    assert logged.returncode == 0, logged.stderr
    obs = json.loads(logged.stdout)
    assert obs["scopeIds"] == {"repoId": "webapp", "userId": "alice"}
    found = cli(remote, "search", "KeyError", "--repo", "webapp", "--json")
    assert found.returncode == 0, found.stderr
    assert [c["entity"]["id"] for c in json.loads(found.stdout)["candidates"]] == [obs["id"]]
    assert cli(remote, "pin", "observation", obs["id"], "--reason", "why").returncode == 0
    forgot = cli(remote, "forget", obs["id"], "--json")
    assert forgot.returncode == 0, forgot.stderr
    report = json.loads(forgot.stdout)  # the client passes on what the server's store keeps
    on_postgres = store_url.startswith("postgresql://")
    assert bool(report["remains"]) == on_postgres
    assert ("gone from the database files" in report["message"]) == (not on_postgres)
    opened = cli(remote, "capsule", "open", "--intent", "fix login", "--repo", "webapp", "--json")
    assert opened.returncode == 0, opened.stderr
    capsule_id = json.loads(opened.stdout)["id"]
    closed = cli(remote, "capsule", "close", capsule_id, "--summary", "fixed", "--json")
    assert closed.returncode == 0, closed.stderr
    assert json.loads(closed.stdout)["status"] == "closed"
    with Kindling.open(store_url) as kd:  # it really is on the server's database
        assert kd.get_observation(obs["id"]).redacted
        assert kd.get_capsule(capsule_id).scope.user_id == "alice"


def test_flags_override_the_environment(remote: dict[str, str]) -> None:
    env = dict(remote, KINDLING_TOKEN="kdt_wrong")
    out = cli(env, "log", "x", "--json")
    assert out.returncode == 1
    assert json.loads(out.stdout)["error"]["code"] == "unauthorized"
    good = cli(env, "--token", remote["KINDLING_TOKEN"], "log", "x")
    assert good.returncode == 0, good.stderr


def test_what_remote_mode_cannot_serve_fails_with_one_line(remote: dict[str, str]) -> None:
    out = cli(remote, "token", "list")  # tokens are managed on the server's database
    assert out.returncode == 1
    assert "tokens are managed on the server's database" in out.stderr
    assert out.stderr.count("\n") == 1, out.stderr
    assert "Traceback" not in out.stderr
    done = cli(remote, "forget", "--finish")  # the server empties its WAL when asked
    assert done.returncode == 0, done.stderr


def test_bad_matches_are_refused_by_the_server_and_forget_nothing(
    remote: dict[str, str], store_url: str
) -> None:
    kd = RemoteKindling(remote["KINDLING_URL"], remote["KINDLING_TOKEN"])
    kd.append_observation(kind="message", content="zanzibar", scope=Scope(repo_id="r"))
    for bad, says in (
        ("zanzibar" * 2000, "at most 10000 characters"),
        ("ab", "at least 3 characters"),
        (42, "or match, a string"),
    ):
        with pytest.raises(InvalidInputError, match=says):
            kd.forget_matching(bad)  # type: ignore[arg-type]
    assert kd.forget_matching("ZANZIBAR", dry_run=True).message == "would forget 1 observation"


def test_an_unreachable_server_is_a_one_line_error() -> None:
    env = dict(os.environ, KINDLING_URL=f"http://127.0.0.1:{free_port()}", KINDLING_TOKEN="t")
    out = cli(env, "search", "x", "--json")
    assert out.returncode == 1
    assert json.loads(out.stdout)["error"]["code"] == "unreachable"
    with pytest.raises(ServerUnreachableError):
        RemoteKindling(env["KINDLING_URL"], "t").retrieve("x")


class _Recorder(BaseHTTPRequestHandler):
    bodies: ClassVar[list[bytes]] = []

    def do_POST(self) -> None:
        _Recorder.bodies.append(self.rfile.read(int(self.headers["content-length"])))
        self.send_response(401)
        self.send_header("content-type", "application/json")
        self.end_headers()
        self.wfile.write(b'{"error": {"code": "unauthorized", "message": "no"}}')

    def log_message(self, *args: Any) -> None:
        return None


def test_secrets_are_masked_before_they_leave_the_machine() -> None:
    server = HTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        kd = RemoteKindling(f"http://127.0.0.1:{server.server_port}", "t")
        with pytest.raises(UnauthorizedError):
            kd.append_observation(
                kind="command",
                content=f"git push with {SECRET}",
                provenance={"env": SECRET},
                scope=Scope(repo_id="r"),
            )
        with pytest.raises(UnauthorizedError):
            kd.open_capsule(intent=f"rotate {SECRET}")
        with pytest.raises(UnauthorizedError):  # a bundle's every text, before it is sent
            kd.import_bundle(
                parse_bundle(
                    {
                        "bundleVersion": "1.0",
                        "dataset": {
                            "observations": [
                                {"id": "o", "kind": "command", "content": f"use {SECRET}",
                                 "provenance": {"env": SECRET}, "ts": 1}
                            ],
                            "capsules": [
                                {"id": "c", "type": "session", "intent": f"rotate {SECRET}",
                                 "status": "open", "openedAt": 1, "observationIds": ["o"]}
                            ],
                            "summaries": [
                                {"id": "s", "capsuleId": "c", "content": f"was {SECRET}",
                                 "confidence": 0.5, "createdAt": 1}
                            ],
                            "pins": [
                                {"id": "p", "targetType": "observation", "targetId": "o",
                                 "reason": f"see {SECRET}", "createdAt": 1}
                            ],
                        },
                    }
                )
            )  # fmt: skip
    finally:
        server.shutdown()
        server.server_close()
    assert len(_Recorder.bodies) == 3
    for body in _Recorder.bodies:
        assert SECRET.encode() not in body
        assert b"ghp_" not in body


def mcp_calls(env: dict[str, str], cwd: Path, *calls: tuple[str, str, Any]) -> dict[str, Any]:
    """``kindling mcp`` in remote mode: each (name, tool, arguments) called in order, the
    results by name."""
    pytest.importorskip("mcp")
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    params = StdioServerParameters(command=str(KINDLING), args=["mcp"], cwd=cwd, env=env)
    seen: dict[str, Any] = {}

    async def main() -> None:
        with open(os.devnull, "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                for name, tool, args in calls:
                    seen[name] = await session.call_tool(tool, args)

    anyio.run(main)
    return seen


def test_the_mcp_server_talks_to_the_server(
    remote: dict[str, str], store_url: str, git_repo: Path
) -> None:
    pytest.importorskip("mcp")
    from mcp.types import TextContent

    seen = mcp_calls(
        remote,
        git_repo,
        ("remember", "remember", {"content": "Decision: sessions expire after 30 minutes"}),
        ("retrieve", "retrieve", {"query": "sessions expire"}),
        ("status", "status", {}),
        ("recent", "recent", {"limit": 5}),
        ("too_many", "recent", {"limit": 500}),
    )
    assert not seen["remember"].is_error
    assert "sessions expire after 30 minutes" in str(seen["retrieve"].structured_content)
    for tool in ("status", "recent"):
        assert not seen[tool].is_error, seen[tool].content
        jsonschema.validate(seen[tool].structured_content, OUTPUT_SCHEMAS[tool])
    status = seen["status"].structured_content
    assert status is not None
    assert (status["server"], status["user"], status["team"]) == (
        remote["KINDLING_URL"],
        "alice",
        None,
    )
    assert "observationsByKind" not in status
    assert "db" not in status
    assert status["defaultRepo"] == str(git_repo)
    recent = seen["recent"].structured_content
    assert recent is not None
    (brief,) = recent["observations"]
    assert brief["snippet"] == "Decision: sessions expire after 30 minutes"
    assert seen["too_many"].is_error
    block = seen["too_many"].content[0]
    assert isinstance(block, TextContent)
    assert "limit" in block.text
    with Kindling.open(store_url) as kd:  # written on the server's database, as alice
        (obs,) = kd.list_observations(scope=Scope(repo_id=str(git_repo)), limit=5)
    assert obs.scope.user_id == "alice"
    assert obs.id == brief["id"]


def test_mcp_forget_with_match_goes_to_the_server(
    remote: dict[str, str], store_url: str, git_repo: Path
) -> None:
    pytest.importorskip("mcp")
    from mcp.types import TextContent

    with Kindling.open(store_url) as kd:  # bob's copy of the text, in the same repository
        bobs = kd.append_observation(
            kind="message",
            content="the zanzibar rollout",
            scope=Scope(repo_id=str(git_repo), user_id="bob"),
        )
    seen = mcp_calls(
        remote,
        git_repo,
        ("remember", "remember", {"content": "Decision: the zanzibar flag stays off"}),
        ("dry", "forget", {"match": "Zanzibar", "dry_run": True}),
        ("forget", "forget", {"match": "zanzibar"}),
        ("after", "retrieve", {"query": "zanzibar"}),
        ("short", "forget", {"match": "za"}),
        ("both", "forget", {"match": "zanzibar", "observation_id": "x"}),
    )
    mine = seen["remember"].structured_content["id"]
    for tool in ("dry", "forget"):
        assert not seen[tool].is_error, seen[tool].content
        jsonschema.validate(seen[tool].structured_content, OUTPUT_SCHEMAS["forget"])
    dry, done = seen["dry"].structured_content, seen["forget"].structured_content
    assert (dry["observations"], dry["dryRun"], dry["message"]) == (
        [mine],
        True,
        "would forget 1 observation",
    )
    assert (done["observations"], done["dryRun"]) == ([mine], False)
    assert "zanzibar" not in str(seen["after"].structured_content)
    for bad, says in (("short", "at least 3 characters"), ("both", "exactly one of")):
        assert seen[bad].is_error
        block = seen[bad].content[0]
        assert isinstance(block, TextContent)
        assert says in block.text
        assert "\n" not in block.text
    with Kindling.open(store_url) as kd:
        assert kd.get_observation(mine).redacted
        assert kd.get_observation(bobs.id).content == "the zanzibar rollout"


def test_mcp_status_works_for_a_team_token_without_the_default_repo(
    remote: dict[str, str], store_url: str, git_repo: Path
) -> None:
    pytest.importorskip("mcp")
    created = run("--db", store_url, "token", "create", "--user", "dave", "--team", "ops")
    env = dict(remote, KINDLING_TOKEN=created.stdout.split()[-1])  # ops has no repository
    seen = mcp_calls(env, git_repo, ("status", "status", {}))
    assert not seen["status"].is_error, seen["status"].content
    status = seen["status"].structured_content
    jsonschema.validate(status, OUTPUT_SCHEMAS["status"])
    assert (status["user"], status["team"], status["repos"]) == ("dave", "ops", [])
    assert "openCapsulesInDefaultRepo" not in status  # not the token's to count


def test_timeline_and_get_in_remote_mode(
    remote: dict[str, str], store_url: str, git_repo: Path
) -> None:
    """The MCP tools and the client verbs that open a hit go to the server."""
    scope = Scope(session_id="s1", repo_id=str(git_repo), user_id="alice")
    with Kindling.open(store_url) as kd:
        ids = [
            kd.append_observation(kind="command", content=f"$ step {i}", scope=scope, ts=10 + i).id
            for i in range(5)
        ]
        kd.append_observation(
            kind="message", content="bob's", scope=Scope(session_id="s1", user_id="bob"), ts=12
        )
    client = RemoteKindling(remote["KINDLING_URL"], remote["KINDLING_TOKEN"])
    local_view = client.timeline(ids[2], before=1, after=1)
    assert [o.id for o in local_view.steps] == ids[1:4]  # bob's step is not alice's to see
    items = client.get_items([ids[0], "nope"], token_budget=1)
    assert [i.entity.id for i in items.items] == [ids[0]]
    assert (items.missing, items.truncated) == (("nope",), True)
    seen = mcp_calls(
        remote,
        git_repo,
        ("timeline", "timeline", {"id": ids[2], "before": 1, "after": 1}),
        ("get", "get", {"ids": [ids[0], ids[4]]}),
        ("unknown", "timeline", {"id": "nope"}),
    )
    for tool in ("timeline", "get"):
        assert not seen[tool].is_error, seen[tool].content
        jsonschema.validate(seen[tool].structured_content, OUTPUT_SCHEMAS[tool])
    steps = seen["timeline"].structured_content["steps"]
    assert [s["id"] for s in steps] == ids[1:4]
    assert [i["content"] for i in seen["get"].structured_content["items"]] == [
        "$ step 0",
        "$ step 4",
    ]
    assert seen["unknown"].is_error
    assert "not_found" in seen["unknown"].content[0].text

"""Remote mode for the read commands: the real CLI (``list``, ``show``, ``status``, ``export``,
``import``, ``unpin``) against a real ``kindling serve``, each ``--json`` output compared with
the same command run on the server's database directly; bad ids, other teams' ids, limits and
a server that is down; and ``forget --match``, which reaches only what the token sees (both
backends)."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kindling import Kindling, Scope
from tests.support.cli import run
from tests.support.server import KINDLING, free_port, running_server

pytest.importorskip("uvicorn")

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

REPO = "webapp"


def kindling(db: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The command on a database directly, without the server: the reference the remote
    answers are compared with, and the set-up (tokens, grants). It runs in this process
    (``CliRunner``, the installed script's code path); the commands under test, ``cli``
    below, run as real processes against the real server."""
    done = run("--db", db, *args)
    return subprocess.CompletedProcess(["kindling", "--db", db, *args], done.code, done.stdout,
                                       done.stderr)  # fmt: skip


def token(store_url: str, user: str, team: str | None = None) -> str:
    args = ["token", "create", "--user", user] + (["--team", team] if team else [])
    out = kindling(store_url, *args)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()[-1]


@pytest.fixture
def server(store_url: str) -> Iterator[str]:
    with running_server(store_url) as (url, _proc):
        yield url


def env_for(url: str, secret: str) -> dict[str, str]:
    env = dict(os.environ, KINDLING_URL=url, KINDLING_TOKEN=secret)
    env["KINDLING_DB"] = "/nonexistent/never-used.db"
    return env


@pytest.fixture
def alice(store_url: str, server: str) -> dict[str, str]:
    """A developer with a personal token, pointed at the server."""
    return env_for(server, token(store_url, "alice"))


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(KINDLING), *args], capture_output=True, text=True, timeout=60, env=env
    )


def ok(out: subprocess.CompletedProcess[str]) -> Any:
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    return json.loads(out.stdout) if out.stdout.startswith(("{", "[")) else out.stdout


def one_line_error(out: subprocess.CompletedProcess[str], code: str) -> str:
    """Exit 1, one line on stderr, the JSON error object on stdout, no traceback."""
    assert out.returncode == 1, out.stdout
    assert "Traceback" not in out.stderr
    assert out.stderr.startswith("kindling: "), out.stderr
    assert out.stderr.count("\n") == 1, out.stderr
    assert json.loads(out.stdout)["error"]["code"] == code, out.stdout
    return out.stderr


def here(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI in this process with ``env``: in remote mode, still through the real server."""
    done = run(*args, env=env)
    return subprocess.CompletedProcess(["kindling", *args], done.code, done.stdout, done.stderr)


@pytest.fixture
def seeded(alice: dict[str, str]) -> dict[str, str]:
    """Through the server (the CLI in this process; these writes as real processes are
    ``test_server_remote.py``'s): a capsule with two observations, a summary, and a pin."""
    cap = ok(here(alice, "capsule", "open", "--intent", "fix login", "--repo", REPO, "--json"))
    first = ok(here(alice, "log", "login fails: KeyError", "--kind", "error", "--repo", REPO,
                    "--capsule", cap["id"], "--json"))  # fmt: skip
    second = ok(here(alice, "log", "cookie path was wrong", "--repo", REPO, "--capsule",
                     cap["id"], "--json"))  # fmt: skip
    pin = ok(here(alice, "pin", "observation", first["id"], "--reason", "root cause", "--json"))
    closed = ok(here(alice, "capsule", "close", cap["id"], "--summary", "fixed the path",
                     "--json"))  # fmt: skip
    return {
        "capsule": cap["id"],
        "first": first["id"],
        "second": second["id"],
        "pin": pin["id"],
        "closed": closed["id"],
    }


def local(store_url: str, *args: str) -> Any:
    """The same command on the server's database, without the server."""
    return ok(kindling(store_url, *args))


def test_list_show_status_and_unpin_answer_as_locally(
    alice: dict[str, str], store_url: str, seeded: dict[str, str], server: str
) -> None:
    for what, extra in (
        ("observations", []),
        ("observations", ["--kind", "error"]),
        ("capsules", ["--status", "closed"]),
        ("summaries", []),
        ("pins", []),
        ("pins", ["--status", "active"]),
        ("observations", ["--limit", "1"]),
    ):
        args = ["list", what, "--repo", REPO, *extra, "--json"]
        remote = ok(cli(alice, *args))
        assert remote == local(store_url, *args), args
        assert remote, args
    assert seeded["second"] in ok(cli(alice, "list", "observations", "--repo", REPO))
    for key in ("first", "capsule", "pin"):
        shown = ok(cli(alice, "show", seeded[key], "--json"))
        assert shown == local(store_url, "show", seeded[key], "--json"), key
    summary_id = ok(cli(alice, "list", "summaries", "--json"))[0]["id"]
    assert ok(cli(alice, "show", summary_id, "--json")) == local(
        store_url, "show", summary_id, "--json"
    )
    human = ok(cli(alice, "show", seeded["capsule"]))
    assert "fix login" in human
    assert seeded["first"] in human
    assert "capsules:" in ok(cli(alice, "show", seeded["first"]))

    status = ok(cli(alice, "status", "--json"))
    assert set(status) == {
        "server", "version", "backend", "schemaVersion", "user", "team", "repos", "openCapsules"
    }  # fmt: skip
    assert (status["server"], status["user"], status["team"]) == (server, "alice", None)
    assert status["openCapsules"] == []  # the only capsule is closed
    opened = ok(cli(alice, "capsule", "open", "--intent", "next", "--repo", REPO, "--json"))
    status = ok(cli(alice, "status", "--json"))
    assert [c["id"] for c in status["openCapsules"]] == [opened["id"]]
    assert "Open capsules" in ok(cli(alice, "status"))

    pin = local(store_url, "show", seeded["pin"], "--json")
    removed = ok(cli(alice, "unpin", seeded["pin"], "--json"))
    assert removed == {k: v for k, v in pin.items() if k not in ("type", "links")}
    assert ok(cli(alice, "list", "pins", "--json")) == []
    with Kindling.open(store_url) as kd:
        assert kd.list_pins(scope=Scope(), limit=5) == []


def test_export_and_import_go_through_the_server(
    alice: dict[str, str], store_url: str, seeded: dict[str, str], tmp_path: Path
) -> None:
    out = tmp_path / "remote.json"
    done = ok(cli(alice, "export", str(out), "--repo", REPO, "--json"))
    assert done["counts"] == {"observations": 2, "capsules": 1, "summaries": 1, "pins": 1}
    remote = json.loads(out.read_text())
    theirs = tmp_path / "local.json"
    local(store_url, "export", str(theirs), "--repo", REPO, "--user", "alice")
    direct = json.loads(theirs.read_text())
    for name in ("scope", "observations", "capsules", "summaries", "pins"):
        assert remote["dataset"][name] == direct["dataset"][name], name
    piped = ok(cli(alice, "export", "-", "--repo", REPO))["dataset"]
    assert piped["observations"] == remote["dataset"]["observations"]
    assert "exported 2 observations" in ok(cli(alice, "export", str(out), "--repo", REPO))

    # A bundle from another machine's file, imported into the server as alice.
    other = tmp_path / "laptop.db"
    logged = ok(kindling(str(other), "log", "from the laptop", "--repo", REPO, "--json"))
    bundle = tmp_path / "laptop.json"
    ok(kindling(str(other), "export", str(bundle)))
    dry = ok(cli(alice, "import", str(bundle), "--dry-run", "--json"))
    assert (dry["added"]["observations"], dry["dryRun"]) == (1, True)
    with Kindling.open(store_url) as kd:
        assert kd.store.get_observations([logged["id"]]) == {}
    first = ok(cli(alice, "import", str(bundle), "--json"))
    assert first["file"] == str(bundle)
    assert first["added"]["observations"] == 1
    again = ok(cli(alice, "import", str(bundle), "--json"))
    assert (again["added"]["observations"], again["existing"]["observations"]) == (0, 1)
    assert "added 0 observations" in ok(cli(alice, "import", str(bundle)))
    with Kindling.open(store_url) as kd:
        stored = kd.get_observation(logged["id"])
    assert (stored.content, stored.scope.user_id) == ("from the laptop", "alice")


def test_unknown_ids_and_other_teams_ids_give_the_same_one_line(
    alice: dict[str, str], store_url: str, seeded: dict[str, str], server: str
) -> None:
    mallory = env_for(server, token(store_url, "mallory", "billing"))
    assert (
        kindling(store_url, "token", "grant", "--team", "billing", "--repo", "bill").returncode == 0
    )
    for env in (alice, mallory):
        for command in ("show", "unpin"):
            missing = one_line_error(cli(env, command, "no-such-id", "--json"), "not_found")
            if env is mallory:
                target = seeded["pin"] if command == "unpin" else seeded["first"]
                hidden = one_line_error(cli(env, command, target, "--json"), "not_found")
                assert hidden.replace(target, "X") == missing.replace("no-such-id", "X")
    with Kindling.open(store_url) as kd:  # mallory's unpin removed nothing
        assert kd.get_pin(seeded["pin"]).id == seeded["pin"]
    # a team token must name a granted repository
    one_line_error(cli(mallory, "list", "observations", "--json"), "forbidden")
    one_line_error(cli(mallory, "list", "pins", "--repo", REPO, "--json"), "forbidden")
    assert ok(cli(mallory, "list", "pins", "--repo", "bill", "--json")) == []
    one_line_error(cli(mallory, "export", "-", "--repo", REPO, "--json"), "forbidden")
    # limits out of range stop at the CLI, before any request
    for bad in ("0", "10001", "-3", "many"):
        out = cli(alice, "list", "observations", "--limit", bad)
        assert out.returncode == 2, bad
        assert "Traceback" not in out.stderr


def test_a_server_that_is_down_is_one_line_for_every_read(tmp_path: Path) -> None:
    down = env_for(f"http://127.0.0.1:{free_port()}", "kdt_whatever")
    bundle = tmp_path / "b.json"
    bundle.write_text(
        json.dumps(
            {
                "bundleVersion": "1.0",
                "dataset": {"observations": [], "capsules": [], "summaries": [], "pins": []},
            }
        )
    )
    for args in (
        ["list", "observations"],
        ["list", "pins", "--status", "active"],
        ["show", "some-id"],
        ["status"],
        ["export", str(tmp_path / "out.json")],
        ["import", str(bundle)],
        ["unpin", "some-id"],
    ):
        out = cli(down, *args, "--json")
        message = one_line_error(out, "unreachable")
        assert "no answer from" in message, args
    assert not (tmp_path / "out.json").exists()


def test_forget_match_purges_what_the_token_sees_and_nothing_else(
    alice: dict[str, str], store_url: str, seeded: dict[str, str], server: str
) -> None:
    """``forget --match``: dry run, a refused prompt, then ``--yes``; another team's and
    another user's copies of the text stay, uncounted."""
    mallory = env_for(server, token(store_url, "mallory", "billing"))
    ok_grant = kindling(store_url, "token", "grant", "--team", "billing", "--repo", "bill")
    assert ok_grant.returncode == 0, ok_grant.stderr
    bob = env_for(server, token(store_url, "bob"))
    others = [
        ok(cli(mallory, "log", "login fails for billing", "--repo", "bill", "--json"))["id"],
        ok(cli(bob, "log", "login fails for bob too", "--repo", REPO, "--json"))["id"],
    ]
    dry = ok(cli(alice, "forget", "--match", "LOGIN", "--dry-run", "--json"))
    assert (dry["observations"], dry["capsules"]) == ([seeded["first"]], [seeded["capsule"]])
    assert dry["summaries"] == dry["pins"] == []
    assert ok(cli(alice, "forget", "--match", "login", "--dry-run")).strip() == (
        "would forget 1 observation, 1 capsule intent"
    )
    refused = subprocess.run(
        [str(KINDLING), "forget", "--match", "login"],
        capture_output=True, text=True, timeout=60, env=alice, input="n\n",
    )  # fmt: skip
    assert refused.returncode == 1
    assert "would forget 1 observation, 1 capsule intent" in refused.stderr
    assert "nothing forgotten" in refused.stderr
    with Kindling.open(store_url) as kd:
        assert not kd.get_observation(seeded["first"]).redacted

    done = ok(cli(alice, "forget", "--match", "login", "--yes", "--json"))
    for key in ("observations", "summaries", "pins", "capsules"):
        assert done[key] == dry[key], key
    on_postgres = store_url.startswith("postgresql://")
    assert bool(done["remains"]) == on_postgres
    assert ("gone from the database files" in done["message"]) == (not on_postgres)
    human = ok(cli(alice, "forget", "--match", "login", "--yes"))
    assert human.strip() == "would forget nothing"  # nothing of alice's is left to ask about
    assert ok(cli(alice, "search", "login", "--repo", REPO, "--json"))["candidates"] == []
    with Kindling.open(store_url) as kd:
        assert kd.get_observation(seeded["first"]).content == "[redacted]"
        assert kd.get_capsule(seeded["capsule"]).intent == "[redacted]"
        assert kd.get_observation(seeded["second"]).content == "cookie path was wrong"
        kept = kd.store.get_observations(others)
        assert [kept[i].content for i in others] == [
            "login fails for billing",
            "login fails for bob too",
        ]
    theirs = ok(cli(mallory, "forget", "--match", "login", "--dry-run", "--json"))
    assert theirs["observations"] == [others[0]]


def test_forget_match_bad_inputs_are_one_line(alice: dict[str, str], store_url: str) -> None:
    ok(cli(alice, "log", "the word zanzibar", "--repo", REPO))
    for text, says in (("ab", "at least 3"), ("  ", "at least 3"), ("zanzibar" * 2000, "at most")):
        message = one_line_error(cli(alice, "forget", "--match", text, "--json"), "invalid_input")
        assert says in message
        assert "zanzibar" not in message  # the text to forget is never echoed
    for args in (
        ["some-id", "--match", "zanzibar"],
        ["--dry-run"],
        ["--match", "zanzibar", "--finish"],
    ):
        out = cli(alice, "forget", *args)
        assert out.returncode == 2, args
        assert "Traceback" not in out.stderr
    with Kindling.open(store_url) as kd:
        assert kd.store.find_text("zanzibar").total == 1

"""Request bodies on ``kindling serve``: a large one is decoded by a helper process (so that
its decoding does not hold the server's one Python process), with the very answers a small
one gets, bad input included; when the helper is gone, bodies are decoded in process."""

from __future__ import annotations

import json
import logging
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from kindling import Kindling
from kindling.http import bodies
from kindling.http.app import create_app
from kindling.model.checks import distinct_ids
from tests.support.server import auth, error_code, make_token, running_server

REPO = "/src/webapp"
LARGE = bodies.LARGE_BODY_BYTES
PAD = "x" * LARGE  # makes any body large


@pytest.fixture
def alice(kd: Kindling) -> str:
    return make_token(kd, "alice", "web", REPO)


@pytest.fixture
def client(kd: Kindling) -> Iterator[TestClient]:
    with TestClient(create_app(kd), raise_server_exceptions=False) as c:
        yield c


def helper_pids(client: TestClient) -> list[int]:
    helper = client.app.state.bodies._helper  # type: ignore[attr-defined]
    return [] if helper is None else [helper.pid]


def test_the_helper_decodes_as_json_does_with_equal_strings_shared() -> None:
    value = {
        "refs": ["obs-1"] * 1000 + ["obs-2"],
        "nested": [{"obs-1": "obs-2"}, ["obs-2", 3, None, 1.5, True], "\ud800", {}],
    }
    ok, got = bodies.decode_shared(json.dumps(value).encode())
    assert ok
    assert got == value
    assert len({id(r) for r in got["refs"]}) == 2  # one object per distinct string
    assert got["nested"][1][0] is got["refs"][-1]
    assert bodies.decode_shared(b"") == (True, {})
    assert bodies.decode_shared(b"[1,") == (
        False,
        "the body is not valid JSON (Expecting value: line 1 column 4 (char 3))",
    )


BAD = {
    "not JSON": (b'{"content": "' + PAD.encode(), "the body is not valid JSON"),
    "not UTF-8": (b'{"content": "' + b"\xff" * LARGE + b'"}', "the body is not valid JSON"),
    "too deep": (
        json.dumps({"pad": PAD, "deep": json.loads("[" * 40 + "]" * 40)}).encode(),
        "the body nests JSON more than 32 levels deep",
    ),
    "deeper than the parser": (b"[" * 1_000_000, "the body nests JSON too deeply"),
    "a 300,000-digit number": (b'{"ts": ' + b"9" * 300_000 + b"}", "the body is not valid JSON"),
    "not an object": (json.dumps([PAD]).encode(), "the body must be a JSON object"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_a_bad_large_body_is_the_400_a_small_one_gets(
    client: TestClient, alice: str, name: str
) -> None:
    data, message = BAD[name]
    assert len(data) >= LARGE
    r = client.post("/v1/observations", headers=auth(alice), content=data)
    assert r.status_code == 400, r.text
    assert error_code(r) == "invalid_input"
    assert r.json()["error"]["message"].startswith(message), r.text
    assert helper_pids(client), "a large body goes to the helper"


def test_a_large_body_writes_what_a_small_one_would(
    client: TestClient, kd: Kindling, alice: str
) -> None:
    content = "é ünïcode \u202e " + PAD
    body = {"kind": "message", "content": content, "scope": {"repoId": REPO}}
    r = client.post("/v1/observations", headers=auth(alice), json=body)
    assert r.status_code == 201, r.text
    assert kd.get_observation(r.json()["id"]).content == content
    assert helper_pids(client)


def test_without_its_helper_the_server_decodes_in_process(
    client: TestClient, kd: Kindling, alice: str, caplog: pytest.LogCaptureFixture
) -> None:
    body = {"kind": "message", "content": PAD, "scope": {"repoId": REPO}}
    assert client.post("/v1/observations", headers=auth(alice), json=body).status_code == 201
    for failures in range(1, bodies.MAX_HELPER_FAILURES + 2):
        pids = helper_pids(client)
        if failures <= bodies.MAX_HELPER_FAILURES:
            (pid,) = pids
            os.kill(pid, signal.SIGKILL)  # the helper this test's server started
        else:
            assert pids == []  # given up: decoded here from now on
        r = client.post("/v1/observations", headers=auth(alice), json=body)
        assert r.status_code == 201, r.text
        bad = client.post("/v1/observations", headers=auth(alice), content=BAD["not JSON"][0])
        assert bad.status_code == 400
        assert bad.json()["error"]["message"].startswith("the body is not valid JSON")
    failed = [m for m in caplog.messages if "helper process failed" in m]
    assert len(failed) == bodies.MAX_HELPER_FAILURES, caplog.messages
    assert "decoding here" in failed[0]
    assert len(kd.list_observations(limit=10)) == bodies.MAX_HELPER_FAILURES + 2


def test_the_helper_runs_no_code_from_the_working_directory(
    client: TestClient, alice: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    planted = tmp_path / "planted"
    (tmp_path / "json.py").write_text(f"open({str(planted)!r}, 'w').close()\n")
    monkeypatch.chdir(tmp_path)
    body = {"kind": "message", "content": PAD, "scope": {"repoId": REPO}}
    assert client.post("/v1/observations", headers=auth(alice), json=body).status_code == 201
    assert helper_pids(client)
    assert not planted.exists()


def test_too_many_different_ids_stop_early_and_bad_ids_keep_their_words() -> None:
    started = time.perf_counter()
    with pytest.raises(Exception, match="names more than 1000 different ids; at most 1000"):
        distinct_ids([f"o{n}" for n in range(1_000_000)], "evidence_refs", "evidence ref", 1000)
    assert time.perf_counter() - started < 5  # a slice, not a million-key dict (not a timing)
    assert distinct_ids(["a", "b", "a"] * 50_000, "r", "ref", 1000) == ("a", "b")
    for bad, words in [
        ([1], "must be a non-empty string"),
        (["a", ["b"]], "must be a non-empty string"),
        (["a", {"b": 1}], "must be a non-empty string"),
        (["a"] * 2000 + [None], "must be a non-empty string"),
        (["x\x00"], "without NUL"),
        ("abc", "must be a list of ids"),
    ]:
        with pytest.raises(Exception, match=words):
            distinct_ids(bad, "r", "ref", 1000)


def children_of(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(c) for c in (task / "children").read_text().split()}
    return found


def test_kindling_serve_starts_its_helper_and_stops_it(
    kd: Kindling, store_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    token = make_token(kd, "alice", "web", REPO)
    with running_server(store_url) as (url, proc):
        import httpx

        deadline = time.monotonic() + 30
        while not children_of(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        kids = children_of(proc.pid)
        assert kids, "the helper starts with the server"
        body: dict[str, Any] = {"kind": "message", "content": PAD, "scope": {"repoId": REPO}}
        r = httpx.post(f"{url}/v1/observations", headers=auth(token), json=body, timeout=60)
        assert r.status_code == 201, r.text
    assert proc.returncode is not None

    def alive(pid: int) -> str:
        status = Path(f"/proc/{pid}/status")
        try:
            text = status.read_text()
            return "" if "zombie" in text else Path(f"/proc/{pid}/cmdline").read_text()
        except OSError:  # gone
            return ""

    deadline = time.monotonic() + 15  # they see the server's end and exit on their own
    while any(alive(pid) for pid in kids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [alive(pid) for pid in kids if alive(pid)]

"""How the local page lets its user in, and only its user: ``kindling ui`` gives one-time
codes (the printed address's, and the opened browser's through a private file, never on a
command line), each spent for a session cookie of its own, named for the server's port.

A browser keeps one cookie jar per host, whatever the port: two pages on 127.0.0.1 (two
``kindling ui``, or one beside ``kindling serve``'s page) must neither read nor overwrite each
other's cookies. The tests with real servers share one httpx cookie jar, as a browser does."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from starlette.testclient import TestClient

from kindling import Kindling
from kindling.http.app import create_app
from kindling.ui.app import add_team_ui, create_local_app
from kindling.ui.guard import LocalLogin
from tests.support.browser import serving
from tests.support.cli import KINDLING
from tests.support.server import make_token
from tests.support.ui import REPO, seed

ORIGIN = "http://127.0.0.1:8000"
COOKIE = "kindling_ui_8000"


@contextmanager
def kindling_ui(db: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """The real ``kindling ui`` on ``db``; yields the address it printed."""
    with subprocess.Popen(
        [str(KINDLING), "--db", str(db), "ui", "--json", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, **(env or {})},
    ) as proc:
        try:
            assert proc.stdout is not None
            lines = [proc.stdout.readline()]
            while lines[-1] not in ("}\n", ""):  # one JSON object, printed on a few lines
                lines.append(proc.stdout.readline())
            yield str(json.loads("".join(lines))["url"])
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def base_of(address: str) -> str:
    parts = urlsplit(address)
    return f"{parts.scheme}://{parts.netloc}"


def code_of(address: str) -> str:
    query = urlsplit(address).query
    assert query.startswith("code="), address
    return query.removeprefix("code=")


def wait_for(path: Path) -> str:
    for _ in range(3000):  # the browser is started before the server serves
        if path.exists():
            return path.read_text()
        time.sleep(0.01)
    raise AssertionError(f"{path} never appeared")


# ------------------------------------------------------------------ the real command


def test_the_browser_gets_a_private_file_and_no_secret_on_its_command_line(
    kd: Kindling, db_path: Path, tmp_path: Path
) -> None:
    seed(kd)
    seen = tmp_path / "browser-args"
    browser = tmp_path / "fake-browser"
    browser.write_text(
        '#!/bin/sh\nfor a in "$@"; do printf \'%s\\n\' "$a"; done > "$SEEN.tmp"\n'
        'for a in "$@"; do cat "${a#file://}" >> "$SEEN.tmp" 2>/dev/null; done\n'
        'ls -ld "$(dirname "${1#file://}")" "${1#file://}" >> "$SEEN.tmp"\n'
        'mv "$SEEN.tmp" "$SEEN"\n'
    )
    browser.chmod(0o700)
    env = {"BROWSER": str(browser), "DISPLAY": ":99", "SEEN": str(seen)}
    with kindling_ui(db_path, env=env) as printed:
        lines = wait_for(seen).splitlines()
        argv, page, listing = lines[0], "\n".join(lines[1:-2]), lines[-2:]
        assert argv.startswith("file://"), argv  # a path, not the address
        base, printed_code = base_of(printed), code_of(printed)
        assert "code=" not in argv
        assert printed_code not in argv
        assert listing[0].startswith("drwx------"), listing  # the directory, then the file
        assert listing[1].startswith("-rw-------"), listing
        opened = page.split("url=", 1)[1].split('"', 1)[0]
        assert opened.startswith(base + "/?code=")
        opened_code = code_of(opened)
        assert opened_code != printed_code
        assert opened_code not in argv
        with httpx.Client(base_url=base, timeout=30) as first:
            r = first.get(opened)
            assert r.status_code == 200
            assert 'content="0; url=/"' in r.text
            (cookie,) = first.cookies.jar
            assert cookie.name == f"kindling_ui_{urlsplit(base).port}"
            assert cookie.value not in (opened_code, printed_code)
            assert first.get("/").status_code == 200
        with httpx.Client(base_url=base, timeout=30) as second:
            assert second.get(f"/?code={printed_code}").status_code == 200  # its first use
        for code in (opened_code, printed_code):
            with httpx.Client(base_url=base, timeout=30) as other:
                spent = other.get(f"/?code={code}")
                assert spent.status_code == 403  # spent, whoever asks again
                assert "spent or wrong" in spent.text
    assert not Path(argv.removeprefix("file://")).exists()  # removed when the command stopped


def test_two_pages_on_one_host_keep_their_own_sessions(
    kd: Kindling, db_path: Path, tmp_path: Path
) -> None:
    """Two ``kindling ui`` and a team page on 127.0.0.1, one browser: nobody is logged out,
    and a cookie copied from one server opens nothing on another."""
    ids = seed(kd)
    token = make_token(kd, "alice", "web", REPO)
    other_db = tmp_path / "other.db"
    with Kindling.open(other_db) as other:
        seed(other)
    team = create_app(kd)
    add_team_ui(team, team.state.api)
    with (
        kindling_ui(db_path, "--no-open") as first,
        kindling_ui(other_db, "--no-open") as second,
        serving(team) as team_base,
        httpx.Client(follow_redirects=True, timeout=30) as browser,
    ):
        for address in (first, second):
            assert browser.get(address).status_code == 200
            assert REPO in browser.get(base_of(address) + "/").text
        assert browser.get(f"{base_of(first)}/status").status_code == 200  # still in
        login = browser.post(f"{team_base}/ui/login", data={"token": token})
        assert login.url.path == "/ui/", login.text
        assert (
            "fix the checkout rounding bug" in browser.get(f"{team_base}/ui/repo?repo={REPO}").text
        )
        assert "AssertionError" in browser.get(f"{base_of(first)}/item?id={ids['o2']}").text
        for base in (base_of(first), base_of(second)):
            r = browser.get(f"{base}/status")
            assert r.status_code == 200, (base, r.text)
        assert browser.get(f"{team_base}/ui/").url.path == "/ui/"
        assert len({c.name for c in browser.cookies.jar}) == 3  # one per server
        first_port, second_port = urlsplit(first).port, urlsplit(second).port
        stolen = browser.cookies.get(f"kindling_ui_{first_port}")
        assert stolen
        with httpx.Client(timeout=30) as replay:  # a script with the first page's cookie
            replay.cookies.set(f"kindling_ui_{second_port}", stolen)
            replay.cookies.set(f"kindling_ui_{first_port}", stolen + "x")
            assert replay.get(f"{base_of(second)}/").status_code == 403
            assert replay.get(f"{base_of(second)}/status").status_code == 403


# ------------------------------------------------------------------ in process


@pytest.fixture
def login() -> LocalLogin:
    return LocalLogin()


@pytest.fixture
def web(kd: Kindling, db_path: Path, login: LocalLogin) -> Iterator[TestClient]:
    seed(kd)
    with TestClient(
        create_local_app(kd, login=login), base_url=ORIGIN, follow_redirects=False
    ) as c:
        yield c


def test_a_code_opens_one_session_once(web: TestClient, login: LocalLogin) -> None:
    code = login.new_code()
    r = web.get(f"/search?q=round&code={code}")
    assert r.status_code == 200
    assert 'content="0; url=/search?q=round"' in r.text
    session = web.cookies[COOKIE]
    assert session != code
    # the same browser back at the address (its history): in already, so on to the page
    again = web.get(f"/pins?code={code}")
    assert (again.status_code, again.headers["location"]) == (303, "/pins")
    assert web.cookies[COOKIE] == session  # no new session
    web.cookies.clear()
    spent = web.get(f"/?code={code}")  # anyone else with the address
    assert spent.status_code == 403
    assert "spent or wrong" in spent.text
    assert COOKIE not in spent.headers.get("set-cookie", "")


def test_a_cookie_dies_with_its_server(kd: Kindling, db_path: Path, web: TestClient) -> None:
    """``kindling ui`` started again on the same port: the old session cookie opens nothing,
    and neither does another run's code."""
    assert web.get(f"/?code={LocalLogin().new_code()}").status_code == 403
    first, again = LocalLogin(), LocalLogin()
    with TestClient(
        create_local_app(kd, login=first), base_url=ORIGIN, follow_redirects=False
    ) as before:
        assert before.get(f"/?code={first.new_code()}").status_code == 200
        kept = before.cookies[COOKIE]
        assert before.get("/").status_code == 200
    with TestClient(
        create_local_app(kd, login=again), base_url=ORIGIN, follow_redirects=False
    ) as after:
        after.cookies.set(COOKIE, kept)
        assert after.get("/").status_code == 403


@pytest.mark.parametrize(
    "query",
    [
        "code=",
        "code",
        "code=%00",
        "code=" + "x" * 10_000,
        "code=%FF%FE",
        "code=%E2%80%AE",
        "code=a&code=b",
        "token=anything",
    ],
)
def test_a_bad_code_is_a_plain_403(web: TestClient, query: str) -> None:
    r = web.get(f"/?{query}")
    assert r.status_code == 403, r.text
    assert "Traceback" not in r.text
    assert COOKIE not in web.cookies

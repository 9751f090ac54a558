"""The team page's sessions (``kindling serve``'s ``/ui``): the login form's token opens a
session of the server process, whose cookie is a random value of its own, never the token.

Browsers keep cookies per host, not per port, and any server on the host gets a cookie of
path ``/ui``: a cookie copied from one server (or kept from before a restart) must open
nothing. A revoked token's sessions end on the next request, logout ends a session on the
server too, and a session unused for ``TEAM_IDLE_S`` is over. On SQLite and PostgreSQL; the
real servers share one httpx cookie jar, as a browser does."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from starlette.testclient import TestClient

from kindling import Kindling
from kindling.http.app import create_app
from kindling.ui import app as ui_app
from kindling.ui import guard
from kindling.ui.app import add_team_ui
from tests.support.paths import ROOT
from tests.support.server import free_port, kindling, make_token, running_server
from tests.support.ui import REPO, seed

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

BASE = "http://kindling.internal:8765"
COOKIE = "kindling_team_8765"


def team_client(kd: Kindling) -> TestClient:
    """A fresh server process's application over ``kd`` (a restart is a new one)."""
    app = create_app(kd)
    add_team_ui(app, app.state.api)
    return TestClient(app, base_url=BASE, follow_redirects=False)


@pytest.fixture
def web(kd: Kindling) -> Iterator[TestClient]:
    with team_client(kd) as client:
        yield client


def csrf(client: TestClient | httpx.Client, base: str = "") -> str:
    found = re.search(r'name="csrf" value="([0-9a-f]+)"', client.get(f"{base}/ui/forget").text)
    assert found
    return found.group(1)


def test_the_cookie_is_a_session_never_the_token(kd: Kindling, web: TestClient) -> None:
    seed(kd)
    token = make_token(kd, "alice", "web", REPO)
    r = web.post("/ui/login", data={"token": token})
    assert r.status_code == 303
    assert token not in r.headers["set-cookie"]
    session = web.cookies[COOKIE]
    assert session != token
    assert len(session) >= 43  # 256 random bits
    assert web.get("/ui/").status_code == 200
    web.cookies.clear()
    assert web.post("/ui/login", data={"token": token}).status_code == 303
    assert web.cookies[COOKIE] != session  # each login a session of its own
    web.cookies.clear()
    web.cookies.set(COOKIE, token, path="/ui")  # the token itself is no session
    assert web.get("/ui/").status_code == 303


def test_logout_ends_the_session_on_the_server(kd: Kindling, web: TestClient) -> None:
    seed(kd)
    token = make_token(kd, "alice", "web", REPO)
    web.post("/ui/login", data={"token": token})
    kept = web.cookies[COOKIE]
    assert web.post("/ui/logout", data={"csrf": csrf(web)}).status_code == 303
    web.cookies.clear()
    web.cookies.set(COOKIE, kept, path="/ui")  # a copy taken before the logout
    r = web.get("/ui/status")
    assert (r.status_code, r.headers["location"]) == (303, "/ui/login")


def test_a_revoked_tokens_session_is_refused(kd: Kindling, web: TestClient) -> None:
    seed(kd)
    record, token = kd.team.create_token(user="alice", team="web")
    kd.team.grant_repo(team="web", repo=REPO)
    assert web.post("/ui/login", data={"token": token}).status_code == 303
    kept = web.cookies[COOKIE]
    form = csrf(web)
    assert web.get(f"/ui/repo?repo={REPO}").status_code == 200
    kd.team.revoke_token(record.id)
    assert web.get(f"/ui/repo?repo={REPO}").headers["location"] == "/ui/login"
    r = web.post("/ui/forget/preview", data={"csrf": form, "match": "rounding"})
    assert r.status_code == 403  # a change: "log in first"
    web.cookies.set(COOKIE, kept, path="/ui")
    assert web.get("/ui/").status_code == 303  # the session is gone for good


def test_a_session_expires_when_unused() -> None:
    now = [1000.0]
    sessions = guard.TeamSessions(clock=lambda: now[0])
    first = sessions.open("h1")
    now[0] += guard.TEAM_IDLE_S - 1
    assert sessions.token_hash(first) == "h1"  # used: its idle time starts again
    now[0] += guard.TEAM_IDLE_S - 1
    assert sessions.token_hash(first) == "h1"
    now[0] += guard.TEAM_IDLE_S + 1
    assert sessions.token_hash(first) is None
    assert len(sessions) == 0
    busy = sessions.open("h2")
    for _ in range(int(guard.TEAM_MAX_AGE_S // 3600)):
        now[0] += 3600
        assert sessions.token_hash(busy) == "h2"
    now[0] += 3600
    assert sessions.token_hash(busy) is None  # in use all along, but over its lifetime
    stale = sessions.open("h3")
    now[0] += guard.TEAM_IDLE_S + 1
    sessions.open("h4")  # a login drops what expired
    assert len(sessions) == 1
    assert sessions.token_hash(stale) is None


def test_sessions_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("kindling.ui.guard.MAX_TEAM_SESSIONS", 3)
    sessions = guard.TeamSessions()
    opened = [sessions.open(f"h{n}") for n in range(5)]
    assert len(sessions) == 3
    assert [sessions.token_hash(s) for s in opened] == [None, None, "h2", "h3", "h4"]


@pytest.mark.parametrize(
    "value",
    ["", "x", "x" * 10_000, "%00", "kdt_" + "a" * 43, "%E2%80%AE", '"quoted"', "a=b; c"],
)
def test_a_bad_cookie_goes_to_the_login_form(kd: Kindling, web: TestClient, value: str) -> None:
    web.cookies.set(COOKIE, value, path="/ui")
    r = web.get("/ui/")
    assert (r.status_code, r.headers["location"]) == (303, "/ui/login"), r.text
    r = web.post("/ui/pin", data={"csrf": "x"})
    assert r.status_code == 403
    assert "Traceback" not in r.text


def test_a_copied_cookie_opens_nothing_on_another_server_nor_after_a_restart(
    kd: Kindling, store_url: str
) -> None:
    """Two real ``kindling serve`` on one store and one host, one browser: each server keeps
    its own session; the first's cookie, under the second's name, opens nothing there; and
    after the first restarts on its port, its old cookie opens nothing either."""
    seed(kd)
    token = make_token(kd, "alice", "web", REPO)
    port = free_port()
    with httpx.Client(follow_redirects=False, timeout=30) as browser:
        with (
            running_server(store_url, port=port) as (first, _),
            running_server(store_url) as (
                second,
                _,
            ),
        ):
            for base in (first, second):
                r = browser.post(f"{base}/ui/login", data={"token": token})
                assert r.status_code == 303, r.text
            assert len({c.name for c in browser.cookies.jar}) == 2  # one per server
            assert token not in {c.value for c in browser.cookies.jar}
            for base in (first, second):
                assert browser.get(f"{base}/ui/repo?repo={REPO}").status_code == 200
            second_port = second.rsplit(":", 1)[1]
            stolen = browser.cookies.get(f"kindling_team_{port}")
            assert stolen
            with httpx.Client(follow_redirects=False, timeout=30) as replay:
                replay.cookies.set(f"kindling_team_{second_port}", stolen)
                r = replay.get(f"{second}/ui/repo?repo={REPO}")
                assert (r.status_code, r.headers["location"]) == (303, "/ui/login")
        with running_server(store_url, port=port) as (again, _):
            assert again == first
            r = browser.get(f"{again}/ui/repo?repo={REPO}")  # the same browser, its old cookie
            assert (r.status_code, r.headers["location"]) == (303, "/ui/login")
            assert browser.post(f"{again}/ui/login", data={"token": token}).status_code == 303
            assert browser.get(f"{again}/ui/repo?repo={REPO}").status_code == 200


def test_kindling_token_revoke_ends_a_real_servers_sessions(kd: Kindling, store_url: str) -> None:
    seed(kd)
    record, token = kd.team.create_token(user="alice", team="web")
    kd.team.grant_repo(team="web", repo=REPO)
    with running_server(store_url) as (base, _), httpx.Client(timeout=30) as browser:
        assert browser.post(f"{base}/ui/login", data={"token": token}).status_code == 303
        assert browser.get(f"{base}/ui/status").status_code == 200
        done = kindling(store_url, "token", "revoke", record.id)
        assert done.returncode == 0, done.stderr
        r = browser.get(f"{base}/ui/status", follow_redirects=False)
        assert (r.status_code, r.headers["location"]) == (303, "/ui/login")


def test_the_login_page_says_how_long_a_session_lasts() -> None:
    assert f"{guard.TEAM_IDLE_S // 3600} hours unused" in ui_app._login_page(None)


def test_the_docs_say_what_the_code_does() -> None:

    docs = ROOT / "docs"
    ui = " ".join((docs / "ui.md").read_text().split())
    assert f"after {guard.TEAM_IDLE_S // 3600} hours unused" in ui
    assert f"{guard.TEAM_MAX_AGE_S // 3600} hours after the login" in ui
    assert f"at most {guard.MAX_TEAM_SESSIONS:,} sessions" in ui
    server = " ".join((docs / "server.md").read_text().split())
    assert f"after {guard.TEAM_IDLE_S // 3600} hours unused" in server
    assert "a restart logs everyone out" in server

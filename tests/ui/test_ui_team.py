"""The memory browser on ``kindling serve`` (``/ui``): login with a bearer token, and a token
never sees another team's repository in any view, nor changes anything there."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from kindling import Kindling
from kindling.http.app import create_app
from kindling.ui.app import add_team_ui
from tests.support.server import auth, make_token
from tests.support.ui import OTHER_REPO, REPO, SESSION, seed

BASE = "http://kindling.internal:8765"
COOKIE = "kindling_team_8765"  # the cookie's name carries the server's port


@pytest.fixture
def world(kd: Kindling) -> dict[str, str]:
    ids = seed(kd)
    ids["alice"] = make_token(kd, "alice", "web", REPO)
    ids["mallory"] = make_token(kd, "mallory", "billing", OTHER_REPO)
    ids["carol"] = make_token(kd, "carol")
    return ids


@pytest.fixture
def app_client(kd: Kindling) -> Iterator[TestClient]:
    app = create_app(kd)
    add_team_ui(app, app.state.api)
    with TestClient(app, base_url=BASE, follow_redirects=False) as c:
        yield c


def login(client: TestClient, token: str) -> TestClient:
    r = client.post("/ui/login", data={"token": token})
    assert r.status_code == 303, r.text
    return client


def csrf(client: TestClient) -> str:
    found = re.search(r'name="csrf" value="([0-9a-f]+)"', client.get("/ui/forget").text)
    assert found
    return found.group(1)


def test_the_page_asks_for_a_token_and_keeps_it_in_a_strict_cookie(
    app_client: TestClient, world: dict[str, str]
) -> None:
    r = app_client.get("/ui/")
    assert r.status_code == 303
    assert r.headers["location"] == "/ui/login"
    form = app_client.get("/ui/login")
    assert 'type="password"' in form.text
    assert "script-src 'self'" in form.headers["content-security-policy"]
    bad = app_client.post("/ui/login", data={"token": "nope"})
    assert bad.status_code == 401
    assert "unknown or revoked token" in bad.text
    assert COOKIE not in app_client.cookies
    r = app_client.post("/ui/login", data={"token": world["alice"]})
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie
    assert "path=/ui" in cookie.lower()
    assert "samesite=strict" in cookie.lower()
    assert app_client.get("/ui/").status_code == 200
    assert app_client.get("/ui").status_code == 307
    # the JSON API is unchanged beside it
    assert app_client.get("/v1/status", headers=auth(world["alice"])).json()["team"] == "web"


def test_login_from_another_site_is_refused(app_client: TestClient, world: dict[str, str]) -> None:
    r = app_client.post(
        "/ui/login", data={"token": world["alice"]}, headers={"origin": "http://evil.example"}
    )
    assert r.status_code == 403
    assert COOKIE not in app_client.cookies


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/ui/", 200),
        (f"/ui/repo?repo={REPO}", 200),
        (f"/ui/repo?repo={OTHER_REPO}", 403),
        ("/ui/timeline", 200),  # a chooser of its repositories
        (f"/ui/session?session={SESSION}&repo={REPO}", 200),
        (f"/ui/session?session=sess-other&repo={OTHER_REPO}", 403),
        ("/ui/search?q=rounding+plan", 200),
        ("/ui/pins", 200),
        (f"/ui/search?q=rounding+plan&repo={REPO}", 200),
        (f"/ui/search?q=rounding+plan&repo={OTHER_REPO}", 403),
        (f"/ui/pins?repo={REPO}", 200),
        (f"/ui/pins?repo={OTHER_REPO}", 403),
        ("/ui/status", 200),
        ("/ui/item?id={other}", 404),
    ],
)
def test_a_team_token_never_sees_another_teams_repository(
    app_client: TestClient, world: dict[str, str], path: str, status: int
) -> None:
    login(app_client, world["alice"])
    r = app_client.get(path.format(other=world["other"]))
    assert r.status_code == status, r.text
    for secret in (OTHER_REPO, world["other"], "other team&#x27;s rounding plan", "sess-other"):
        if secret in path.format(other=world["other"]) and status != 200:
            continue  # a refusal may name what the request itself named
        assert secret not in r.text


def test_a_team_token_chooses_among_its_repositories(
    app_client: TestClient, world: dict[str, str]
) -> None:
    login(app_client, world["alice"])
    page = app_client.get("/ui/search?q=rounding").text
    assert "Choose a repository" in page
    assert "/ui/search?q=rounding&amp;repo=%2Fwork%2Fshop" in page
    assert OTHER_REPO not in page


def test_team_changes_reach_only_what_the_token_may_touch(
    app_client: TestClient, kd: Kindling, world: dict[str, str]
) -> None:
    login(app_client, world["alice"])
    token = csrf(app_client)
    preview = app_client.post("/ui/forget/preview", data={"csrf": token, "match": "rounding"})
    assert preview.status_code == 200
    assert world["o0"] in preview.text
    assert world["other"] not in preview.text
    for path, data in [
        ("/ui/forget/preview", {"id": world["other"]}),
        ("/ui/forget", {"id": world["other"]}),
        ("/ui/pin", {"target_type": "observation", "target_id": world["other"]}),
    ]:
        r = app_client.post(path, data={"csrf": token, **data})
        assert r.status_code == 404, (path, r.text)
    assert not kd.get_observation(world["other"]).redacted
    assert kd.list_pins() == []
    r = app_client.post(
        "/ui/pin", data={"csrf": token, "target_type": "observation", "target_id": world["o1"]}
    )
    assert r.status_code == 303
    (pin,) = kd.list_pins()
    assert pin.scope.user_id == "web/alice"  # identity is (team, user)


def test_the_other_team_sees_its_own_repository_only(
    app_client: TestClient, world: dict[str, str]
) -> None:
    login(app_client, world["mallory"])
    repos = app_client.get("/ui/").text
    assert OTHER_REPO in repos
    assert REPO not in repos
    assert app_client.get(f"/ui/repo?repo={REPO}").status_code == 403
    assert app_client.get(f"/ui/item?id={world['o1']}").status_code == 404


def test_a_personal_token_sees_only_its_own_user(
    app_client: TestClient, world: dict[str, str]
) -> None:
    login(app_client, world["carol"])
    page = app_client.get("/ui/").text
    assert REPO not in page
    assert OTHER_REPO not in page
    assert world["o1"] not in app_client.get("/ui/timeline").text


def test_posts_need_the_form_token_and_logout_ends_the_session(
    app_client: TestClient, kd: Kindling, world: dict[str, str]
) -> None:
    login(app_client, world["alice"])
    r = app_client.post("/ui/forget", data={"id": world["o1"]})
    assert r.status_code == 403
    assert not kd.get_observation(world["o1"]).redacted
    assert app_client.post("/ui/logout", data={}).status_code == 403
    r = app_client.post("/ui/logout", data={"csrf": csrf(app_client)})
    assert r.status_code == 303
    assert app_client.get("/ui/").status_code == 303


def test_a_revoked_token_is_logged_out(
    app_client: TestClient, kd: Kindling, world: dict[str, str]
) -> None:
    login(app_client, world["alice"])
    tokens = kd.store.list_tokens()  # type: ignore[attr-defined]
    kd.store.revoke_token(next(t.id for t in tokens if t.user_id == "alice"), 2)  # type: ignore[attr-defined]
    assert app_client.get("/ui/").status_code == 303


def test_the_json_api_pages_observations_and_previews_one_forget(
    app_client: TestClient, kd: Kindling, world: dict[str, str]
) -> None:
    """What the page relies on, as the API offers it to every client."""
    head = auth(world["alice"])
    first = app_client.get(f"/v1/observations?repo={REPO}&limit=2", headers=head).json()
    last = first[-1]
    cursor = f"{last['ts']}:{last['id']}"
    rest = app_client.get(f"/v1/observations?repo={REPO}&before={cursor}", headers=head).json()
    whole = app_client.get(f"/v1/observations?repo={REPO}", headers=head).json()
    assert [o["id"] for o in first + rest] == [o["id"] for o in whole]
    for bad in ("12", "x:y", ":id", "12:"):
        r = app_client.get(f"/v1/observations?repo={REPO}&before={bad}", headers=head)
        assert r.status_code == 400
        assert "before must be <ts>:<id>" in r.json()["error"]["message"]
    r = app_client.post("/v1/forget", headers=head, json={"id": world["o1"], "dry_run": True})
    assert r.json()["dryRun"] is True
    assert r.json()["observations"] == [world["o1"]]
    assert not kd.get_observation(world["o1"]).redacted
    r = app_client.post("/v1/forget", headers=head, json={"id": world["other"], "dry_run": True})
    assert r.status_code == 404

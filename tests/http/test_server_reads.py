"""The read endpoints of ``kindling serve`` (listings, one entity by id, an entity with its
links), in process, on both backends: who sees what, bad parameters, ids of other teams."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kindling import Kindling, Scope
from tests.support.server import auth, error_code, make_token

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient

from kindling.http.app import create_app

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

REPO = "/src/webapp"
OTHER_REPO = "/src/billing"
LISTINGS = ("/v1/observations", "/v1/capsules", "/v1/summaries", "/v1/pins")


@pytest.fixture
def client(kd: Kindling) -> Iterator[TestClient]:
    with TestClient(create_app(kd), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture
def tokens(kd: Kindling) -> dict[str, str]:
    return {
        "alice": make_token(kd, "alice", "web", REPO),
        "bob": make_token(kd, "bob", "web", REPO),
        "mallory": make_token(kd, "mallory", "billing", OTHER_REPO),
        "carol": make_token(kd, "carol"),  # personal
    }


def post(client: TestClient, path: str, token: str, body: Any) -> Any:
    r = client.post(path, headers=auth(token), json=body)
    assert r.status_code in (200, 201), r.text
    return r.json()


def get(client: TestClient, path: str, token: str | None, **params: Any) -> Any:
    return client.get(path, params=params, headers=auth(token) if token else {})


@pytest.fixture
def world(client: TestClient, tokens: dict[str, str]) -> dict[str, Any]:
    """Alice and Bob (team web) in REPO, each in a session; Mallory in OTHER_REPO; Carol
    alone. Alice has a capsule with a summary and a pinned observation."""
    a, b, m, c = (tokens[n] for n in ("alice", "bob", "mallory", "carol"))
    cap = post(client, "/v1/capsules", a, {"intent": "fix login", "scope": {"repoId": REPO}})
    obs = post(
        client,
        "/v1/observations",
        a,
        {"kind": "error", "content": "login fails", "capsule_id": cap["id"], "ts": 1000},
    )
    summary = post(
        client,
        "/v1/summaries",
        a,
        {"capsule_id": cap["id"], "content": "cookie path", "evidence_refs": [obs["id"]]},
    )
    pin = post(
        client, "/v1/pins", a, {"target_type": "observation", "target_id": obs["id"], "ttl_ms": 10}
    )
    scope_b = {"repoId": REPO, "sessionId": "s-bob"}
    bob_obs = post(
        client, "/v1/observations", b, {"kind": "message", "content": "bob", "scope": scope_b}
    )
    scope_m = {"repoId": OTHER_REPO}
    mal = post(
        client, "/v1/observations", m, {"kind": "message", "content": "billing", "scope": scope_m}
    )
    carol = post(client, "/v1/observations", c, {"kind": "message", "content": "carol's own"})
    return {
        "capsule": cap,
        "obs": obs,
        "summary": summary,
        "pin": pin,
        "bob_obs": bob_obs,
        "mallory_obs": mal,
        "carol_obs": carol,
    }


def ids(response: Any) -> list[str]:
    assert response.status_code == 200, response.text
    return [item["id"] for item in response.json()]


# ------------------------------------------------------------------ authentication


def test_every_read_endpoint_needs_a_token(
    client: TestClient, world: dict[str, Any], tokens: dict[str, str]
) -> None:
    paths = [
        *LISTINGS,
        f"/v1/observations/{world['obs']['id']}",
        f"/v1/capsules/{world['capsule']['id']}",
        f"/v1/summaries/{world['summary']['id']}",
        f"/v1/pins/{world['pin']['id']}",
        f"/v1/entities/{world['obs']['id']}",
    ]
    for path in paths:
        for headers in ({}, auth("kdt_wrong")):
            r = client.get(path, params={"repo": REPO}, headers=headers)
            assert r.status_code == 401, path
            assert error_code(r) == "unauthorized"
        assert client.get(path, params={"repo": REPO}, headers=auth(tokens["alice"])).is_success


# ------------------------------------------------------------------ listings


def test_listings_show_the_team_its_granted_repository(
    client: TestClient, world: dict[str, Any], tokens: dict[str, str]
) -> None:
    bob = tokens["bob"]
    assert ids(get(client, "/v1/observations", bob, repo=REPO)) == [
        world["bob_obs"]["id"],
        world["obs"]["id"],
    ]
    assert ids(get(client, "/v1/observations", bob, repo=REPO, kind="error")) == [
        world["obs"]["id"]
    ]
    assert ids(get(client, "/v1/observations", bob, repo=REPO, limit=1)) == [world["bob_obs"]["id"]]
    assert ids(get(client, "/v1/capsules", bob, repo=REPO, status="open")) == [
        world["capsule"]["id"]
    ]
    assert ids(get(client, "/v1/capsules", bob, repo=REPO, status="closed")) == []
    assert ids(get(client, "/v1/summaries", bob, repo=REPO)) == [world["summary"]["id"]]
    assert ids(get(client, "/v1/pins", bob, repo=REPO)) == [world["pin"]["id"]]
    created = world["pin"]["createdAt"]
    assert ids(get(client, "/v1/pins", bob, repo=REPO, active_at=created)) == [world["pin"]["id"]]
    assert ids(get(client, "/v1/pins", bob, repo=REPO, active_at=created + 10**6)) == []


def test_a_listing_never_shows_a_teammates_session(
    client: TestClient, world: dict[str, Any], tokens: dict[str, str]
) -> None:
    alice = tokens["alice"]
    for path in LISTINGS:
        assert ids(get(client, path, alice, repo=REPO, session="s-bob")) == [], path
    assert ids(get(client, "/v1/observations", tokens["bob"], repo=REPO, session="s-bob")) == [
        world["bob_obs"]["id"]
    ]


def test_a_listing_of_another_teams_repository_is_403(
    client: TestClient, world: dict[str, Any], tokens: dict[str, str]
) -> None:
    for path in LISTINGS:
        for params in ({"repo": REPO}, {}, {"session": "s-bob"}):
            r = get(client, path, tokens["mallory"], **params)
            assert r.status_code == 403, (path, params)
            assert error_code(r) == "forbidden"


def test_a_team_token_naming_no_repository_lists_its_granted_ones(
    client: TestClient, world: dict[str, Any], tokens: dict[str, str], kd: Kindling
) -> None:
    """The browser's first page: a team token's repositories, without knowing them first."""
    alice = tokens["alice"]
    kd.team.grant_repo(team="web", repo="/src/docs")  # applies at once: tokens are read per request
    note = {"kind": "message", "content": "docs", "scope": {"repoId": "/src/docs"}}
    post(client, "/v1/observations", alice, note | {"ts": 1_900_000_000_000})
    repos = get(client, "/v1/repos", alice).json()
    assert [r["repoId"] for r in repos] == ["/src/docs", REPO]  # newest activity first
    assert repos[1]["observations"] == 2
    assert [r["repoId"] for r in get(client, "/v1/repos", alice, limit=1).json()] == ["/src/docs"]
    assert [r["repoId"] for r in get(client, "/v1/repos", tokens["mallory"]).json()] == [OTHER_REPO]
    assert get(client, "/v1/repos", alice, session="s-bob").json() == []  # not her session
    assert error_code(get(client, "/v1/repos", alice, limit="x")) == "invalid_input"
    assert error_code(get(client, "/v1/repos", alice, limit=0)) == "invalid_input"
    dave = make_token(kd, "dave", "ops")  # a team granted nothing
    assert get(client, "/v1/repos", dave).json() == []
    assert error_code(get(client, "/v1/repos", dave, limit=0)) == "invalid_input"


def test_the_user_never_comes_from_the_query(
    client: TestClient, world: dict[str, Any], tokens: dict[str, str]
) -> None:
    carol = tokens["carol"]
    for params in ({}, {"user_id": "alice"}, {"userId": "alice"}, {"repo": REPO}):
        found = ids(get(client, "/v1/observations", carol, **params))
        assert set(found) <= {world["carol_obs"]["id"]}, params
    assert ids(get(client, "/v1/observations", carol)) == [world["carol_obs"]["id"]]
    r = get(client, "/v1/observations", carol, user="alice")  # not a parameter at all
    assert r.status_code == 400


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/v1/observations", {"limit": "0"}),
        ("/v1/observations", {"limit": "10001"}),
        ("/v1/observations", {"limit": "-1"}),
        ("/v1/observations", {"limit": "ten"}),
        ("/v1/observations", {"limit": "9" * 5000}),
        ("/v1/observations", {"limit": "１"}),
        ("/v1/observations", {"kind": "gossip"}),
        ("/v1/observations", {"bogus": "1"}),
        ("/v1/capsules", {"status": "active"}),
        ("/v1/summaries", {"limit": ""}),
        ("/v1/pins", {"active_at": "soon"}),
        ("/v1/pins", {"active_at": str(10**17)}),
    ],
)
def test_bad_listing_parameters_are_400(
    client: TestClient, tokens: dict[str, str], path: str, params: dict[str, str]
) -> None:
    r = get(client, path, tokens["alice"], repo=REPO, **params)
    assert r.status_code == 400, r.text
    assert error_code(r) == "invalid_input"
    assert len(r.json()["error"]["message"]) < 200


# ------------------------------------------------------------------ one entity by id


def test_an_entity_by_id_is_its_to_dict(
    client: TestClient, world: dict[str, Any], tokens: dict[str, str]
) -> None:
    for kind, key in (
        ("observations", "obs"),
        ("capsules", "capsule"),
        ("summaries", "summary"),
        ("pins", "pin"),
    ):
        r = get(client, f"/v1/{kind}/{world[key]['id']}", tokens["bob"])  # a teammate
        assert r.status_code == 200, r.text
        assert r.json()["id"] == world[key]["id"]
    r = get(client, f"/v1/capsules/{world['capsule']['id']}", tokens["alice"])
    assert r.json()["observationIds"] == [world["obs"]["id"]]


def test_another_teams_id_is_as_unknown_as_a_missing_one(
    client: TestClient, world: dict[str, Any], tokens: dict[str, str]
) -> None:
    """Same status, same code, same message (the id aside): existence never leaks."""
    for who in ("mallory", "carol"):
        for kind, key in (
            ("observations", "obs"),
            ("capsules", "capsule"),
            ("summaries", "summary"),
            ("pins", "pin"),
            ("entities", "obs"),
            ("entities", "capsule"),
        ):
            real = world[key]["id"]
            hidden = get(client, f"/v1/{kind}/{real}", tokens[who])
            missing = get(client, f"/v1/{kind}/no-such-id", tokens[who])
            assert hidden.status_code == missing.status_code == 404, (who, kind)
            assert error_code(hidden) == error_code(missing) == "not_found"
            assert hidden.json()["error"]["message"].replace(real, "X") == missing.json()["error"][
                "message"
            ].replace("no-such-id", "X")
    # and each sees their own
    assert get(client, f"/v1/observations/{world['carol_obs']['id']}", tokens["carol"]).is_success


def test_an_id_that_is_only_a_path_segment(client: TestClient, tokens: dict[str, str]) -> None:
    r = get(client, "/v1/observations/a%2Fb", tokens["alice"])
    assert r.status_code == 404
    assert error_code(r) == "not_found"


# ------------------------------------------------------------------ an entity with its links


def test_entities_answers_show_json_with_its_links(
    client: TestClient, world: dict[str, Any], tokens: dict[str, str]
) -> None:
    r = get(client, f"/v1/entities/{world['capsule']['id']}", tokens["bob"])
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["type"] == "session"  # show --json: a capsule's own type wins over "capsule"
    assert [o["id"] for o in body["links"]["observations"]] == [world["obs"]["id"]]
    assert body["links"]["summary"]["id"] == world["summary"]["id"]
    obs = get(client, f"/v1/entities/{world['obs']['id']}", tokens["alice"]).json()
    assert obs["links"] == {
        "capsules": [world["capsule"]["id"]],
        "pins": [world["pin"]],
    }
    pin = get(client, f"/v1/entities/{world['pin']['id']}", tokens["alice"]).json()
    assert pin["links"]["target"]["id"] == world["obs"]["id"]


def test_links_and_shared_ids_the_token_may_not_see_are_left_out(
    client: TestClient, kd: Kindling, world: dict[str, Any], tokens: dict[str, str]
) -> None:
    # Mallory's observation takes the id of Alice's capsule (ids are unique per table only).
    cap_id = world["capsule"]["id"]
    post(
        client,
        "/v1/observations",
        tokens["mallory"],
        {"kind": "message", "content": "x", "id": cap_id, "scope": {"repoId": OTHER_REPO}},
    )
    mine = get(client, f"/v1/entities/{cap_id}", tokens["mallory"]).json()
    assert (mine["type"], mine.get("sameIdAlso")) == ("observation", None)
    assert mine["links"] == {"capsules": [], "pins": []}
    theirs = get(client, f"/v1/entities/{cap_id}", tokens["alice"]).json()
    assert ("observations" in theirs["links"], theirs.get("sameIdAlso")) == (True, None)
    # A summary whose evidence (written through the library) cites Mallory's observation.
    summary = kd.add_summary(
        cap_id, content="mixed", evidence_refs=[world["obs"]["id"], world["mallory_obs"]["id"]]
    )
    body = get(client, f"/v1/entities/{summary.id}", tokens["alice"]).json()
    assert [o["id"] for o in body["links"]["evidence"]] == [world["obs"]["id"]]


def test_evidence_may_cite_only_what_the_token_sees(
    client: TestClient, world: dict[str, Any], tokens: dict[str, str]
) -> None:
    cap = post(client, "/v1/capsules", tokens["alice"], {"intent": "x", "scope": {"repoId": REPO}})
    answers = [
        client.post(
            "/v1/summaries",
            headers=auth(tokens["alice"]),
            json={"capsule_id": cap["id"], "content": "c", "evidence_refs": [ref]},
        )
        for ref in (world["mallory_obs"]["id"], "no-such-id")
    ]
    assert [a.status_code for a in answers] == [404, 404]
    messages = [a.json()["error"]["message"] for a in answers]
    assert messages[0].replace(world["mallory_obs"]["id"], "X") == messages[1].replace(
        "no-such-id", "X"
    )
    closed = client.post(
        f"/v1/capsules/{cap['id']}/close",
        headers=auth(tokens["alice"]),
        json={"summary": "s", "evidence_refs": [world["mallory_obs"]["id"]]},
    )
    assert closed.status_code == 404


# ------------------------------------------------------------------ status


def test_status_lists_the_users_own_open_capsules(
    client: TestClient, world: dict[str, Any], tokens: dict[str, str], kd: Kindling
) -> None:
    kd.open_capsule(intent="someone else's", scope=Scope(repo_id=REPO, user_id="bob"))
    alice = get(client, "/v1/status", tokens["alice"]).json()
    assert [c["id"] for c in alice["openCapsules"]] == [world["capsule"]["id"]]
    assert (alice["user"], alice["team"], alice["repos"]) == ("alice", "web", [REPO])
    assert get(client, "/v1/status", tokens["mallory"]).json()["openCapsules"] == []

"""The HTTP API of ``kindling serve``, in process (Starlette's test client), on both backends:
authentication, per-user and per-team isolation, the error contract, limits, atomicity."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from kindling import Kindling
from tests.support.pg import table_counts
from tests.support.server import auth, error_code, make_token

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient

from kindling.http.app import MAX_BODY_BYTES, create_app

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

REPO = "/src/webapp"
OTHER_REPO = "/src/billing"


@pytest.fixture
def client(kd: Kindling) -> Iterator[TestClient]:
    with TestClient(create_app(kd), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture
def alice(kd: Kindling) -> str:
    return make_token(kd, "alice", "web", REPO)


@pytest.fixture
def bob(kd: Kindling) -> str:
    return make_token(kd, "bob", "web", REPO)


@pytest.fixture
def mallory(kd: Kindling) -> str:
    return make_token(kd, "mallory", "billing", OTHER_REPO)


def post(client: TestClient, path: str, token: str, body: Any) -> Any:
    return client.post(path, headers=auth(token), json=body)


def note(client: TestClient, token: str, content: str, **scope: str) -> Any:
    return post(
        client,
        "/v1/observations",
        token,
        {"kind": "message", "content": content, "scope": {"repoId": REPO, **scope}},
    )


# ------------------------------------------------------------------ authentication


def test_no_token_and_a_wrong_token_get_401(client: TestClient, alice: str) -> None:
    for headers in ({}, auth("kdt_wrong"), {"Authorization": "Basic abc"}, auth("")):
        r = client.post("/v1/retrieve", headers=headers, json={"scope": {"repoId": REPO}})
        assert r.status_code == 401, headers
        assert error_code(r) == "unauthorized"
    assert client.get("/v1/status", headers=auth(alice)).status_code == 200


def test_a_revoked_token_gets_401(client: TestClient, kd: Kindling, alice: str) -> None:
    token_id = kd.store.list_tokens()[0].id  # type: ignore[attr-defined]
    kd.store.revoke_token(token_id, 2)  # type: ignore[attr-defined]
    assert client.get("/v1/status", headers=auth(alice)).status_code == 401


def test_another_teams_token_gets_403_on_a_repo_it_was_not_granted(
    client: TestClient, alice: str, mallory: str
) -> None:
    assert note(client, alice, "webapp secret plan").status_code == 201
    for path, body in (
        ("/v1/retrieve", {"query": "plan", "scope": {"repoId": REPO}}),
        ("/v1/observations", {"kind": "message", "content": "x", "scope": {"repoId": REPO}}),
        ("/v1/capsules", {"intent": "x", "scope": {"repoId": REPO}}),
    ):
        r = post(client, path, mallory, body)
        assert r.status_code == 403, path
        assert error_code(r) == "forbidden"
    r = client.get("/v1/export", params={"repo": REPO}, headers=auth(mallory))
    assert r.status_code == 403
    # a team token must name a repository
    assert post(client, "/v1/retrieve", mallory, {"query": "plan"}).status_code == 403


def test_ids_of_other_teams_entities_are_not_found(
    client: TestClient, alice: str, mallory: str
) -> None:
    obs = note(client, alice, "webapp note").json()
    capsule = post(client, "/v1/capsules", alice, {"intent": "w", "scope": {"repoId": REPO}})
    for r in (
        post(client, "/v1/forget", mallory, {"observation_id": obs["id"]}),
        post(client, "/v1/pins", mallory, {"target_type": "observation", "target_id": obs["id"]}),
        post(client, f"/v1/capsules/{capsule.json()['id']}/close", mallory, {}),
    ):
        assert r.status_code == 404
        assert error_code(r) == "not_found"
    r = post(client, "/v1/retrieve", alice, {"query": "webapp", "scope": {"repoId": REPO}})
    assert [c["entity"]["content"] for c in r.json()["candidates"]] == ["webapp note"]


# ------------------------------------------------------------------ user isolation


def test_user_id_in_the_body_is_ignored(client: TestClient, alice: str) -> None:
    r = post(
        client,
        "/v1/observations",
        alice,
        {
            "kind": "message",
            "content": "who wrote this",
            "user_id": "eve",
            "scope": {"repoId": REPO, "userId": "eve"},
        },
    )
    assert r.status_code == 201
    assert r.json()["scopeIds"]["userId"] == "web/alice"
    capsule = post(
        client, "/v1/capsules", alice, {"intent": "i", "scope": {"userId": "eve", "repoId": REPO}}
    )
    assert capsule.json()["scopeIds"]["userId"] == "web/alice"


def test_a_token_cannot_read_another_users_session(
    client: TestClient, alice: str, bob: str
) -> None:
    note(client, alice, "alice session detail", sessionId="s-alice")
    note(client, bob, "bob shared detail")
    ask = {"query": "detail", "scope": {"repoId": REPO, "sessionId": "s-alice"}}
    assert post(client, "/v1/retrieve", bob, ask).json()["candidates"] == []
    mine = post(client, "/v1/retrieve", alice, ask).json()["candidates"]
    assert [c["entity"]["content"] for c in mine] == ["alice session detail"]
    # repository-wide, teammates share memory
    team = post(client, "/v1/retrieve", bob, {"query": "detail", "scope": {"repoId": REPO}})
    assert len(team.json()["candidates"]) == 2


def test_an_append_never_joins_another_users_session_capsule(
    client: TestClient, kd: Kindling, alice: str, bob: str
) -> None:
    """A session is one user's: bob's session "s1" is not alice's, even in one team."""
    cap = post(
        client, "/v1/capsules", alice, {"intent": "w", "scope": {"repoId": REPO, "sessionId": "s1"}}
    )
    r = note(client, bob, "sneaky", sessionId="s1")
    assert r.status_code == 201
    assert kd.get_capsule(cap.json()["id"]).observation_ids == ()
    mine = note(client, alice, "mine", sessionId="s1")
    assert kd.get_capsule(cap.json()["id"]).observation_ids == (mine.json()["id"],)


def test_a_personal_token_sees_only_its_own_user(client: TestClient, kd: Kindling) -> None:
    solo = make_token(kd, "solo")
    other = make_token(kd, "other")
    note(client, solo, "solo words")
    note(client, other, "other words")
    r = post(client, "/v1/retrieve", solo, {"query": "words"})
    assert [c["entity"]["content"] for c in r.json()["candidates"]] == ["solo words"]


# ------------------------------------------------------------------ the verbs


def test_capture_verbs_round_trip(client: TestClient, alice: str) -> None:
    cap = post(
        client,
        "/v1/capsules",
        alice,
        {"intent": "fix login", "scope": {"repoId": REPO, "sessionId": "s9"}},
    )
    assert cap.status_code == 201
    cid = cap.json()["id"]
    obs = note(client, alice, "jwt.verify is not a function", sessionId="s9").json()
    assert obs["id"]
    summary = post(
        client, "/v1/summaries", alice, {"capsule_id": cid, "content": "jwt import fixed"}
    )
    assert summary.status_code == 201
    pin = post(
        client,
        "/v1/pins",
        alice,
        {"target_type": "observation", "target_id": obs["id"], "reason": "root cause"},
    )
    assert pin.status_code == 201
    closed = post(client, f"/v1/capsules/{cid}/close", alice, {})
    assert closed.json()["status"] == "closed"
    assert closed.json()["observationIds"] == [obs["id"]]
    result = post(client, "/v1/retrieve", alice, {"query": "jwt", "scope": {"repoId": REPO}}).json()
    assert set(result) == {"pins", "currentSummary", "candidates", "provenance"}
    assert [p["pin"]["id"] for p in result["pins"]] == [pin.json()["id"]]
    deleted = client.delete(f"/v1/pins/{pin.json()['id']}", headers=auth(alice))
    assert deleted.json() == {"deleted": pin.json()["id"]}
    forgotten = post(client, "/v1/forget", alice, {"observation_id": obs["id"]})
    assert forgotten.json()["observations"] == [obs["id"]]
    pin2 = post(
        client, "/v1/pins", alice, {"target_type": "summary", "target_id": summary.json()["id"]}
    )
    assert post(client, "/v1/forget", alice, {"id": pin2.json()["id"]}).json()["pins"] == [
        pin2.json()["id"]
    ]
    status = client.get("/v1/status", headers=auth(alice)).json()
    assert status["user"] == "alice"
    assert status["repos"] == [REPO]


def test_export_then_import_round_trips_and_is_idempotent(
    client: TestClient, alice: str, kd: Kindling
) -> None:
    note(client, alice, "exported words")
    bundle = client.get("/v1/export", params={"repo": REPO}, headers=auth(alice)).json()
    assert [o["content"] for o in bundle["dataset"]["observations"]] == ["exported words"]
    report = client.post("/v1/import", headers=auth(alice), content=json.dumps(bundle)).json()
    assert report["added"]["observations"] == 0
    assert report["existing"]["observations"] == 1


# ------------------------------------------------------------------ bad requests


def test_bad_requests_fail_cleanly_and_write_nothing(
    client: TestClient, alice: str, store_url: str
) -> None:
    note(client, alice, "first")
    before = table_counts(store_url)
    h = auth(alice) | {"content-type": "application/json"}
    obs = "/v1/observations"
    good = {"kind": "message", "content": "x", "scope": {"repoId": REPO}}
    bad_bundle = b'{"bundleVersion": "1.0", "dataset": {"observations": [{"id": "x"}]}}'
    cases = [
        (client.post(obs, headers=h, content=b"{not json"), 400),
        (client.post(obs, headers=h, content=b"[1, 2]"), 400),
        (client.post(obs, headers=h, content=b"\xff\xfe"), 400),
        (post(client, obs, alice, good | {"kind": "nope"}), 400),
        (post(client, obs, alice, {"content": "x", "scope": {"repoId": REPO}}), 400),
        (post(client, obs, alice, good | {"bogus": 1}), 400),
        (post(client, obs, alice, good | {"ts": "yesterday"}), 400),
        (post(client, obs, alice, good | {"capsule_id": "missing"}), 404),
        (
            post(client, "/v1/retrieve", alice, {"scope": {"repoId": REPO}, "max_candidates": -1}),
            400,
        ),
        (client.post("/v1/import", headers=h, content=bad_bundle), 400),
        (
            client.get("/v1/export", params={"repo": REPO, "include_redacted": "maybe"}, headers=h),
            400,
        ),
        (client.delete(obs, headers=h), 405),
        (client.get("/v1/nothing", headers=h), 404),
    ]
    for response, status in cases:
        assert response.status_code == status, response.text
        error_code(response)
    assert table_counts(store_url) == before


def test_sql_metacharacters_are_just_text(client: TestClient, alice: str) -> None:
    evil = "'; DROP TABLE observations; -- \" OR 1=1 \\ %s $1 :x"
    r = note(client, alice, evil, sessionId=evil)
    assert r.status_code == 201
    assert r.json()["content"] == evil
    found = post(
        client, "/v1/retrieve", alice, {"query": evil, "scope": {"repoId": REPO, "sessionId": evil}}
    )
    assert found.status_code == 200
    assert [c["entity"]["id"] for c in found.json()["candidates"]] == [r.json()["id"]]


def test_huge_bodies_get_413_before_being_read(
    client: TestClient, alice: str, store_url: str
) -> None:
    before = table_counts(store_url)
    big = {"kind": "message", "content": "x" * (MAX_BODY_BYTES + 10), "scope": {"repoId": REPO}}
    r = post(client, "/v1/observations", alice, big)
    assert r.status_code == 413
    assert error_code(r) == "too_large"
    r = client.post(
        "/v1/observations",
        headers=auth(alice) | {"content-length": "99999999999"},
        content=b"{}",
    )
    assert r.status_code == 413
    assert table_counts(store_url) == before


def test_openapi_lists_exactly_the_routes(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    app = client.app
    routes = {
        (route.path, method.lower())
        for route in app.routes  # type: ignore[attr-defined]
        for method in route.methods - {"HEAD"}
    }
    documented = {(path, method) for path, ops in doc["paths"].items() for method in ops}
    assert documented == routes


def test_concurrent_identical_imports_add_everything_once(
    client: TestClient, alice: str, kd: Kindling
) -> None:
    import threading

    for i in range(30):
        note(client, alice, f"bundle item {i}")
    bundle = client.get("/v1/export", params={"repo": REPO}, headers=auth(alice)).json()
    ids = [o["id"] for o in bundle["dataset"]["observations"]]
    for o in bundle["dataset"]["observations"]:
        o["id"] = "copy-" + o["id"]
    statuses: list[int] = []

    def send() -> None:
        r = client.post("/v1/import", headers=auth(alice), content=json.dumps(bundle))
        statuses.append(r.status_code)

    threads = [threading.Thread(target=send) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == [200] * 4
    copies = kd.store.get_observations([f"copy-{i}" for i in ids])
    assert len(copies) == 30


def test_a_malformed_content_length_is_a_400(client: TestClient, alice: str) -> None:
    r = client.post(
        "/v1/observations", headers=auth(alice) | {"content-length": "12abc"}, content=b"{}"
    )
    assert r.status_code == 400
    assert error_code(r) == "invalid_input"


def test_listing_summaries_follows_the_read_rules(
    client: TestClient, alice: str, mallory: str
) -> None:
    cap = post(client, "/v1/capsules", alice, {"intent": "w", "scope": {"repoId": REPO}})
    post(client, f"/v1/capsules/{cap.json()['id']}/close", alice, {"summary": "done it"})
    mine = client.get("/v1/summaries", params={"repo": REPO}, headers=auth(alice))
    assert [s["content"] for s in mine.json()] == ["done it"]
    other = client.get("/v1/summaries", params={"repo": REPO}, headers=auth(mallory))
    assert other.status_code == 403
    bad = client.get("/v1/summaries", params={"repo": REPO, "limit": "x"}, headers=auth(alice))
    assert bad.status_code == 400

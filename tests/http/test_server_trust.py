"""Issue 32 (trust v4), the server's side, in process on both backends: a list in a body costs
its distinct ids, read at once; another team's open session is never confirmed; the store's
own words never reach a client."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kindling import Kindling
from kindling.errors import StoreError
from tests.support.server import auth, error_code, make_token

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient

from kindling.http.app import create_app

MAX_EVIDENCE_REFS = 1_000  # kindling.model.checks.MAX_EVIDENCE_REFS (checked below)

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

REPO = "/src/webapp"
OTHER_REPO = "/src/billing"
REPEATS = 100_000  # one id, 100,000 times: about 4 MB of JSON, under the body cap


@pytest.fixture
def client(kd: Kindling) -> Iterator[TestClient]:
    with TestClient(create_app(kd), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture
def alice(kd: Kindling) -> str:
    return make_token(kd, "alice", "web", REPO)


@pytest.fixture
def mallory(kd: Kindling) -> str:
    return make_token(kd, "mallory", "billing", OTHER_REPO)


def post(client: TestClient, path: str, token: str, body: Any, **params: str) -> Any:
    return client.post(path, headers=auth(token), json=body, params=params)


def bundle(**lists: list[dict[str, Any]]) -> dict[str, Any]:
    names = ("observations", "capsules", "summaries", "pins")
    dataset = {"version": "1.0", "scope": {}, **{n: lists.get(n, []) for n in names}}
    return {"bundleVersion": "1.0", "exportedAt": 1, "dataset": dataset}


class Reads:
    """Counts the store's observation reads (each one query, or a few chunks of one)."""

    def __init__(self, kd: Kindling, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        real = kd.store.get_observations

        def counted(ids: Any) -> Any:
            self.calls += 1
            return real(ids)

        monkeypatch.setattr(kd.store, "get_observations", counted)


# ------------------------------------------------------------------ lists in bodies


def test_a_repeated_evidence_ref_is_read_once(
    client: TestClient, kd: Kindling, alice: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    scope = {"repoId": REPO}
    cap = post(
        client, "/v1/capsules", alice, {"intent": "i", "scope": scope, "type": "pocketflow_node"}
    )
    obs = post(
        client,
        "/v1/observations",
        alice,
        {"kind": "message", "content": "x", "capsule_id": cap.json()["id"]},
    )
    cap_id, obs_id = cap.json()["id"], obs.json()["id"]
    reads = Reads(kd, monkeypatch)
    r = post(
        client,
        "/v1/summaries",
        alice,
        {"capsule_id": cap_id, "content": "s", "evidence_refs": [obs_id] * REPEATS},
    )
    assert r.status_code == 201, r.text
    assert r.json()["evidenceRefs"] == [obs_id]
    r = post(
        client,
        f"/v1/capsules/{cap_id}/close",
        alice,
        {"summary": "t", "evidence_refs": [obs_id] * REPEATS},
    )
    assert r.status_code == 200, r.text
    assert reads.calls <= 8, reads.calls  # was one read per repeat
    reads.calls = 0
    summary = {
        "id": "imported-sum",
        "capsuleId": "imported-cap",
        "content": "s",
        "confidence": 0.5,
        "createdAt": 4,
        "evidenceRefs": [obs_id] * REPEATS,
    }
    capsule = {
        "id": "imported-cap",
        "type": "pocketflow_node",
        "intent": "i",
        "status": "open",
        "openedAt": 3,
        "scopeIds": scope,
        "observationIds": [obs_id] * REPEATS,
    }
    body = bundle(capsules=[capsule], summaries=[summary])
    dry = post(client, "/v1/import", alice, body, dry_run="true")
    real = post(client, "/v1/import", alice, body, dry_run="false")
    assert dry.status_code == real.status_code == 200, (dry.text, real.text)
    assert {**dry.json(), "dryRun": False} == real.json()
    assert real.json()["linksAdded"] == 1
    assert reads.calls <= 16, reads.calls
    assert kd.get_summary("imported-sum").evidence_refs == (obs_id,)


def test_too_many_distinct_evidence_refs_is_a_clear_400(
    client: TestClient, kd: Kindling, alice: str
) -> None:
    cap = post(client, "/v1/capsules", alice, {"intent": "i", "scope": {"repoId": REPO}})
    many = [f"obs-{n}" for n in range(MAX_EVIDENCE_REFS + 1)]
    bodies = [
        ("/v1/summaries", {"capsule_id": cap.json()["id"], "content": "s", "evidence_refs": many}),
        (f"/v1/capsules/{cap.json()['id']}/close", {"summary": "s", "evidence_refs": many}),
        (
            "/v1/import",
            bundle(
                summaries=[
                    {
                        "id": "s1",
                        "capsuleId": cap.json()["id"],
                        "content": "s",
                        "confidence": 0.5,
                        "createdAt": 4,
                        "evidenceRefs": many,
                    }
                ]
            ),
        ),
    ]
    for path, body in bodies:
        r = post(client, path, alice, body)
        assert r.status_code == 400, (path, r.text)
        assert error_code(r) == "invalid_input"
        assert f"at most {MAX_EVIDENCE_REFS}" in r.json()["error"]["message"], r.text
    assert kd.list_summaries(limit=5) == []


# ------------------------------------------------------------------ open sessions


def test_another_teams_open_session_is_answered_as_an_unknown_one(
    client: TestClient, kd: Kindling, alice: str, mallory: str
) -> None:
    """Opening or importing a session capsule under a session id another team has open gets
    the answer an unknown session id gets, dry run or not, and the other team's writes to its
    session go on as before."""
    theirs, unknown = "sess-billing-1", "sess-never-seen"
    opened = post(
        client,
        "/v1/capsules",
        mallory,
        {"intent": "m", "scope": {"repoId": OTHER_REPO, "sessionId": theirs}},
    )
    assert opened.status_code == 201

    def attempt(session: str) -> list[str]:
        scope = {"repoId": REPO, "sessionId": session}
        capsule = {
            "id": f"cap-{session}",
            "type": "session",
            "intent": "i",
            "status": "open",
            "openedAt": 3,
            "scopeIds": scope,
            "observationIds": [],
        }
        answers = [
            post(client, "/v1/import", alice, bundle(capsules=[capsule]), dry_run=dry_run)
            for dry_run in ("true", "false")
        ]
        note = {"kind": "message", "content": "hi", "scope": scope}
        answers.append(post(client, "/v1/observations", alice, note))
        joined = kd.get_capsule(f"cap-{session}").observation_ids
        assert joined == (answers[-1].json()["id"],)  # joins its own capsule
        answers.append(post(client, "/v1/capsules", alice, {"intent": "a", "scope": scope}))
        answers.append(
            post(
                client,
                "/v1/capsules",
                alice,
                {"intent": "a", "scope": scope, "type": "pocketflow_node"},
            )
        )
        return [
            f"{r.status_code} {r.text}".replace(session, "<session>")
            for r in answers
            if "id" not in r.json()  # a new capsule's own id aside
        ] + [str(r.status_code) for r in answers]

    seen = attempt(theirs)
    assert seen == attempt(unknown)
    assert seen[-5:] == ["200", "200", "201", "409", "201"], seen
    # mallory's hook writes to her session still land in her capsule
    r = post(
        client,
        "/v1/observations",
        mallory,
        {
            "kind": "message",
            "content": "still mine",
            "scope": {"repoId": OTHER_REPO, "sessionId": theirs},
        },
    )
    assert r.status_code == 201, r.text
    assert kd.get_capsule(opened.json()["id"]).observation_ids == (r.json()["id"],)


# ------------------------------------------------------------------ store failures


@pytest.mark.parametrize("code", ["store", "database_locked", "database_damaged"])
def test_a_store_failure_never_reaches_a_client_in_its_own_words(
    client: TestClient, kd: Kindling, alice: str, monkeypatch: pytest.MonkeyPatch, code: str
) -> None:
    from kindling.errors import DamagedDatabaseError, DatabaseLockedError

    secret = "/srv/secret/kindling.db at db.internal:5432 dbname=prod"
    error: StoreError = {
        "store": StoreError(f"database disk image is malformed: {secret}"),
        "database_locked": DatabaseLockedError(f"lock timeout on {secret}"),
        "database_damaged": DamagedDatabaseError(f"{secret} is damaged: malformed"),
    }[code]

    def fail(*_: Any, **__: Any) -> Any:
        raise error

    monkeypatch.setattr(kd.store, "list_capsules", fail)
    r = client.get("/v1/capsules", headers=auth(alice), params={"repo": REPO})
    assert r.status_code == 503, r.text
    assert error_code(r) == code  # the class's own code (a client raises that class too)
    assert r.json()["error"]["message"] == type(error).hidden_detail
    assert "secret" not in r.text
    assert "5432" not in r.text


def test_the_cap_is_the_librarys() -> None:
    from kindling.model import checks

    assert checks.MAX_EVIDENCE_REFS == MAX_EVIDENCE_REFS


def test_every_body_is_read_within_the_read_timeout(
    kd: Kindling, alice: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--read-timeout`` reaches every endpoint that reads a body (``POST /v1/items`` read
    with the default before)."""
    import kindling.http.app as app_module

    seen: list[float] = []
    real = app_module.read_json

    async def spy(request: Any, limit: int, timeout_s: float = 0.0, decoder: Any = None) -> Any:
        seen.append(timeout_s)
        return await real(request, limit, timeout_s, decoder)

    monkeypatch.setattr(app_module, "read_json", spy)
    with TestClient(create_app(kd, read_timeout_s=3.5), raise_server_exceptions=False) as c:
        for path, body in (
            ("/v1/items", {"ids": ["x"]}),
            ("/v1/retrieve", {"scope": {"repoId": REPO}}),
            ("/v1/forget", {"id": "x", "dry_run": True}),
            ("/v1/memories/search", {"workspace": REPO, "query": "x"}),
        ):
            seen.clear()
            c.post(path, headers=auth(alice), json=body)
            assert seen == [3.5], path


def test_check_depth_counts_every_kind_of_nesting() -> None:
    from kindling.errors import InvalidInputError
    from kindling.http.bodies import MAX_DEPTH, check_depth

    def nest(depth: int, leaf: Any = 1) -> Any:
        value = leaf
        for n in range(depth):
            value = [1, "x", value] if n % 2 else {"a": None, "b": value}
        return value

    fine: list[Any] = [nest(MAX_DEPTH), ["x"] * 100_000, [nest(MAX_DEPTH - 1), 2], "x", None, {}]
    for value in fine:
        check_depth(value)
    for value in (nest(MAX_DEPTH + 1), [["x"] * 10, nest(MAX_DEPTH)], {"k": [nest(MAX_DEPTH)]}):
        with pytest.raises(InvalidInputError, match="levels deep"):
            check_depth(value)

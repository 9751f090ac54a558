"""``POST /v1/forget`` with ``match``, in process, on both backends: the purge reaches only what
the token may touch (never counting or changing another team's or user's entities, not even a
summary that cites a forgotten observation), the dry run counts exactly what the purge changes,
and bad bodies are the JSON error object with nothing changed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kindling import Kindling, Scope
from kindling.model.access import Principal
from tests.support.server import auth, error_code, make_token

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient

from kindling.http.app import MAX_BODY_BYTES, create_app

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

REPO = "/src/webapp"
OTHER_REPO = "/src/billing"
WORD = "zanzibarquux"


@pytest.fixture
def client(kd: Kindling) -> Iterator[TestClient]:
    with TestClient(create_app(kd), raise_server_exceptions=False) as c:
        yield c


def forget(client: TestClient, token: str, body: Any) -> Any:
    return client.post("/v1/forget", headers=auth(token), json=body)


def holding(kd: Kindling) -> dict[str, str]:
    """Every entity of the store whose text holds WORD, with its owner: what is left."""
    found = kd.store.find_text(WORD)
    owners = {i: o.scope.user_id for i, o in kd.store.get_observations(found.observations).items()}
    for summary_id in found.summaries:
        summary = kd.get_summary(summary_id)
        owners[summary_id] = kd.get_capsule(summary.capsule_id).scope.user_id
    owners.update({i: kd.get_pin(i).scope.user_id for i in found.pins})
    owners.update({i: kd.get_capsule(i).scope.user_id for i in found.capsules})
    return {i: str(owner) for i, owner in owners.items()}


@pytest.fixture
def world(kd: Kindling) -> dict[str, Any]:
    """WORD in every kind of entity of alice and bob (team web) and of mallory (team billing),
    and in a personal user's observation in a repository of her own; mallory's summary cites
    alice's observation and quotes it."""
    tokens = {
        "alice": make_token(kd, "alice", "web", REPO),
        "bob": make_token(kd, "bob", "web"),
        "mallory": make_token(kd, "mallory", "billing", OTHER_REPO),
        "carol": make_token(kd, "carol"),
    }
    ids: dict[str, Any] = {}
    teams = {"alice": "web", "bob": "web", "mallory": "billing"}
    for user, repo in (("alice", REPO), ("bob", REPO), ("mallory", OTHER_REPO)):
        scope = Scope(user_id=f"{teams[user]}/{user}", repo_id=repo)  # (team, user)
        capsule = kd.open_capsule(intent=f"chase {WORD}", scope=scope)
        obs = kd.append_observation(
            kind="error", content=f"{user} saw {WORD}", capsule_id=capsule.id
        )
        pin = kd.pin("observation", obs.id, reason=f"{WORD} matters", scope=scope)
        ids[user] = {"capsule": capsule.id, "obs": obs.id, "pin": pin.id}
    ids["carol"] = {
        "obs": kd.append_observation(
            kind="message",
            content=f"carol {WORD}",
            scope=Scope(user_id="carol", repo_id="/src/notes"),
        ).id
    }
    # mallory's capsule summary quotes WORD and cites alice's observation (evidence)
    kd.close_capsule(
        ids["mallory"]["capsule"],
        summary=f"{WORD} came from the web team",
        evidence_refs=[ids["alice"]["obs"]],
    )
    summary = kd.store.summary_for_capsule(ids["mallory"]["capsule"])
    assert summary is not None
    ids["mallory"]["summary"] = summary.id
    return {"tokens": tokens, "ids": ids}


def test_a_team_token_forgets_only_what_it_may_touch(
    client: TestClient, kd: Kindling, world: dict[str, Any]
) -> None:
    alice, ids = world["tokens"]["alice"], world["ids"]
    before = holding(kd)
    dry = forget(client, alice, {"match": WORD.upper(), "dry_run": True})
    assert dry.status_code == 200, dry.text
    plan = dry.json()
    web = [ids["alice"], ids["bob"]]  # a team token touches its granted repository
    assert plan["observations"] == sorted(i["obs"] for i in web)
    assert plan["pins"] == sorted(i["pin"] for i in web)
    assert plan["capsules"] == sorted(i["capsule"] for i in web)
    assert plan["summaries"] == []  # mallory's, though it cites alice's observation
    assert (plan["dryRun"], plan["message"]) == (
        True,
        "would forget 2 observations, 2 pin reasons, 2 capsule intents",
    )
    assert holding(kd) == before  # a dry run changes nothing

    done = forget(client, alice, {"match": WORD})
    assert done.status_code == 200, done.text
    report = done.json()
    for key in ("observations", "summaries", "pins", "capsules"):
        assert report[key] == plan[key], key  # the count agreed with the purge
    assert report["dryRun"] is False
    assert report["id"] is None
    assert bool(report["remains"]) == (kd.store.capabilities.backend == "postgresql")
    left = holding(kd)
    assert sorted(set(left.values())) == ["billing/mallory", "carol"]
    assert {i: o for i, o in before.items() if o in ("carol", "billing/mallory")} == left
    assert kd.get_summary(ids["mallory"]["summary"]).content == f"{WORD} came from the web team"
    # what is left is not alice's to count; mallory and carol still find their own
    again = forget(client, alice, {"match": WORD, "dry_run": True}).json()
    assert again["message"] == "would forget nothing"
    theirs = forget(client, world["tokens"]["mallory"], {"match": WORD, "dry_run": True}).json()
    assert theirs["observations"] == [ids["mallory"]["obs"]]
    assert theirs["summaries"] == [ids["mallory"]["summary"]]
    carols = forget(client, world["tokens"]["carol"], {"match": WORD, "dry_run": True}).json()
    assert (carols["observations"], carols["pins"]) == ([ids["carol"]["obs"]], [])


def test_a_personal_token_forgets_only_its_users_entities(
    client: TestClient, kd: Kindling, world: dict[str, Any]
) -> None:
    before = holding(kd)
    report = forget(client, world["tokens"]["carol"], {"match": WORD}).json()
    assert report["observations"] == [world["ids"]["carol"]["obs"]]
    assert report["summaries"] == report["pins"] == report["capsules"] == []
    assert holding(kd) == {i: o for i, o in before.items() if o != "carol"}


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"id": "x", "match": WORD}, "exactly one of id, observation_id or match"),
        ({"observation_id": "x", "match": WORD}, "exactly one of id, observation_id or match"),
        ({}, "exactly one of id, observation_id or match"),
        ({"dry_run": True}, "exactly one of id, observation_id or match"),
        ({"match": 42}, "a string"),
        ({"match": [WORD]}, "a string"),
        ({"match": None}, "a string"),
        ({"match": "ab"}, "at least 3 characters"),
        ({"match": "   "}, "at least 3 characters"),
        ({"match": WORD * 1000}, "at most 10000 characters, got 12000"),
        ({"match": WORD, "dry_run": "yes"}, "dry_run must be true or false"),
        ({"match": WORD, "dry_run": 1}, "dry_run must be true or false"),
        ({"id": "x", "dry_run": "yes"}, "dry_run must be true or false"),
        ({"match": WORD, "scope": {"repoId": REPO}}, "unknown field(s) ['scope']"),
    ],
)
def test_bad_bodies_are_the_error_object_and_change_nothing(
    client: TestClient, kd: Kindling, world: dict[str, Any], body: Any, says: str
) -> None:
    before = holding(kd)
    r = forget(client, world["tokens"]["alice"], body)
    assert r.status_code == 400, r.text
    assert error_code(r) == "invalid_input"
    message = r.json()["error"]["message"]
    assert says in message
    assert WORD not in message  # the text to forget is never echoed
    assert holding(kd) == before


def test_a_huge_match_is_refused_before_it_is_read(
    client: TestClient, kd: Kindling, world: dict[str, Any]
) -> None:
    before = holding(kd)
    r = forget(client, world["tokens"]["alice"], {"match": WORD * (MAX_BODY_BYTES // len(WORD))})
    assert r.status_code == 413
    assert error_code(r) == "too_large"
    assert holding(kd) == before
    unauthenticated = client.post("/v1/forget", json={"match": WORD})
    assert unauthenticated.status_code == 401
    assert holding(kd) == before


def test_forget_by_id_never_reaches_another_teams_derived_summary(
    client: TestClient, kd: Kindling, world: dict[str, Any]
) -> None:
    alice, ids = world["tokens"]["alice"], world["ids"]
    done = forget(client, alice, {"id": ids["alice"]["obs"]})
    assert done.status_code == 200, done.text
    report = done.json()
    assert (report["observations"], report["summaries"]) == ([ids["alice"]["obs"]], [])
    # mallory's summary cites alice's observation: it is not alice's to clear or to name
    assert kd.get_summary(ids["mallory"]["summary"]).content == f"{WORD} came from the web team"
    hidden = forget(client, alice, {"id": ids["mallory"]["summary"]})
    unknown = forget(client, alice, {"id": "no-such-id"})
    assert (hidden.status_code, error_code(hidden)) == (unknown.status_code, error_code(unknown))
    assert hidden.json()["error"]["message"].replace(ids["mallory"]["summary"], "X") == (
        unknown.json()["error"]["message"].replace("no-such-id", "X")
    )


def test_the_library_forget_of_a_view_takes_the_same_rule(kd: Kindling) -> None:
    from kindling import NotFoundError

    mine = kd.append_observation(kind="error", content=f"mine {WORD}", scope=Scope(user_id="a"))
    theirs = kd.append_observation(kind="error", content=f"theirs {WORD}", scope=Scope(user_id="b"))

    only_a = kd.view_for(Principal("a", None, frozenset(), "t1"))  # a personal token of a

    with pytest.raises(NotFoundError, match="no observation, summary or pin"):
        only_a.forget(theirs.id)
    assert only_a.forget(mine.id).observations == (mine.id,)
    assert kd.get_observation(theirs.id).content == f"theirs {WORD}"

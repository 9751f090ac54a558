"""The access suite: every endpoint of ``kindling serve`` (read from the app's own routes),
driven with every kind of token, on SQLite and on PostgreSQL, through the real server process.

Token kinds (``KINDS``): ``owner`` (team web's alice, granted REPO, who wrote the victim
entities), ``teammate`` (team web's bob), ``other_team`` (billing's mallory, granted another
repository), ``same_name`` (team api's token for a user also called "alice"), ``personal``
("alice" again, no team), ``none`` (no header), ``invalid`` (a wrong token). There is no admin
token: tokens and grants are administered with the local CLI on the database
(``kindling token``), never over HTTP.

Every endpoint has a test here (``test_every_route_is_covered`` fails for a new one without);
each states the status every kind gets. An outsider (a kind that may not touch the victim)
never sees the victim's text, and where it names a victim's id it gets the very answer an
unknown id gets (ids replaced), the 404s and import answers included.
"""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kindling import Kindling
from kindling.http.idspace import TAKEN
from tests.support.pg import pg_schema
from tests.support.server import auth, make_token, running_server

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

REPO = "/src/webapp"
OTHER_REPO = "/src/billing"
API_REPO = "/src/api"
PERSONAL_REPO = "/home/alice/notes"  # granted to no team: where a personal token may write
SECRET = "zebrafalcon"  # in every victim entity's text
KINDS = ("owner", "teammate", "other_team", "same_name", "personal", "none", "invalid")
OUTSIDERS = ("other_team", "same_name", "personal", "none", "invalid")
ANONYMOUS = {"none": 401, "invalid": 401}
KINDLING_CLI = Path(sys.executable).with_name("kindling")


@dataclass
class Server:
    http: Any
    tokens: dict[str, str | None]
    store_url: str

    def call(self, kind: str, method: str, path: str, body: Any = None, **params: Any) -> Any:
        token = self.tokens[kind]
        headers = auth(token) if token else {}
        return self.http.request(method, path, json=body, params=params or None, headers=headers)

    def ok(self, kind: str, method: str, path: str, body: Any = None, **params: Any) -> Any:
        r = self.call(kind, method, path, body, **params)
        assert r.status_code in (200, 201), r.text
        return r.json()

    def victim(self) -> dict[str, str]:
        """Fresh entities of web's alice in REPO, each holding SECRET."""
        scope = {"repoId": REPO, "sessionId": f"s-{uuid.uuid4().hex}"}
        cap = self.ok("owner", "POST", "/v1/capsules", {"intent": f"{SECRET} i", "scope": scope})
        obs = self.ok(
            "owner",
            "POST",
            "/v1/observations",
            {"kind": "error", "content": f"{SECRET} o", "capsule_id": cap["id"]},
        )
        summary = self.ok(
            "owner", "POST", "/v1/summaries", {"capsule_id": cap["id"], "content": f"{SECRET} s"}
        )
        pin = self.ok(
            "owner",
            "POST",
            "/v1/pins",
            {"target_type": "observation", "target_id": obs["id"], "reason": f"{SECRET} p"},
        )
        return {
            "capsule": cap["id"],
            "observation": obs["id"],
            "summary": summary["id"],
            "pin": pin["id"],
        }


@pytest.fixture(scope="module", params=("sqlite", "postgres"))
def store_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def server(store_backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with team_server(store_backend, tmp_path_factory) as running:
        yield running


@contextmanager
def team_server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A ``kindling serve`` on a fresh store of ``backend`` with the access suite's tokens:
    two users of team web, team billing, team api's alice, a personal alice, none, invalid."""
    home = tmp_path_factory.mktemp("home")
    with ExitStack() as stack, pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))
        mp.setenv("KINDLING_HOME", str(home / ".kindling"))
        if backend == "sqlite":
            url = str(tmp_path_factory.mktemp("access") / "kindling.db")
        else:
            url = stack.enter_context(pg_schema())
        with Kindling.open(url) as kd:
            tokens: dict[str, str | None] = {
                "owner": make_token(kd, "alice", "web", REPO),
                "teammate": make_token(kd, "bob", "web", REPO),
                "other_team": make_token(kd, "mallory", "billing", OTHER_REPO),
                "same_name": make_token(kd, "alice", "api", API_REPO),
                "personal": make_token(kd, "alice"),
                "none": None,
                "invalid": "kdt_" + "x" * 43,
            }
        base, _ = stack.enter_context(running_server(url))
        http = stack.enter_context(httpx.Client(base_url=base, timeout=30))
        yield Server(http, tokens, url)


def expect(r: Any, kind: str, status: Mapping[str, int], *, echoed: bool = False) -> None:
    """``r`` has the status given for ``kind`` (401 for ``none`` and ``invalid``), and an
    outsider's answer holds no victim text (unless the request's own words are ``echoed``)."""
    want = {**ANONYMOUS, **status}[kind]
    assert r.status_code == want, (kind, r.status_code, r.text)
    if r.status_code >= 400:
        assert set(r.json()) == {"error"}, r.text
    if kind in OUTSIDERS and not echoed:
        assert SECRET not in r.text, (kind, r.text)


def as_unknown(server: Server, kind: str, call: Any, victim_id: str) -> None:
    """For an outsider, ``call(id)`` answers for the victim's id exactly as for an id nobody
    has (each id replaced by a placeholder)."""
    if kind not in OUTSIDERS:
        return
    unknown = f"unknown-{uuid.uuid4().hex[:12]}"
    seen, fresh = call(victim_id), call(unknown)
    assert seen.status_code == fresh.status_code, (kind, seen.text, fresh.text)
    assert seen.text.replace(victim_id, "<id>") == fresh.text.replace(unknown, "<id>"), kind


kinds = pytest.mark.parametrize("kind", KINDS)
LISTINGS = ("observations", "capsules", "summaries", "pins")
TEAM_READ = {"owner": 200, "teammate": 200, "other_team": 403, "same_name": 403, "personal": 200}
BY_ID = {"owner": 200, "teammate": 200, "other_team": 404, "same_name": 404, "personal": 404}
TEAM_WRITE = {"owner": 201, "teammate": 201, "other_team": 403, "same_name": 403, "personal": 403}
OWNER_ONLY = {"teammate": 403, "other_team": 404, "same_name": 404, "personal": 404}


# ------------------------------------------------------------------ writes


@kinds
def test_post_observations(server: Server, kind: str) -> None:
    text = f"injected by {kind} {uuid.uuid4().hex}"
    body = {"kind": "message", "content": text, "scope": {"repoId": REPO}}
    expect(server.call(kind, "POST", "/v1/observations", body), kind, TEAM_WRITE)
    found = server.ok("owner", "POST", "/v1/retrieve", {"query": text, "scope": {"repoId": REPO}})
    planted = [c for c in found["candidates"] if c["entity"].get("content") == text]
    assert bool(planted) == (TEAM_WRITE.get(kind) == 201)  # no planted memory
    v = server.victim()

    def append(capsule: str) -> Any:
        body = {"kind": "message", "content": "x", "capsule_id": capsule}
        return server.call(kind, "POST", "/v1/observations", body)

    expect(append(v["capsule"]), kind, {"owner": 201, **OWNER_ONLY})
    as_unknown(server, kind, append, v["capsule"])


@kinds
def test_post_capsules(server: Server, kind: str) -> None:
    body = {"intent": "x", "scope": {"repoId": REPO}}
    expect(server.call(kind, "POST", "/v1/capsules", body), kind, TEAM_WRITE)


@kinds
def test_a_personal_token_writes_only_outside_team_memory(server: Server, kind: str) -> None:
    """Where each kind may write: its own repository; a personal token, one no team has."""
    own = {"owner": REPO, "teammate": REPO, "other_team": OTHER_REPO, "same_name": API_REPO}
    body = {"kind": "message", "content": "mine", "scope": {"repoId": own.get(kind, PERSONAL_REPO)}}
    expect(server.call(kind, "POST", "/v1/observations", body), kind, {**dict.fromkeys(own, 201),
           "personal": 201})  # fmt: skip
    for repo in (REPO, OTHER_REPO, API_REPO):  # every team repository refuses a personal token
        body["scope"] = {"repoId": repo}
        r = server.call("personal", "POST", "/v1/observations", body)
        assert r.status_code == 403, r.text


@kinds
def test_post_capsules_close(server: Server, kind: str) -> None:
    v = server.victim()

    def close(capsule: str) -> Any:
        return server.call(kind, "POST", f"/v1/capsules/{capsule}/close", {})

    as_unknown(server, kind, close, v["capsule"])
    expect(close(v["capsule"]), kind, {"owner": 200, **OWNER_ONLY})


@kinds
def test_post_summaries(server: Server, kind: str) -> None:
    v = server.victim()

    def summarise(capsule: str) -> Any:
        return server.call(kind, "POST", "/v1/summaries", {"capsule_id": capsule, "content": "y"})

    as_unknown(server, kind, summarise, v["capsule"])
    expect(summarise(v["capsule"]), kind, {"owner": 201, **OWNER_ONLY})
    # evidence naming the victim's observation, on a capsule of one's own
    if kind in ("other_team", "same_name", "personal"):
        repo = {"other_team": OTHER_REPO, "same_name": API_REPO}.get(kind, PERSONAL_REPO)
        own = server.ok(kind, "POST", "/v1/capsules", {"intent": "z", "scope": {"repoId": repo}})

        def cite(obs: str) -> Any:
            body = {"capsule_id": own["id"], "content": "c", "evidence_refs": [obs]}
            return server.call(kind, "POST", "/v1/summaries", body)

        as_unknown(server, kind, cite, v["observation"])


@kinds
def test_post_pins(server: Server, kind: str) -> None:
    v = server.victim()

    def pin(target: str) -> Any:
        body = {"target_type": "observation", "target_id": target}
        return server.call(kind, "POST", "/v1/pins", body)

    as_unknown(server, kind, pin, v["observation"])
    expect(pin(v["observation"]), kind, {**BY_ID, "owner": 201, "teammate": 201})


@kinds
def test_delete_pins(server: Server, kind: str) -> None:
    v = server.victim()

    def unpin(pin: str) -> Any:
        return server.call(kind, "DELETE", f"/v1/pins/{pin}")

    as_unknown(server, kind, unpin, v["pin"])
    expect(unpin(v["pin"]), kind, BY_ID)


@kinds
def test_post_forget(server: Server, kind: str) -> None:
    v = server.victim()

    def forget(entity: str) -> Any:
        return server.call(kind, "POST", "/v1/forget", {"id": entity})

    as_unknown(server, kind, forget, v["observation"])
    as_unknown(server, kind, forget, v["pin"])

    def count(word: str) -> Any:
        return server.call(kind, "POST", "/v1/forget", {"match": word, "dry_run": True})

    as_unknown(server, kind, count, SECRET)  # a dry run counts nothing of the victim's
    expect(count(SECRET), kind, dict.fromkeys(BY_ID, 200), echoed=True)
    expect(forget(v["observation"]), kind, BY_ID)


# ------------------------------------------------------------------ reads


@kinds
@pytest.mark.parametrize("listing", LISTINGS)
def test_get_listings(server: Server, kind: str, listing: str) -> None:
    server.victim()
    r = server.call(kind, "GET", f"/v1/{listing}", repo=REPO)
    expect(r, kind, TEAM_READ)
    assert (SECRET in r.text) == (kind in ("owner", "teammate"))
    if kind == "personal":  # unscoped: still only its own
        expect(server.call(kind, "GET", f"/v1/{listing}"), kind, {"personal": 200})


@kinds
@pytest.mark.parametrize("entity", LISTINGS)
def test_get_entity_by_id(server: Server, kind: str, entity: str) -> None:
    v = server.victim()
    victim_id = v[{"summaries": "summary"}.get(entity, entity[:-1])]

    def get(ident: str) -> Any:
        return server.call(kind, "GET", f"/v1/{entity}/{ident}")

    as_unknown(server, kind, get, victim_id)
    expect(get(victim_id), kind, BY_ID)


@kinds
def test_get_entities(server: Server, kind: str) -> None:
    v = server.victim()
    for victim_id in v.values():

        def show(ident: str) -> Any:
            return server.call(kind, "GET", f"/v1/entities/{ident}")

        as_unknown(server, kind, show, victim_id)
        expect(show(victim_id), kind, BY_ID)


@kinds
def test_get_timeline(server: Server, kind: str) -> None:
    v = server.victim()

    def around(ident: str) -> Any:
        return server.call(kind, "GET", f"/v1/timeline/{ident}")

    as_unknown(server, kind, around, v["observation"])
    expect(around(v["observation"]), kind, BY_ID)


@kinds
def test_post_items(server: Server, kind: str) -> None:
    v = server.victim()

    def items(ident: str) -> Any:
        return server.call(kind, "POST", "/v1/items", {"ids": [ident]})

    for victim_id in (v["capsule"], v["observation"], v["summary"]):  # what get_items reads
        as_unknown(server, kind, items, victim_id)
        r = items(victim_id)
        expect(r, kind, dict.fromkeys(BY_ID, 200))
        if r.status_code == 200:  # an outsider's victim id is missing, like an unknown one
            assert (r.json()["missing"] == [victim_id]) == (kind in OUTSIDERS), (kind, r.text)


@kinds
def test_post_retrieve(server: Server, kind: str) -> None:
    server.victim()
    r = server.call(kind, "POST", "/v1/retrieve", {"query": SECRET, "scope": {"repoId": REPO}})
    expect(r, kind, TEAM_READ, echoed=True)
    if r.status_code == 200:  # (the provenance repeats the query)
        found = str({k: v for k, v in r.json().items() if k != "provenance"})
        assert (SECRET in found) == (kind in ("owner", "teammate"))
    if kind in ("personal", "same_name", "other_team"):  # and everything it may read
        scope = {} if kind == "personal" else {"repoId": home_repo(kind)}
        r = server.call(kind, "POST", "/v1/retrieve", {"query": SECRET, "scope": scope})
        assert r.json()["candidates"] == []
        assert r.json()["pins"] == []


@kinds
def test_get_export(server: Server, kind: str) -> None:
    server.victim()
    r = server.call(kind, "GET", "/v1/export", repo=REPO)
    expect(r, kind, TEAM_READ)
    assert (SECRET in r.text) == (kind in ("owner", "teammate"))


@kinds
def test_get_status(server: Server, kind: str) -> None:
    r = server.call(kind, "GET", "/v1/status")
    expect(r, kind, dict.fromkeys(BY_ID, 200))
    if r.status_code == 200:  # the token's user name and team, as created
        names = {"teammate": "bob", "other_team": "mallory"}
        assert r.json()["user"] == names.get(kind, "alice")


@kinds
def test_get_openapi(server: Server, kind: str) -> None:
    expect(server.call(kind, "GET", "/openapi.json"), kind, dict.fromkeys(KINDS, 200))


# ------------------------------------------------------------------ import


def bundle(**lists: list[dict[str, Any]]) -> dict[str, Any]:
    names = ("observations", "capsules", "summaries", "pins")
    dataset = {"version": "1.0", "scope": {}, **{n: lists.get(n, []) for n in names}}
    return {"bundleVersion": "1.0", "exportedAt": 1, "dataset": dataset}


def observation(ident: str, repo: str) -> dict[str, Any]:
    return {"id": ident, "kind": "message", "content": "imported", "ts": 1,
            "scopeIds": {"repoId": repo}}  # fmt: skip


def home_repo(kind: str) -> str:
    return {"owner": REPO, "teammate": REPO, "other_team": OTHER_REPO, "same_name": API_REPO}.get(
        kind, PERSONAL_REPO
    )


@kinds
def test_post_import(server: Server, kind: str) -> None:
    def send(body: Any, dry_run: str = "false") -> Any:
        return server.http.post(
            "/v1/import",
            json=body,
            params={"dry_run": dry_run},
            headers=auth(token) if (token := server.tokens[kind]) else {},
        )

    fresh = bundle(observations=[observation(uuid.uuid4().hex, REPO)])
    expect(send(fresh), kind, {**TEAM_WRITE, "owner": 200, "teammate": 200})
    if kind not in ("other_team", "same_name", "personal"):
        return
    v, repo = server.victim(), home_repo(kind)
    before = server.ok("owner", "GET", f"/v1/capsules/{v['capsule']}")["observationIds"]

    def link(capsule: str) -> Any:  # the victim's capsule id, and an observation of one's own
        mine = uuid.uuid4().hex
        cap = {"id": capsule, "type": "session", "intent": "i", "status": "open", "openedAt": 1,
               "scopeIds": {"repoId": repo}, "observationIds": [mine]}  # fmt: skip
        return send(bundle(observations=[observation(mine, repo)], capsules=[cap]))

    as_unknown(server, kind, link, v["capsule"])  # a capsule of its own (see server.md)
    after = server.ok("owner", "GET", f"/v1/capsules/{v['capsule']}")["observationIds"]
    assert after == before
    v = server.victim()  # (that capsule id is the token's own now: name new ones)
    for dry_run in ("true", "false"):

        def summary(capsule: str, dry_run: str = dry_run) -> Any:
            s = {"id": "s-fixed", "capsuleId": capsule, "content": "c", "confidence": 0.5,
                 "createdAt": 1}  # fmt: skip
            return send(bundle(summaries=[s]), dry_run)

        def pin(target: str, dry_run: str = dry_run) -> Any:
            p = {"id": "p-fixed", "targetType": "observation", "targetId": target,
                 "createdAt": 1, "scopeIds": {"repoId": repo}}  # fmt: skip
            return send(bundle(pins=[p]), dry_run)

        def cite(obs: str, dry_run: str = dry_run) -> Any:
            cap = {"id": "c-" + obs, "type": "session", "intent": "i", "status": "open",
                   "openedAt": 1, "scopeIds": {"repoId": repo},
                   "observationIds": [obs]}  # fmt: skip
            return send(bundle(capsules=[cap]), dry_run)

        as_unknown(server, kind, summary, v["capsule"])
        as_unknown(server, kind, pin, v["observation"])
        if dry_run == "true":  # (a real import would add the capsule, under its id)
            as_unknown(server, kind, cite, v["observation"])


# ------------------------------------------------------------------ the later verbs


@kinds
def test_post_observations_batch(server: Server, kind: str) -> None:
    def batch(*items: dict[str, Any]) -> Any:
        return server.call(kind, "POST", "/v1/observations/batch", {"observations": list(items)})

    text = f"batched by {kind} {uuid.uuid4().hex}"
    one = {"kind": "message", "content": text, "scope": {"repoId": REPO}}
    expect(batch(one, dict(one, content=text + " 2")), kind, TEAM_WRITE)
    found = server.ok("owner", "POST", "/v1/retrieve", {"query": text, "scope": {"repoId": REPO}})
    planted = [c for c in found["candidates"] if c["entity"].get("content") == text]
    assert bool(planted) == (TEAM_WRITE.get(kind) == 201)
    v = server.victim()

    def into(capsule: str) -> Any:
        return batch({"kind": "message", "content": "x", "capsule_id": capsule})

    expect(into(v["capsule"]), kind, {"owner": 201, **OWNER_ONLY})
    as_unknown(server, kind, into, v["capsule"])


@kinds
def test_post_memories(server: Server, kind: str) -> None:
    text = f"memory by {kind} {uuid.uuid4().hex}"
    r = server.call(kind, "POST", "/v1/memories", {"workspace": REPO, "content": text})
    expect(r, kind, TEAM_WRITE)
    found = server.ok("owner", "POST", "/v1/memories/search", {"workspace": REPO, "query": text})
    planted = [m for m in found if m["memory"]["summary"]["content"] == text]
    assert bool(planted) == (TEAM_WRITE.get(kind) == 201)  # no planted memory
    if r.status_code == 201:
        assert r.json()["summary"]["content"] == text


@kinds
def test_post_memories_search(server: Server, kind: str) -> None:
    server.ok("owner", "POST", "/v1/memories", {"workspace": REPO, "content": f"{SECRET} m"})
    r = server.call(kind, "POST", "/v1/memories/search", {"workspace": REPO, "query": SECRET})
    expect(r, kind, TEAM_READ, echoed=True)
    assert (SECRET in str(r.json())) == (kind in ("owner", "teammate")), r.text
    if kind == "personal":  # its own workspace: nothing of the team's
        r = server.call(kind, "POST", "/v1/memories/search", {"workspace": REPO, "query": "m"})
        assert r.json() == []


@kinds
def test_get_repos(server: Server, kind: str) -> None:
    server.victim()
    r = server.call(kind, "GET", "/v1/repos", repo=REPO)
    expect(r, kind, TEAM_READ)
    if r.status_code == 200:
        shown = {row["repoId"] for row in r.json()}
        assert (REPO in shown) == (kind in ("owner", "teammate")), r.text
    if kind == "personal":  # unscoped: only where it wrote itself
        assert REPO not in {row["repoId"] for row in server.ok(kind, "GET", "/v1/repos")}


@kinds
def test_post_forget_finish(server: Server, kind: str) -> None:
    r = server.call(kind, "POST", "/v1/forget/finish", {"wait_ms": 0})
    expect(r, kind, dict.fromkeys(BY_ID, 200))
    if r.status_code == 200:
        assert r.json()["holders"] == []  # the server's connections are its own business


@kinds
def test_a_taken_id_answers_as_an_unknown_one(server: Server, kind: str) -> None:
    """Issue 18: creating under an id another team holds answers exactly as under an id
    nobody has, on every path that creates with a client's id (observations, batches,
    capsules, imports, dry runs included); under one's own team's id, the 409 it always got.
    (The whole story of such an id: ``tests/http/test_server_idspace.py``.)"""
    if kind in ("none", "invalid"):
        return
    v, repo = server.victim(), home_repo(kind)
    scope = {"repoId": repo}

    def creates(obs_id: str, cap_id: str) -> list[str]:
        obs = {"kind": "message", "content": "x", "scope": scope, "id": obs_id, "ts": 1}
        cap = {"intent": "i", "scope": scope, "id": cap_id, "opened_at": 1}
        imported = bundle(observations=[observation(obs_id, repo)])
        answers = [
            server.call(kind, "POST", "/v1/observations", obs),
            server.call(kind, "POST", "/v1/observations/batch", {"observations": [obs]}),
            server.call(kind, "POST", "/v1/capsules", cap),
            server.call(kind, "POST", "/v1/import", imported, dry_run="true"),
            server.call(kind, "POST", "/v1/import", imported, dry_run="false"),
        ]
        return [f"{r.status_code} {r.text}".replace(obs_id, "<o>").replace(cap_id, "<c>")
                for r in answers]  # fmt: skip

    if kind in OUTSIDERS:
        fresh = uuid.uuid4().hex
        seen, control = creates(v["observation"], v["capsule"]), creates(fresh, uuid.uuid4().hex)
        assert seen == control
        assert seen[0].startswith("201 "), seen
        assert seen[1].startswith("409 "), seen  # its own id now, taken
    else:  # its own team's ids: taken
        answers = creates(v["observation"], v["capsule"])[:3]
        assert all(
            a.startswith(f'409 {{"error":{{"code":"conflict","message":"{TAKEN}"') for a in answers
        ), answers


# ------------------------------------------------------------------ coverage


COVERED = {
    ("POST", "/v1/observations"): test_post_observations,
    ("GET", "/v1/observations"): test_get_listings,
    ("POST", "/v1/capsules"): test_post_capsules,
    ("GET", "/v1/capsules"): test_get_listings,
    ("POST", "/v1/capsules/{id}/close"): test_post_capsules_close,
    ("POST", "/v1/summaries"): test_post_summaries,
    ("GET", "/v1/summaries"): test_get_listings,
    ("POST", "/v1/pins"): test_post_pins,
    ("GET", "/v1/pins"): test_get_listings,
    ("DELETE", "/v1/pins/{id}"): test_delete_pins,
    **{("GET", f"/v1/{kind}/{{id}}"): test_get_entity_by_id for kind in LISTINGS},
    ("GET", "/v1/entities/{id}"): test_get_entities,
    ("POST", "/v1/forget"): test_post_forget,
    ("POST", "/v1/retrieve"): test_post_retrieve,
    ("GET", "/v1/timeline/{id}"): test_get_timeline,
    ("POST", "/v1/items"): test_post_items,
    ("GET", "/v1/status"): test_get_status,
    ("GET", "/v1/export"): test_get_export,
    ("POST", "/v1/import"): test_post_import,
    ("GET", "/openapi.json"): test_get_openapi,
    ("POST", "/v1/observations/batch"): test_post_observations_batch,
    ("POST", "/v1/memories"): test_post_memories,
    ("POST", "/v1/memories/search"): test_post_memories_search,
    ("GET", "/v1/repos"): test_get_repos,
    ("POST", "/v1/forget/finish"): test_post_forget_finish,
}


def test_every_route_is_covered(tmp_path: Any) -> None:
    """The app's routes are exactly the ones this suite drives: a new endpoint needs a test
    here that calls it with every kind of token."""
    from starlette.routing import Route

    from kindling.http.app import create_app

    with Kindling.open(str(tmp_path / "k.db")) as kd:
        routes = {
            (method, route.path)
            for route in create_app(kd).routes
            if isinstance(route, Route)
            for method in route.methods or ()
            if method != "HEAD"
        }
    assert routes == set(COVERED)


def test_a_repository_granted_later_takes_personal_writes_no_more(server: Server) -> None:
    """A personal capsule in a repository no team had: once a team is granted it, the personal
    token's appends, summaries and closing there are refused (what it wrote before stays)."""
    repo = f"/home/alice/later-{uuid.uuid4().hex[:8]}"
    cap = server.ok("personal", "POST", "/v1/capsules", {"intent": "i", "scope": {"repoId": repo}})
    body = {"kind": "message", "content": "x", "capsule_id": cap["id"]}
    server.ok("personal", "POST", "/v1/observations", body)
    grant = [str(KINDLING_CLI), "--db", server.store_url, "token", "grant", "--team", "web"]
    assert subprocess.run([*grant, "--repo", repo], capture_output=True).returncode == 0
    assert server.call("personal", "POST", "/v1/observations", body).status_code == 403
    summary = {"capsule_id": cap["id"], "content": "s"}
    assert server.call("personal", "POST", "/v1/summaries", summary).status_code == 403
    r = server.call("personal", "POST", f"/v1/capsules/{cap['id']}/close", {})
    assert r.status_code == 403

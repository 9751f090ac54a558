"""Issue 18: an id another team holds is an unknown id on every path, creates included.

Each owner (a team, or a personal token's user) works in its own view of the ids its clients
choose (``http.idspace``): a create under an id only others hold answers exactly as a create
under a fresh id, and from then on the id is the owner's own: read, linked, pinned, cited,
closed, imported, exported and forgotten by it, while the other team's entity is unchanged.
Driven through the real server process, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import json
import re
import subprocess
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import quote

import pytest

from kindling import Kindling
from tests.http.test_server_access import (
    API_REPO,
    KINDLING_CLI,
    OTHER_REPO,
    PERSONAL_REPO,
    REPO,
    SECRET,
    Server,
    bundle,
    team_server,
)

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

OUTSIDERS = ("other_team", "same_name", "personal")
HOME = {"other_team": OTHER_REPO, "same_name": API_REPO, "personal": PERSONAL_REPO}
ROLES = ("cap", "obs", "batch", "cap2", "obs2", "sum", "pin")
DERIVED = re.compile(r"~[0-9a-f]{16}")


@pytest.fixture(scope="module", params=("sqlite", "postgres"))
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with team_server(request.param, tmp_path_factory) as running:
        yield running


def q(ident: str) -> str:
    """An id as a path segment."""
    return quote(ident, safe="")


def victim(server: Server, shape: Callable[[], str] = lambda: uuid.uuid4().hex) -> dict[str, str]:
    """Entities of web's alice in REPO, each holding SECRET, under ids of ``shape``: the ids
    of every role (``ROLES``), each held by an entity of the victim's (not always of the kind
    the role creates: an id is one name whatever the kind)."""
    ids = {role: shape() for role in ROLES}
    scope = {"repoId": REPO}
    for role in ("cap", "cap2"):
        body = {"intent": f"{SECRET} i", "scope": scope, "id": ids[role], "type": "pocketflow_node"}
        server.ok("owner", "POST", "/v1/capsules", body)
    for role in ("obs", "obs2", "batch"):
        body = {"kind": "error", "content": f"{SECRET} o", "scope": scope, "id": ids[role]}
        server.ok("owner", "POST", "/v1/observations", body)
    cap = {"id": ids["sum"], "type": "session", "intent": f"{SECRET} c", "status": "open",
           "openedAt": 1, "scopeIds": scope, "observationIds": [ids["obs"]]}  # fmt: skip
    summary = {"id": ids["sum"], "capsuleId": ids["sum"], "content": f"{SECRET} s",
               "confidence": 0.5, "createdAt": 1}  # fmt: skip
    pin = {"id": ids["pin"], "targetType": "observation", "targetId": ids["obs"],
           "reason": f"{SECRET} p", "createdAt": 1, "scopeIds": scope}  # fmt: skip
    r = server.ok(
        "owner", "POST", "/v1/import", bundle(capsules=[cap], summaries=[summary], pins=[pin])
    )
    assert r["added"] == {"observations": 0, "capsules": 1, "summaries": 1, "pins": 1}, r
    return ids


def snapshot(server: Server, ids: dict[str, str]) -> list[Any]:
    """The victim's entities as its owner reads them."""
    return [server.ok("owner", "GET", f"/v1/entities/{q(i)}") for i in ids.values()]


def story(server: Server, kind: str, ids: dict[str, str]) -> list[str]:
    """Every create path under the client ids ``ids``, then every use of them; the answers
    (status and body, each id replaced by its role, the server's own new ids numbered)."""
    session = f"s-{uuid.uuid4().hex}"  # each story its own: neighbours are the story's
    scope = {"repoId": HOME[kind], "sessionId": session}
    ids = {**ids, "session": session}
    answers: list[str] = []
    minted: list[str] = []

    def call(method: str, path: str, body: Any = None, **params: Any) -> Any:
        r = server.call(kind, method, path, body, **params)
        if r.status_code == 201 and path in ("/v1/pins", "/v1/summaries"):
            minted.append(r.json()["id"])
        text = f"{method} {path} {params} {r.status_code} {r.text}"
        for role, ident in ids.items():
            for spelling in (ident, repr(ident)[1:-1], q(ident)):  # JSON-escaped too
                for written in (json.dumps(spelling, ensure_ascii=False)[1:-1], spelling):
                    text = text.replace(written, f"<{role}>")
        for n, ident in enumerate(minted):
            text = text.replace(ident, f"<new{n}>")
        answers.append(text)
        return r

    def obs(role: str, **more: Any) -> dict[str, Any]:
        return {"kind": "message", "content": f"mine {role}", "scope": scope, "ts": 5,
                "id": ids[role], **more}  # fmt: skip

    call("POST", "/v1/capsules", {"intent": "mine", "scope": scope, "id": ids["cap"],
                                  "type": "pocketflow_node", "opened_at": 2})  # fmt: skip
    call("POST", "/v1/observations", obs("obs", capsule_id=ids["cap"]))
    call("POST", "/v1/observations", obs("obs"))  # one's own id again: the legitimate 409
    call("POST", "/v1/capsules", {"intent": "again", "scope": scope, "id": ids["cap"],
                                  "type": "pocketflow_node", "opened_at": 2})  # fmt: skip
    call("POST", "/v1/observations/batch", {"observations": [obs("batch", capsule_id=ids["cap"])]})
    call("POST", "/v1/observations/batch", {"observations": [obs("batch")]})  # 409 again
    for role, entity in (("obs", "observations"), ("cap", "capsules")):
        call("GET", f"/v1/{entity}/{q(ids[role])}")
    call("GET", f"/v1/entities/{q(ids['obs'])}")
    call("GET", "/v1/observations", capsule=ids["cap"], repo=HOME[kind])
    call("GET", "/v1/observations", capsule=ids["cap"], repo=HOME[kind], before=f"5:{ids['obs']}")
    call(
        "POST", "/v1/pins", {"target_type": "observation", "target_id": ids["obs"], "created_at": 7}
    )
    call("POST", "/v1/summaries", {"capsule_id": ids["cap"], "content": "sum", "created_at": 8,
                                   "evidence_refs": [ids["obs"], ids["batch"]]})  # fmt: skip
    call("POST", "/v1/items", {"ids": [ids["obs"], ids["cap"], ids["batch"]]})
    call("GET", f"/v1/timeline/{q(ids['obs'])}")
    call("POST", f"/v1/capsules/{q(ids['cap'])}/close", {"closed_at": 9})
    call("POST", f"/v1/capsules/{q(ids['cap'])}/close", {"closed_at": 9})  # 409 naming the id
    call("POST", "/v1/observations", obs("obs2", capsule_id=ids["cap"]))  # 409 naming it too
    # an import, dry run and real: an observation, a capsule, its summary and a pin, all
    # under ids the victim holds; the capsule lists the new observation and two earlier ones
    obs_ids = [ids["obs2"], ids["obs"], ids["batch"]]
    cap = {"id": ids["cap2"], "type": "session", "intent": "i", "status": "open", "openedAt": 3,
           "scopeIds": scope, "observationIds": obs_ids}  # fmt: skip
    summary = {"id": ids["sum"], "capsuleId": ids["cap2"], "content": "s", "confidence": 0.5,
               "createdAt": 4, "evidenceRefs": [ids["obs2"]]}  # fmt: skip
    pin = {"id": ids["pin"], "targetType": "summary", "targetId": ids["sum"], "createdAt": 4,
           "scopeIds": scope}  # fmt: skip
    new_obs = {"id": ids["obs2"], "kind": "message", "content": "imported", "ts": 4,
               "scopeIds": scope}  # fmt: skip
    body = bundle(observations=[new_obs], capsules=[cap], summaries=[summary], pins=[pin])
    dry = call("POST", "/v1/import", body, dry_run="true").json()
    real = call("POST", "/v1/import", body, dry_run="false").json()
    assert {**dry, "dryRun": False} == real, (dry, real)  # the dry run foretold the import
    call("POST", "/v1/import", body, dry_run="false")  # again: all existing now
    for role in ("cap2", "sum", "pin", "obs2"):
        call("GET", f"/v1/entities/{q(ids[role])}")
    exported = call("GET", "/v1/export", repo=HOME[kind]) if kind != "personal" else None
    if exported is not None:  # every id one's own, as chosen (other entries vary: not kept)
        answers.pop()
        shown = {
            e["id"] for k in ("observations", "capsules") for e in exported.json()["dataset"][k]
        }
        assert {ids[r] for r in ("obs", "batch", "obs2", "cap", "cap2")} <= shown
    call("POST", "/v1/forget", {"id": ids["pin"], "dry_run": True})
    call("POST", "/v1/forget", {"id": ids["obs"]})
    call("GET", f"/v1/observations/{q(ids['obs'])}")
    call("DELETE", f"/v1/pins/{q(ids['pin'])}")
    call("DELETE", f"/v1/pins/{q(ids['pin'])}")  # gone: 404 naming the id
    return answers


def assert_unknown_alike(server: Server, kind: str, shape: Callable[[], str]) -> None:
    held = victim(server, shape)
    before = snapshot(server, held)
    fresh = {role: shape() for role in ROLES}
    seen, control = story(server, kind, held), story(server, kind, fresh)
    for mine, theirs in zip(seen, control, strict=True):
        assert mine == theirs
    assert SECRET not in "".join(seen)
    assert not DERIVED.search("".join(seen)), seen  # no stored id of the owner's shows
    assert snapshot(server, held) == before  # the victim's entities are untouched, its own


@pytest.mark.parametrize("kind", OUTSIDERS)
def test_another_teams_id_is_created_as_an_unknown_one(server: Server, kind: str) -> None:
    assert_unknown_alike(server, kind, lambda: uuid.uuid4().hex)


@pytest.mark.parametrize(
    "shape",
    [
        lambda: f"a~{uuid.uuid4().hex}",  # the derived ids' mark
        lambda: f"{uuid.uuid4().hex}~{uuid.uuid4().hex[:16]}",  # shaped like a derived id
        lambda: uuid.uuid4().hex * 8,  # 256 characters, the most an id may have
        lambda: f"ünïcødé-日本-{uuid.uuid4().hex}",
        lambda: f"quote'\ttab-{uuid.uuid4().hex}",  # repr escapes it in messages
    ],
    ids=["tilde", "derived-shape", "longest", "unicode", "quote-tab"],
)
def test_odd_ids_are_created_as_unknown_ones(server: Server, shape: Callable[[], str]) -> None:
    assert_unknown_alike(server, "other_team", shape)


def test_the_owner_of_an_id_keeps_its_409(server: Server) -> None:
    """A teammate may touch the victim's entities: the id is its team's own, taken."""
    held = victim(server)
    body = {"kind": "message", "content": "x", "scope": {"repoId": REPO}, "id": held["obs"]}
    for kind in ("owner", "teammate"):
        r = server.call(kind, "POST", "/v1/observations", body)
        assert r.status_code == 409, r.text
        assert r.json()["error"]["message"] == "an entity with that id already exists"


def test_a_nul_in_a_chosen_id_is_the_librarys_400(server: Server) -> None:
    body = {"kind": "message", "content": "x", "scope": {"repoId": OTHER_REPO}, "id": "a\x00b"}
    r = server.call("other_team", "POST", "/v1/observations", body)
    assert r.status_code == 400, r.text


def aliases(server: Server, owner: str) -> dict[str, str]:
    with Kindling.open(server.store_url) as kd:
        return kd.team.id_aliases(owner)


def test_a_derived_id_is_just_another_id_to_everyone_else(server: Server) -> None:
    """Billing's stored id for the victim's id: another team creating under it gets its own
    (answered as a fresh id), billing still reads its entity by the id it chose."""
    held = victim(server)
    mine = {"kind": "message", "content": "billing's", "scope": {"repoId": OTHER_REPO},
            "id": held["obs"], "ts": 1}  # fmt: skip
    assert server.call("other_team", "POST", "/v1/observations", mine).status_code == 201
    derived = aliases(server, "team:billing")[held["obs"]]
    assert derived != held["obs"]
    assert DERIVED.search(derived)
    for kind, repo in (("same_name", API_REPO), ("owner", REPO)):
        fresh = uuid.uuid4().hex + "~" + uuid.uuid4().hex[:16]
        answers = []
        for ident in (derived, fresh):
            body = {
                "kind": "message",
                "content": "x",
                "scope": {"repoId": repo},
                "id": ident,
                "ts": 1,
            }
            r = server.call(kind, "POST", "/v1/observations", body)
            answers.append((r.status_code, r.text.replace(ident, "<id>")))
        assert answers[0] == answers[1], answers
    got = server.ok("other_team", "GET", f"/v1/observations/{held['obs']}")
    assert (got["id"], got["content"]) == (held["obs"], "billing's")
    assert server.ok("owner", "GET", f"/v1/observations/{held['obs']}")["content"].startswith(
        SECRET
    )


def test_a_team_that_gains_sight_of_an_aliased_entity_sees_its_stored_id(server: Server) -> None:
    """A repository granted later: web sees billing's entity under its stored id, billing
    still under the id it chose."""
    held = victim(server)
    repo = f"/src/shared-{uuid.uuid4().hex[:8]}"
    grant = [str(KINDLING_CLI), "--db", server.store_url, "token", "grant"]
    assert subprocess.run([*grant, "--team", "billing", "--repo", repo]).returncode == 0
    mine = {"kind": "message", "content": "shared later", "scope": {"repoId": repo},
            "id": held["obs"]}  # fmt: skip
    assert server.call("other_team", "POST", "/v1/observations", mine).status_code == 201
    assert subprocess.run([*grant, "--team", "web", "--repo", repo]).returncode == 0
    listed = server.ok("owner", "GET", "/v1/observations", repo=repo)
    assert [o["content"] for o in listed] == ["shared later"]
    stored = listed[0]["id"]
    assert stored == aliases(server, "team:billing")[held["obs"]] != held["obs"]
    assert server.ok("owner", "GET", f"/v1/observations/{stored}")["content"] == "shared later"
    seen = server.ok("other_team", "GET", "/v1/observations", repo=repo)
    assert [o["id"] for o in seen] == [held["obs"]]


def test_concurrent_creates_under_one_taken_id_make_one_entity(server: Server) -> None:
    """Eight requests at once, one owner, one id only another team holds: one 201, seven of
    the owner's own 409s, one alias, one entity (none left without its alias)."""
    held = victim(server)
    body = {"kind": "message", "content": "raced", "scope": {"repoId": OTHER_REPO},
            "id": held["batch"]}  # fmt: skip
    with ThreadPoolExecutor(8) as pool:
        answers = list(
            pool.map(
                lambda _: server.call("other_team", "POST", "/v1/observations", body), range(8)
            )
        )
    assert sorted(r.status_code for r in answers) == [201] + [409] * 7, [r.text for r in answers]
    stored = aliases(server, "team:billing")[held["batch"]]
    with Kindling.open(server.store_url) as kd:
        assert kd.get_observation(stored).content == "raced"
    listed = server.ok("other_team", "GET", "/v1/observations", repo=OTHER_REPO, limit=500)
    assert [o["id"] for o in listed if o["content"] == "raced"] == [held["batch"]]
    got = server.ok("other_team", "GET", f"/v1/observations/{q(held['batch'])}")
    assert (got["id"], got["content"]) == (held["batch"], "raced")

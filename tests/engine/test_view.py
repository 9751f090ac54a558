"""A principal's view of a memory (``Kindling.view_for``, ``engine.view``): one access rule,
applied by every verb of ``Memory``, on SQLite and on PostgreSQL.

Team ``api`` (carol) holds a capsule, an observation in it, a summary citing it, a pin on it and
a chat memory, all in repository ``/api``. Team ``web`` (alice) is granted ``/web`` only. For
every verb of the protocol (``memory.verbs()``; a new verb fails ``test_every_verb_is_probed``
until it has a probe here), web's view must treat api's entities as unknown (the very answer
an id nobody has gets), refuse api's repository, and never show or change api's text, while
web's own entities stay within reach (the rule is not "hide everything").
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

import kindling
from kindling import Kindling, Scope
from kindling.engine.view import MemoryView
from kindling.errors import ConflictError, ForbiddenError, KindlingError, NotFoundError
from kindling.memory import LocalMemory, PrincipalView, ServedMemory, TeamDirectory, verbs
from kindling.model import NewObservation
from kindling.model.access import Principal
from kindling.model.bundle import parse_bundle
from kindling.store.tokens import hash_token

pytestmark = pytest.mark.contract  # both backends (conftest)

THEIRS = Scope(repo_id="/api", session_id="s-api", user_id="api/carol")
MINE = Scope(repo_id="/web", session_id="s-web")
WORD = "zebrafish"
UNKNOWN = "no-such-id-0"


@dataclass
class World:
    kd: Kindling
    view: MemoryView
    capsule: str
    obs: str
    summary: str
    pin: str
    own_obs: str
    own_capsule: str


def _principal(team: TeamDirectory, user: str, name: str, repo: str) -> Principal:
    _record, token = team.create_token(user=user, team=name)
    team.grant_repo(team=name, repo=repo)
    return team.principal(hash_token(token))


@pytest.fixture
def world(kd: Kindling) -> World:
    capsule = kd.open_capsule(intent=f"api {WORD} work", scope=THEIRS)
    obs = kd.append_observation(kind="error", content=f"their {WORD}", capsule_id=capsule.id)
    summary = kd.add_summary(capsule.id, content=f"their {WORD} fixed", evidence_refs=[obs.id])
    pin = kd.pin("observation", obs.id, reason=f"their {WORD}", scope=THEIRS)
    kd.add_memory("/api", f"their {WORD} memory", user_id="api/carol")
    _principal(kd.team, "carol", "api", "/api")
    view = kd.view_for(_principal(kd.team, "alice", "web", "/web"))
    own_capsule = view.open_capsule(intent="web work", scope=MINE)
    own = view.append_observation(kind="message", content=f"my {WORD}", capsule_id=own_capsule.id)
    return World(kd, view, capsule.id, obs.id, summary.id, pin.id, own.id, own_capsule.id)


def _as_unknown(call: Callable[[str], object], their_id: str) -> None:
    """``call`` on another team's id fails exactly as on an id nobody has."""
    with pytest.raises(NotFoundError) as theirs:
        call(their_id)
    with pytest.raises(NotFoundError) as nobody:
        call(UNKNOWN)
    assert theirs.value.message.replace(their_id, "X") == nobody.value.message.replace(UNKNOWN, "X")


def _refused(call: Callable[[], object]) -> None:
    with pytest.raises(ForbiddenError):
        call()


def _untouched(w: World) -> None:
    """Nothing of api's changed."""
    assert w.kd.get_observation(w.obs).content == f"their {WORD}"
    assert w.kd.get_summary(w.summary).content == f"their {WORD} fixed"
    assert w.kd.get_pin(w.pin).reason == f"their {WORD}"
    assert w.kd.get_capsule(w.capsule).status == "open"


def _no_text_of_theirs(answer: object) -> None:
    assert f"their {WORD}" not in repr(answer)
    assert "api/carol" not in repr(answer)


# ---------------------------------------------------------------------------- probes


def p_open_capsule(w: World) -> None:
    _refused(lambda: w.view.open_capsule(intent="x", scope=Scope(repo_id="/api")))
    elsewhere = Scope(repo_id="/web", session_id="s-2", user_id="api/carol")
    stamped = w.view.open_capsule(intent="x", scope=elsewhere)
    assert stamped.scope.user_id == "web/alice"  # a write is stamped with the principal


def p_append_observation(w: World) -> None:
    _as_unknown(
        lambda i: w.view.append_observation(kind="message", content="x", capsule_id=i), w.capsule
    )
    _refused(lambda: w.view.append_observation(kind="message", content="x", scope=THEIRS))
    assert w.kd.list_observations(capsule_id=w.capsule) == [w.kd.get_observation(w.obs)]


def p_append_many(w: World) -> None:
    _as_unknown(
        lambda i: w.view.append_many([NewObservation(kind="message", content="x", capsule_id=i)]),
        w.capsule,
    )
    _refused(
        lambda: w.view.append_many([NewObservation(kind="message", content="x", scope=THEIRS)])
    )


def p_add_summary(w: World) -> None:
    _as_unknown(lambda i: w.view.add_summary(i, content="x"), w.capsule)
    _as_unknown(lambda i: w.view.add_summary(w.own_capsule, content="x", evidence_refs=[i]), w.obs)


def p_close_capsule(w: World) -> None:
    _as_unknown(lambda i: w.view.close_capsule(i, summary="x"), w.capsule)
    _as_unknown(
        lambda i: w.view.close_capsule(w.own_capsule, summary="x", evidence_refs=[i]), w.obs
    )


def p_pin(w: World) -> None:
    _as_unknown(lambda i: w.view.pin("observation", i, reason="x"), w.obs)
    _as_unknown(lambda i: w.view.pin("summary", i, reason="x"), w.summary)
    assert w.view.pin("observation", w.own_obs).scope.user_id == "web/alice"


def p_unpin(w: World) -> None:
    _as_unknown(w.view.unpin, w.pin)


def p_get_observation(w: World) -> None:
    _as_unknown(w.view.get_observation, w.obs)
    assert w.view.get_observation(w.own_obs).id == w.own_obs


def p_get_capsule(w: World) -> None:
    _as_unknown(w.view.get_capsule, w.capsule)


def p_get_summary(w: World) -> None:
    _as_unknown(w.view.get_summary, w.summary)


def p_get_pin(w: World) -> None:
    _as_unknown(w.view.get_pin, w.pin)


def p_get(w: World) -> None:
    _as_unknown(lambda i: w.view.get(i, "observation"), w.obs)
    _as_unknown(lambda i: w.view.get(i, "summary"), w.summary)


def p_describe(w: World) -> None:
    for their in (w.obs, w.capsule, w.summary, w.pin):
        _as_unknown(w.view.describe, their)
    _no_text_of_theirs(w.view.describe(w.own_obs).to_dict())


def p_list_observations(w: World) -> None:
    _refused(lambda: w.view.list_observations(scope=Scope(repo_id="/api")))
    _refused(lambda: w.view.list_observations())  # a team names a repository
    listed = w.view.list_observations(scope=Scope(repo_id="/web"))
    assert [o.id for o in listed] == [w.own_obs]


def p_list_repos(w: World) -> None:
    _refused(lambda: w.view.list_repos(scope=Scope(repo_id="/api")))
    assert [r.repo_id for r in w.view.list_repos(scope=Scope(repo_id="/web"))] == ["/web"]
    assert [r.repo_id for r in w.view.list_repos()] == ["/web"]  # naming none: its team's


def p_list_capsules(w: World) -> None:
    _refused(lambda: w.view.list_capsules(scope=Scope(repo_id="/api")))
    listed = w.view.list_capsules(scope=Scope(repo_id="/web"))
    assert [c.id for c in listed] == [w.own_capsule]


def p_list_summaries(w: World) -> None:
    _refused(lambda: w.view.list_summaries(scope=Scope(repo_id="/api")))
    assert w.view.list_summaries(scope=Scope(repo_id="/web")) == []


def p_list_pins(w: World) -> None:
    _refused(lambda: w.view.list_pins(scope=Scope(repo_id="/api")))
    assert w.view.list_pins(scope=Scope(repo_id="/web")) == []


def p_status(w: World) -> None:
    status = w.view.status()
    assert (status.user, status.team, status.repos) == ("alice", "web", ("/web",))
    assert [c.id for c in status.open_capsules] == [w.own_capsule]


def p_timeline(w: World) -> None:
    _as_unknown(w.view.timeline, w.obs)
    _as_unknown(w.view.timeline, w.summary)
    assert w.view.timeline(w.own_obs).anchor.id == w.own_obs


def p_get_items(w: World) -> None:
    items = w.view.get_items([w.obs, w.summary, w.capsule, w.own_obs])
    assert items.missing == (w.obs, w.summary, w.capsule)
    assert [i.entity.id for i in items.items] == [w.own_obs]


def p_retrieve(w: World) -> None:
    _refused(lambda: w.view.retrieve(WORD, scope=Scope(repo_id="/api")))
    found = w.view.retrieve(WORD, scope=Scope(repo_id="/web"))
    assert [c.entity.id for c in found.candidates] == [w.own_obs]


def p_add_memory(w: World) -> None:
    _refused(lambda: w.view.add_memory("/api", "planted"))
    mine = w.view.add_memory("/web", "a web memory", user_id="api/carol")
    assert w.kd.get_capsule(mine.summary.capsule_id).scope.user_id == "web/alice"


def p_search_memories(w: World) -> None:
    _refused(lambda: w.view.search_memories("/api", WORD))
    assert w.view.search_memories("/web", WORD) == []


def p_forget(w: World) -> None:
    for their in (w.obs, w.summary, w.pin):
        _as_unknown(lambda i: w.view.forget(i, dry_run=True), their)
        _as_unknown(w.view.forget, their)
    _untouched(w)


def p_forget_matching(w: World) -> None:
    plan = w.view.forget_matching(WORD, dry_run=True)
    assert (plan.observations, plan.summaries, plan.pins, plan.capsules) == (
        (w.own_obs,),
        (),
        (),
        (),
    )
    w.view.forget_matching(WORD)
    _untouched(w)
    assert w.kd.get_capsule(w.capsule).intent == f"api {WORD} work"


def p_finish_forget(w: World) -> None:
    assert w.view.finish_forget(wait_ms=0).holders == ()


def p_export_bundle(w: World) -> None:
    _refused(lambda: w.view.export_bundle(scope=Scope(repo_id="/api")))
    _no_text_of_theirs(w.view.export_bundle(scope=Scope(repo_id="/web")))


def p_import_bundle(w: World) -> None:
    theirs = parse_bundle(w.kd.export_bundle(scope=Scope(repo_id="/api")))
    linking = replace(
        theirs,
        observations=(),
        summaries=(),
        pins=(),
        capsules=tuple(
            replace(c, id="web-c", scope=Scope(repo_id="/web")) for c in theirs.capsules
        ),
    )
    report = w.view.import_bundle(linking, dry_run=True)
    assert report.skipped == (f"capsule web-c lists unknown observation {w.obs}",)
    with pytest.raises(ConflictError):  # an id another team holds is never "existing"
        w.view.import_bundle(replace(theirs, capsules=(), summaries=(), pins=()), dry_run=True)
    _untouched(w)


PROBES: dict[str, Callable[[World], None]] = {
    name[2:]: probe for name, probe in dict(globals()).items() if name.startswith("p_")
}
NO_RULE = {"clock", "close", "batch", "tokenizer"}  # no entity, no scope: nothing to apply


def test_every_verb_is_probed() -> None:
    assert set(verbs()) == set(PROBES) | NO_RULE


@pytest.mark.parametrize("verb", sorted(PROBES))
def test_the_view_hides_another_teams_items(world: World, verb: str) -> None:
    PROBES[verb](world)
    _untouched(world)


def test_the_engine_is_what_a_server_serves_through_the_protocols(world: World) -> None:
    """The server holds ``kindling.memory``'s protocols, never the engine's classes: the
    engine is a ``ServedMemory``, its ``team`` a ``TeamDirectory``, each view a
    ``PrincipalView`` (and not itself servable)."""
    assert isinstance(world.kd, ServedMemory)
    assert isinstance(world.kd.team, TeamDirectory)
    assert isinstance(world.view, PrincipalView)
    assert not isinstance(world.view, ServedMemory)
    assert world.view.sees(world.kd.get_observation(world.own_obs))
    assert not world.view.sees(world.kd.get_observation(world.obs))


def test_the_view_is_a_memory_and_leaves_the_engine_open(world: World) -> None:
    assert isinstance(world.view, kindling.Memory)
    assert not isinstance(world.view, LocalMemory)  # no whole-store verbs
    with world.view as view:
        assert view.clock() == world.kd.clock()
        with view.batch():
            view.append_observation(kind="message", content="in a batch", scope=MINE)
    assert world.kd.get_observation(world.obs).id == world.obs  # the store is still open


# ---------------------------------------------------------------------------- one rule, one place

ENGINE = Path(kindling.__file__).parent / "engine"
TENANCY = (
    "create_token",
    "list_tokens",
    "revoke_token",
    "grant_repo",
    "token_by_hash",
    "team_repos",
    "repo_is_granted",
    "id_aliases",
    "taken_ids",
    "add_id_alias",
)


def test_no_engine_verb_takes_a_visibility_rule() -> None:
    """The rule is the view's: no public verb of ``Kindling`` takes ``visible`` (or any
    predicate), and no module of the engine or the server passes ``visible=``."""
    for name, member in inspect.getmembers(Kindling, inspect.isfunction):
        if name.startswith("_"):
            continue
        params = inspect.signature(member).parameters
        assert "visible" not in params, name
        assert not any("Visible" in str(p.annotation) for p in params.values()), name
    src = Path(kindling.__file__).parent
    passing = [
        str(p.relative_to(src))
        for p in src.rglob("*.py")
        if "visible=" in p.read_text(encoding="utf-8")
    ]
    assert passing == []


def test_tenancy_lives_in_the_team_directory(kd: Kindling) -> None:
    for name in TENANCY:
        assert not hasattr(kd, name), name
        assert callable(getattr(kd.team, name)), name
    tokens = {"create_token", "list_tokens", "revoke_token", "grant_repo"}
    assert tokens.isdisjoint(verbs())
    assert tokens.isdisjoint(dir(LocalMemory))
    record, token = kd.team.create_token(user="dan")
    assert kd.team.principal(hash_token(token)).user_id == "dan"
    assert [t.id for t in kd.team.list_tokens()] == [record.id]


def test_a_revoked_or_unknown_token_has_no_principal(kd: Kindling) -> None:
    record, token = kd.team.create_token(user="dan", team="web")
    kd.team.revoke_token(record.id)
    for digest in (hash_token(token), hash_token("kdt_nothing")):
        with pytest.raises(KindlingError, match="unknown or revoked token"):
            kd.team.principal(digest)

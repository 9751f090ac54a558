"""The parity suite, library half: every verb of ``Memory`` run on a local ``Kindling`` and on
a ``RemoteKindling`` over ``kindling serve`` (both backends), the same calls in the same order,
must answer equal JSON (ids and the server's user stamp aside, ``paritylib.normal``).

``SCRIPT`` covers every verb (``test_the_script_covers_every_verb``): a verb added to
``Memory`` without a step here fails, and so does a verb missing from either class (an
``AttributeError`` in the script). What only a database does (``REFUSED``) is not a verb of
``Memory`` but of ``LocalMemory``, which a client of a server is not; ``status`` answers both,
typed (``LocalStatus``: a database's counts, ``ServerStatus``: a server's facts).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from kindling import ChatMemoryFields, Kindling, NewObservation, Scope, connect
from kindling.client.front import RemoteKindling
from kindling.memory import LocalMemory, Memory, verbs
from kindling.model import wire
from kindling.model.bundle import parse_bundle
from kindling.store.tokens import hash_token
from tests.support.parity import T0, local_and_served, normal
from tests.support.pg import pg_schema
from tests.support.secret_corpus import planted

pytest.importorskip("uvicorn")
pytestmark = pytest.mark.contract  # both backends (conftest)

WHERE = Scope(repo_id="webapp", session_id="s1")
BIG = "log line with enough words to matter\n" * 31_000  # 1.1 MB: over the content cap
REFUSED = ("stats", "semantic_index")
TENANCY = ("create_token", "list_tokens", "revoke_token", "grant_repo")  # ``Kindling.team``


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> int:
        return self.now


def json_of(value: Any) -> Any:
    """A verb's answer as JSON data."""
    if value is None or isinstance(value, str | int | float | bool | dict):
        return value
    if isinstance(value, list | tuple):
        return [json_of(v) for v in value]
    to_dict = getattr(value, "to_dict", None)
    if to_dict is not None:
        return to_dict()
    type_name = type(value).__name__
    if type_name == "ChatMemory":
        return wire.memory_to_dict(value)
    if type_name == "ChatMemoryMatch":
        return wire.match_to_dict(value)
    raise TypeError(f"no JSON for {type_name}")


def script(m: Memory, at: Callable[[int], None]) -> dict[str, list[Any]]:
    """Every verb, in an order that builds on the last; the answers as JSON, by verb."""
    out: dict[str, list[Any]] = {}

    def note(verb: str, value: Any) -> Any:
        out.setdefault(verb, []).append(json_of(value))
        return value

    at(1)
    note("clock", m.clock())
    cap = note("open_capsule", m.open_capsule(intent="fix the zebra login", scope=WHERE))
    at(2)
    obs = note(
        "append_observation",
        m.append_observation(
            kind="error",
            content=f"login fails: KeyError 'user_id' {planted('github_ghp')}",
            scope=WHERE,
            provenance={"cmd": "pytest -k login"},
        ),
    )
    at(3)
    many = note(
        "append_many",
        m.append_many(
            [
                NewObservation("command", "pytest -k login passes", WHERE, ts=T0 + 3_000),
                NewObservation("message", BIG, WHERE, ts=T0 + 3_001),  # ties would go by id
            ]
        ),
    )
    at(4)
    with m.batch():
        note("batch", m.append_observation(kind="message", content="in a batch", scope=WHERE))
    at(5)
    note("add_summary", m.add_summary(cap.id, content="a guard fixed it", evidence_refs=[obs.id]))
    at(6)
    closed = note(
        "close_capsule", m.close_capsule(cap.id, summary="login fixed", evidence_refs=[obs.id])
    )
    at(7)
    pin = note("pin", m.pin("observation", obs.id, reason="the symptom", ttl_ms=3_600_000))
    note("get_observation", m.get_observation(obs.id))
    note("get_capsule", m.get_capsule(cap.id))
    note("get_summary", m.get_summary(closed.summary_id))
    note("get_pin", m.get_pin(pin.id))
    note("get", m.get(closed.summary_id, "summary"))
    for entity_id in (obs.id, cap.id, closed.summary_id, pin.id):
        note("describe", m.describe(entity_id))
    note("list_observations", m.list_observations(scope=WHERE, limit=10))
    note("list_observations", m.list_observations(capsule_id=cap.id, kind="error"))
    note("list_repos", m.list_repos())
    note("list_capsules", m.list_capsules(status="closed", scope=Scope(repo_id="webapp")))
    note("list_summaries", m.list_summaries(scope=Scope(repo_id="webapp")))
    note("list_pins", m.list_pins(scope=Scope(repo_id="webapp"), active_at=T0 + 8_000))
    note("timeline", m.timeline(many[0].id, before=2, after=1))
    note("get_items", m.get_items([obs.id, cap.id, "no-such-id"], token_budget=30))
    for query in ("login KeyError", "zebra", ""):
        note("retrieve", m.retrieve(query, scope=Scope(repo_id="webapp"), now=T0 + 9_000))
    note("tokenizer", m.tokenizer.count("how many tokens is this"))
    at(10)
    fields = ChatMemoryFields(topic="Auth", decisions=("Use JWT",), topic_id="auth")
    note("add_memory", m.add_memory("/ws", "we use JWT for sessions", fields))
    at(11)
    note("add_memory", m.add_memory("/ws", "we use opaque tokens now", fields))
    note("search_memories", m.search_memories("/ws", "JWT tokens"))
    bundle = note("export_bundle", m.export_bundle(scope=Scope(repo_id="webapp"), exported_at=T0))
    note("import_bundle", m.import_bundle(parse_bundle(bundle), dry_run=True))
    note("forget", m.forget(obs.id, dry_run=True))
    note("forget_matching", m.forget_matching("pytest -k", dry_run=True))
    note("forget", m.forget(many[0].id))
    note("finish_forget", m.finish_forget(wait_ms=0))
    m.unpin(pin.id)
    note("unpin", None)
    note("list_pins", m.list_pins())
    note("status", sorted(m.status().to_json()))
    m.close()
    out["close"] = [None]
    return out


def test_what_only_a_database_does_is_not_a_verb_of_memory() -> None:
    """The verbs remote mode could only refuse are ``LocalMemory``'s: a local engine has them,
    a client of a server is a ``Memory`` without them (an adapter checks the type and
    refuses in one line, ``cli.state.State.open_database``)."""
    assert not set(REFUSED) & set(verbs())
    assert set(REFUSED) <= set(dir(LocalMemory))
    assert not set(TENANCY) & set(dir(LocalMemory))  # the team directory's (``Kindling.team``)
    remote = connect("http://127.0.0.1:9", token="t")
    assert isinstance(remote, Memory)
    assert not isinstance(remote, LocalMemory)
    assert not [v for v in REFUSED if hasattr(remote, v)]
    with connect(":memory:") as local:
        assert isinstance(local, LocalMemory)


def test_the_script_covers_every_verb() -> None:
    source = inspect.getsource(script)
    missing = [v for v in verbs() if f'"{v}"' not in source]
    assert missing == []


def test_every_verb_gives_equal_json_locally_and_through_a_server(
    store_url: str, tmp_path: Path
) -> None:
    with local_and_served(store_url, tmp_path) as pair:
        clock = Clock()
        local = connect(pair.local_url)  # the one way in, for a file, PostgreSQL and a server
        local.clock = clock
        remote = connect(pair.url, token=pair.token, now=T0)
        assert isinstance(local, Memory)
        assert isinstance(remote, Memory)
        assert isinstance(remote, RemoteKindling)  # its clock is ``now``

        def local_at(step: int) -> None:
            clock.now = T0 + step * 1000

        def remote_at(step: int) -> None:
            remote.now = T0 + step * 1000

        here, there = script(local, local_at), script(remote, remote_at)
    assert set(here) == set(verbs()) == set(there)
    for verb in verbs():
        if verb == "status":
            assert here[verb] != there[verb]
            assert "server" in there[verb][0]
            assert "sizeBytes" in here[verb][0]
        else:
            assert normal(here[verb]) == normal(there[verb]), verb


def test_the_big_log_is_cut_the_same_way_and_context_only_hits_say_so(
    store_url: str, tmp_path: Path
) -> None:
    """Two bugs of e518108: a 1.1 MB observation failed remotely (the body cap was below the
    content cap), and a remote search said ``contextOnly: false`` for every hit."""
    with local_and_served(store_url, tmp_path) as pair:
        remote = connect(pair.url, token=pair.token, now=T0)
        with connect(pair.local_url, now=T0) as local:
            for m in (local, remote):
                m.open_capsule(intent="the zebra migration", scope=WHERE)
                big = m.append_observation(kind="message", content=BIG, scope=WHERE)
                assert big.content.startswith("log line")
                assert len(big.content) < len(BIG)
                assert big.provenance["contentTruncatedFromBytes"] == len(BIG.encode())
            hits = [m.retrieve("zebra", scope=Scope(repo_id="webapp")) for m in (local, remote)]
    for found in hits:
        assert [c.explanation.context_only for c in found.candidates] == [True]
    assert normal(hits[0].to_dict()) == normal(hits[1].to_dict())


def test_deleting_a_verb_fails_the_suite(
    store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the static check (``_IS_MEMORY`` in ``client.front``) also catches: a verb gone
    from ``RemoteKindling`` fails the script."""
    monkeypatch.delattr(RemoteKindling, "finish_forget")
    remote = RemoteKindling("http://127.0.0.1:9", "t", now=T0)
    with pytest.raises(AttributeError, match="finish_forget"):
        remote.finish_forget()


def test_a_principals_view_gives_the_json_its_server_gives(store_url: str, tmp_path: Path) -> None:
    """The view the server answers through (``Kindling.view_for``, the object the team page
    can hold) is itself a ``Memory``: run as alice's personal token on a third database, every
    verb answers what ``kindling serve`` answers her, and ``status`` has the server's shape."""
    with local_and_served(store_url, tmp_path) as pair, ExitStack() as stack:
        if store_url.startswith("postgresql://"):
            view_db = stack.enter_context(pg_schema())
        else:
            view_db = str(tmp_path / "view.db")
        clock = Clock()
        kd = stack.enter_context(Kindling.open(view_db, clock=clock))
        _, token = kd.team.create_token(user="alice")
        view = kd.view_for(kd.team.principal(hash_token(token)))
        remote = connect(pair.url, token=pair.token, now=T0)
        assert isinstance(remote, RemoteKindling)

        def view_at(step: int) -> None:
            clock.now = T0 + step * 1000

        def remote_at(step: int) -> None:
            remote.now = T0 + step * 1000

        here, there = script(view, view_at), script(remote, remote_at)
    assert isinstance(view, Memory)
    assert not isinstance(view, LocalMemory)  # whole-store verbs are the store owner's
    for verb in verbs():
        assert normal(here[verb]) == normal(there[verb]), verb

"""The parity suite, library half: every verb of ``Memory`` run on a local ``Kindling`` and on
a ``RemoteKindling`` over ``kindling serve`` (both backends), the same calls in the same order,
must answer equal JSON (ids and the server's user stamp aside, ``paritylib.normal``).

``SCRIPT`` covers every verb (``test_the_script_covers_every_verb``): a verb added to
``Memory`` without a step here fails, and so does a verb missing from either class (an
``AttributeError`` in the script). The verbs remote mode refuses (``REFUSED``) answer locally
and raise one-line ``KindlingError``s remotely; ``status`` answers both, in two documented
shapes (a database's counts, a server's facts).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kindling import ChatMemoryFields, Kindling, KindlingError, NewObservation, Scope
from kindling.client.front import RemoteKindling
from kindling.memory import Memory, verbs
from kindling.model import wire
from kindling.model.bundle import parse_bundle
from tests.support.parity import T0, local_and_served, normal
from tests.support.secret_corpus import planted

pytest.importorskip("uvicorn")
pytestmark = pytest.mark.contract  # both backends (conftest)

WHERE = Scope(repo_id="webapp", session_id="s1")
BIG = "log line with enough words to matter\n" * 31_000  # 1.1 MB: over the content cap
REFUSED = ("stats", "create_token", "list_tokens", "revoke_token", "grant_repo", "semantic_index")


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
    note("status", sorted(m.status()))
    for verb in REFUSED:
        call = getattr(m, verb)
        try:
            answer = call() if verb in ("stats", "list_tokens") else _refused_args(m, verb)
        except KindlingError as exc:
            answer = {"refused": exc.code, "lines": exc.message.count("\n") + 1}
        note(verb, answer)
    m.close()
    out["close"] = [None]
    return out


def _refused_args(m: Memory, verb: str) -> Any:
    if verb == "create_token":
        record, _token = m.create_token(user="bob")
        return {"user": record.user_id}
    if verb == "revoke_token":
        return m.revoke_token(m.list_tokens()[0].id)
    if verb == "semantic_index":  # locally: no model installed here, so a SemanticError
        return m.semantic_index(limit=0)
    return m.grant_repo(team="web", repo="webapp")


def test_the_script_covers_every_verb() -> None:
    source = inspect.getsource(script)
    missing = [v for v in verbs() if f'"{v}"' not in source and v not in REFUSED]
    assert missing == []


def test_every_verb_gives_equal_json_locally_and_through_a_server(
    store_url: str, tmp_path: Path
) -> None:
    with local_and_served(store_url, tmp_path) as pair:
        clock = Clock()
        local = Kindling.open(pair.local_url, clock=clock)
        remote = RemoteKindling(pair.url, pair.token, now=T0)

        def local_at(step: int) -> None:
            clock.now = T0 + step * 1000

        def remote_at(step: int) -> None:
            remote.now = T0 + step * 1000

        here, there = script(local, local_at), script(remote, remote_at)
    assert set(here) == set(verbs()) == set(there)
    for verb in verbs():
        if verb in REFUSED:
            assert there[verb] == [{"refused": "remote_mode", "lines": 1}], verb
            assert "'remote_mode'" not in str(here[verb]), verb  # locally: an answer (or its own)
        elif verb == "status":
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
        remote = RemoteKindling(pair.url, pair.token, now=T0)
        with Kindling.open(pair.local_url, clock=lambda: T0) as local:
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

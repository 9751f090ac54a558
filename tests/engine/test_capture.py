"""Capture verbs: what they store, and the bad input they refuse (with nothing written)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from kindling import (
    ConflictError,
    InvalidInputError,
    Kindling,
    KindlingError,
    NotFoundError,
    SchemaError,
    Scope,
)
from kindling.model.sanitize import MAX_CONTENT_BYTES
from tests.conftest import FakeClock
from tests.support.pg import table_counts

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

S = Scope(session_id="s1", repo_id="/repo")


def _rows(url: str) -> tuple[int, ...]:
    return table_counts(url)


def test_observation_roundtrip(kd: Kindling, clock: FakeClock) -> None:
    obs = kd.append_observation(
        kind="command", content="$ pytest -q", scope=S, provenance={"exitCode": 1}
    )
    assert obs.ts == clock.now
    assert kd.get_observation(obs.id) == obs
    zero = kd.append_observation(kind="message", content="epoch", ts=0, id="obs-zero")
    assert kd.get_observation("obs-zero").ts == 0
    assert zero.id == "obs-zero"


def test_observation_joins_open_session_capsule(kd: Kindling) -> None:
    cap = kd.open_capsule(intent="fix login", scope=S)
    obs = kd.append_observation(kind="error", content="500 on /login", scope=S)
    inherited = kd.append_observation(kind="message", content="hi", capsule_id=cap.id)
    assert inherited.scope == S
    assert kd.get_capsule(cap.id).observation_ids == (obs.id, inherited.id)
    assert kd.list_observations(capsule_id=cap.id)[0].id == obs.id


def test_capsule_lifecycle_and_summary_upsert(kd: Kindling, clock: FakeClock) -> None:
    cap = kd.open_capsule(intent="fix login", scope=S)
    obs = kd.append_observation(kind="error", content="boom", scope=S)
    first = kd.add_summary(cap.id, content="first", confidence=0.4, evidence_refs=[obs.id])
    second = kd.add_summary(cap.id, content="second", confidence=0.8)
    assert second.id == first.id  # one summary per capsule
    assert kd.get_summary(first.id).content == "second"
    clock.advance(1000)
    closed = kd.close_capsule(cap.id, summary="done", confidence=0.9, evidence_refs=[obs.id])
    assert closed.status == "closed"
    assert closed.closed_at == clock.now
    assert kd.get_summary(first.id).evidence_refs == (obs.id,)
    with pytest.raises(ConflictError, match="already closed"):
        kd.close_capsule(cap.id)
    with pytest.raises(ConflictError, match="closed"):
        kd.append_observation(kind="message", content="late", capsule_id=cap.id)
    # a closed session frees the session for a new capsule
    assert kd.open_capsule(intent="again", scope=S).status == "open"


def test_second_open_session_capsule_is_a_conflict(kd: Kindling, store_url: str) -> None:
    kd.open_capsule(intent="one", scope=S)
    before = _rows(store_url)
    with pytest.raises(ConflictError, match="already has open capsule"):
        kd.open_capsule(intent="two", scope=S)
    assert _rows(store_url) == before


def test_pins(kd: Kindling, clock: FakeClock) -> None:
    obs = kd.append_observation(kind="message", content="decision", scope=S)
    pin = kd.pin("observation", obs.id, reason="matters", ttl_ms=60_000)
    assert pin.expires_at == clock.now + 60_000
    assert pin.scope == S
    assert kd.list_pins(scope=S) == [pin]
    assert kd.list_pins(active_at=clock.now + 60_000) == []
    kd.unpin(pin.id)
    with pytest.raises(NotFoundError):
        kd.unpin(pin.id)


def test_forget_redacts_everywhere(kd: Kindling) -> None:
    obs = kd.append_observation(kind="command", content="export TOKEN=zebracorn42", scope=S)
    assert kd.forget(obs.id).observations == (obs.id,)
    forgotten = kd.get_observation(obs.id)
    assert forgotten.redacted
    assert forgotten.content == "[redacted]"
    assert kd.retrieve("zebracorn42").candidates == ()
    assert kd.forget(obs.id).complete  # idempotent


BAD_APPENDS: list[tuple[dict[str, Any], type[KindlingError]]] = [
    ({"kind": "shell"}, InvalidInputError),
    ({"content": "   "}, InvalidInputError),
    ({"content": 42}, InvalidInputError),
    ({"ts": -1}, InvalidInputError),
    ({"ts": 1.5}, InvalidInputError),
    ({"ts": True}, InvalidInputError),
    ({"provenance": ["not", "an", "object"]}, InvalidInputError),
    ({"provenance": {"x": float("nan")}}, InvalidInputError),
    ({"provenance": {"x": object()}}, InvalidInputError),
    ({"capsule_id": "nope"}, NotFoundError),
    ({"id": ""}, InvalidInputError),
    ({"scope": Scope}, InvalidInputError),
]


@pytest.mark.parametrize(("change", "error"), BAD_APPENDS)
def test_bad_appends_write_nothing(
    kd: Kindling, store_url: str, change: dict[str, Any], error: type[KindlingError]
) -> None:
    args: dict[str, Any] = {"kind": "message", "content": "ok", "scope": S} | change
    before = _rows(store_url)
    with pytest.raises(error) as info:
        kd.append_observation(**args)
    assert info.value.code
    assert info.value.message
    assert _rows(store_url) == before


def test_deeply_nested_provenance_is_refused(kd: Kindling) -> None:
    nested: dict[str, Any] = {}
    cur = nested
    for _ in range(100_000):
        cur["a"] = {}
        cur = cur["a"]
    with pytest.raises(InvalidInputError, match="provenance"):
        kd.append_observation(kind="message", content="x", provenance=nested)


def test_duplicate_id_is_a_conflict(kd: Kindling) -> None:
    kd.append_observation(kind="message", content="x", id="same")
    with pytest.raises(ConflictError):
        kd.append_observation(kind="message", content="y", id="same")
    assert kd.get_observation("same").content == "x"


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda kd: kd.open_capsule(intent="x", type="job"), InvalidInputError),
        (lambda kd: kd.open_capsule(intent=""), InvalidInputError),
        (lambda kd: kd.add_summary("nope", content="x"), NotFoundError),
        (lambda kd: kd.close_capsule("nope"), NotFoundError),
        (lambda kd: kd.pin("observation", "nope"), NotFoundError),
        (lambda kd: kd.pin("capsule", "x"), InvalidInputError),
        (lambda kd: kd.forget("nope"), NotFoundError),
        (lambda kd: kd.get_summary("nope"), NotFoundError),
        (lambda kd: kd.retrieve("x", max_candidates=0), InvalidInputError),
        (lambda kd: kd.retrieve("x", token_budget=-1), InvalidInputError),
        (lambda kd: kd.retrieve("x", now=-5), InvalidInputError),
        (lambda kd: kd.retrieve(b"bytes"), InvalidInputError),
        (lambda kd: kd.list_observations(kind="nope"), InvalidInputError),
        (lambda kd: kd.list_capsules(status="maybe"), InvalidInputError),
        (lambda kd: Scope(repo_id=""), InvalidInputError),
        (lambda kd: Scope(repo_id=3), InvalidInputError),  # type: ignore[arg-type]
        (lambda kd: Scope.from_dict({"repo": "/x"}), InvalidInputError),
    ],
)
def test_bad_calls_raise_typed_errors(kd: Kindling, call: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        call(kd)


def test_bad_summary_values_write_nothing(kd: Kindling, store_url: str) -> None:
    cap = kd.open_capsule(intent="x", scope=S)
    before = _rows(store_url)
    for confidence in (-0.1, 1.5, float("nan")):
        with pytest.raises(InvalidInputError):
            kd.add_summary(cap.id, content="s", confidence=confidence)
    with pytest.raises(NotFoundError):
        kd.add_summary(cap.id, content="s", evidence_refs=["ghost"])
    with pytest.raises(NotFoundError):
        kd.close_capsule(cap.id, summary="s", evidence_refs=["ghost"])
    assert _rows(store_url) == before
    assert kd.get_capsule(cap.id).status == "open"


def test_evidence_refs_name_every_unknown_id_and_accept_known_ones(kd: Kindling) -> None:
    cap = kd.open_capsule(intent="x", scope=S)
    a = kd.append_observation(kind="message", content="a", scope=S)
    b = kd.append_observation(kind="message", content="b", scope=S)
    with pytest.raises(NotFoundError, match="ghost-1, ghost-2"):
        kd.add_summary(cap.id, content="s", evidence_refs=[a.id, "ghost-2", "ghost-1"])
    assert kd.store.observation_ids([b.id, "ghost", a.id, b.id]) == {a.id, b.id}
    assert kd.store.observation_ids([]) == set()
    summary = kd.add_summary(cap.id, content="s", evidence_refs=[b.id, a.id, b.id])
    assert summary.evidence_refs == (b.id, a.id)
    with pytest.raises(NotFoundError, match="no capsule with id 'nope'"):
        kd.add_summary("nope", content="s")
    with pytest.raises(NotFoundError, match="no capsule with id 'nope'"):
        kd.close_capsule("nope")


def test_pin_ttl_and_expiry_conflict(kd: Kindling) -> None:
    obs = kd.append_observation(kind="message", content="x")
    with pytest.raises(InvalidInputError):
        kd.pin("observation", obs.id, ttl_ms=10, expires_at=10)
    with pytest.raises(InvalidInputError):
        kd.pin("observation", obs.id, ttl_ms=0)


def test_hostile_content_is_stored_safely(kd: Kindling) -> None:
    obs = kd.append_observation(kind="message", content="nul\x00here \ud800 lone surrogate")
    assert "\x00" not in obs.content
    assert "\ufffd" in obs.content
    assert kd.get_observation(obs.id).content == obs.content
    sql = kd.append_observation(
        kind="message", content="x", scope=Scope(repo_id="'); DROP TABLE observations; --")
    )
    assert kd.list_observations(scope=sql.scope) == [sql]


def test_huge_content_keeps_head_and_tail(kd: Kindling) -> None:
    content = "HEAD " + "x" * (2 * MAX_CONTENT_BYTES) + " TAIL"
    obs = kd.append_observation(kind="command", content=content)
    assert len(obs.content.encode()) <= MAX_CONTENT_BYTES
    assert obs.content.startswith("HEAD ")
    assert obs.content.endswith(" TAIL")
    assert "bytes elided" in obs.content
    assert obs.provenance["contentTruncatedFromBytes"] == len(content)


def test_batch_is_all_or_nothing(kd: Kindling, store_url: str) -> None:
    before = _rows(store_url)

    def two_appends() -> None:
        with kd.batch():
            kd.append_observation(kind="message", content="one")
            kd.append_observation(kind="message", content="")

    with pytest.raises(InvalidInputError):
        two_appends()
    assert _rows(store_url) == before
    with kd.batch():
        for i in range(10):
            kd.append_observation(kind="message", content=f"n{i}")
    assert _rows(store_url)[0] == before[0] + 10


def test_newer_schema_is_refused(db_path: Path) -> None:
    Kindling.open(db_path).close()
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA user_version = 999")
    with pytest.raises(SchemaError, match="newer"):
        Kindling.open(db_path)


def test_not_a_database_is_a_store_error(tmp_path: Path) -> None:
    bogus = tmp_path / "notes.txt"
    bogus.write_text("this is not sqlite " * 100)
    with pytest.raises(KindlingError, match="not a usable SQLite database"):
        Kindling.open(bogus)
    assert bogus.read_text().startswith("this is not sqlite")

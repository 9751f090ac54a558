"""Hostile input: any query, any text, any provenance, scopes with SQL in them.

The contract: a clear ``KindlingError`` or correct handling; never another exception, never a
partial write. Hypothesis generates over a thousand queries; SQLite itself is the oracle for the
FTS query builder (no generated MATCH expression may make it raise).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kindling import InvalidInputError, Kindling, KindlingError, Scope, StoreError
from kindling.model.sanitize import MAX_CONTENT_BYTES, clean_text
from kindling.store.fts import build_query
from tests.support.pg import table_counts

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

# The autouse fixture only points HOME at a temp dir; sharing it between examples is safe.
SETTINGS = settings(
    deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)

SYNTAX = [
    '"', '""', "(", ")", "*", "^", ":", "-", "+", "{", "}", "[", "]", "'", ";", ",", ".",
    "AND", "OR", "NOT", "NEAR", "NEAR(", "and", "or", "not", "\x00", "\ud800", "\udfff",
    "\\", "%", "_", "--", "/*", "*/", "col:", "content:", "rowid", "MATCH", "é", "ß", "日本",
    "😀", "\u200b", "\ufeff", "x*", "*x", "a-b", "C++", "src/a.ts", "user:name",
]  # fmt: skip
ANY_CHAR = st.characters(exclude_categories=())  # surrogates and controls included
HOSTILE_TEXT = st.one_of(
    st.text(ANY_CHAR, max_size=60),
    st.lists(st.sampled_from(SYNTAX) | st.text(ANY_CHAR, max_size=6), max_size=12).map(" ".join),
    st.lists(st.sampled_from(SYNTAX) | st.text("abcAB", max_size=4), max_size=12).map("".join),
)


@pytest.fixture(scope="module")
def fts() -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(content, tokenize='porter unicode61')")
    conn.executemany(
        "INSERT INTO t(content) VALUES (?)",
        [("jwt.verify is not a function",), ("npm ERR! multi-agent C++ src/a.ts",)],
    )
    yield conn
    conn.close()


@settings(SETTINGS, max_examples=800)
@given(query=HOSTILE_TEXT)
def test_build_query_never_makes_sqlite_raise(fts: sqlite3.Connection, query: str) -> None:
    plan = build_query(query)
    if plan.match is None:
        assert plan.mode == "recency"
        return
    fts.execute(
        "SELECT rowid, bm25(t), highlight(t, 0, '[', ']') FROM t WHERE t MATCH ?", (plan.match,)
    ).fetchall()


@pytest.fixture(scope="module")
def store() -> Iterator[Kindling]:
    with Kindling.open(":memory:") as kd:
        capsule = kd.open_capsule(intent="fix the login bug", scope=Scope(repo_id="/repo"))
        for text in ["jwt.verify is not a function", "npm ERR! multi-agent", 'say "hi" (now)']:
            obs = kd.append_observation(kind="error", content=text, capsule_id=capsule.id)
        kd.close_capsule(capsule.id, summary="login fixed by importing jwt", evidence_refs=[obs.id])
        kd.pin("observation", obs.id, reason="keep")
        yield kd


@settings(SETTINGS, max_examples=400)
@given(query=HOSTILE_TEXT)
def test_retrieve_never_raises_on_any_query(store: Kindling, query: str) -> None:
    result = store.retrieve(query, token_budget=500)
    assert len(result.candidates) <= 50


@settings(SETTINGS, max_examples=200)
@given(value=HOSTILE_TEXT)
def test_hostile_scope_values_filter_or_fail_clearly(store: Kindling, value: str) -> None:
    try:
        result = store.retrieve(
            "jwt",
            scope={"repoId": value, "sessionId": value},  # type: ignore[arg-type]  # wire-shaped
        )
    except InvalidInputError:
        return
    assert result.candidates == ()  # no stored row has that scope


@settings(SETTINGS, max_examples=300)
@given(content=st.text(ANY_CHAR, max_size=200))
def test_any_content_is_stored_clean_or_refused(store: Kindling, content: str) -> None:
    try:
        obs = store.append_observation(
            kind="message",
            content=content,
            scope={"agentId": "h"},  # type: ignore[arg-type]  # wire-shaped: taken too
        )
    except InvalidInputError:
        assert not clean_text(content).strip()
        return
    stored = store.get_observation(obs.id).content
    assert stored == clean_text(content)
    stored.encode("utf-8")  # valid text, no lone surrogate
    assert "\x00" not in stored


JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(ANY_CHAR, max_size=10)
    | st.binary(max_size=4)
    | st.sets(st.integers(), max_size=2),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(ANY_CHAR, max_size=5) | st.integers(), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(SETTINGS, max_examples=200)
@given(provenance=st.dictionaries(st.text(ANY_CHAR, max_size=5), JSONISH, max_size=4) | JSONISH)
def test_any_provenance_is_stored_as_json_or_refused(store: Kindling, provenance: Any) -> None:
    before = store.stats().observations_by_kind.get("tool_call", 0)
    try:
        obs = store.append_observation(kind="tool_call", content="x", provenance=provenance)
    except InvalidInputError:
        assert store.stats().observations_by_kind.get("tool_call", 0) == before
        return
    stored = store.get_observation(obs.id).provenance
    assert isinstance(stored, dict)
    json.dumps(stored, allow_nan=False).encode("utf-8")


def test_deeply_nested_provenance_is_a_clear_error(kd: Kindling) -> None:
    deep: dict[str, Any] = {}
    node = deep
    for _ in range(100_000):
        node["a"] = {}
        node = node["a"]
    with pytest.raises(InvalidInputError, match="provenance"):
        kd.append_observation(kind="command", content="x", provenance=deep)
    assert kd.stats().observations_by_kind == {}


def test_sql_in_scope_values_is_just_text(kd: Kindling) -> None:
    evil = Scope(repo_id="'; DROP TABLE observations; --", session_id='" OR 1=1 --')
    obs = kd.append_observation(kind="command", content="plain words", scope=evil)
    kd.append_observation(kind="command", content="plain words", scope=Scope(repo_id="/ok"))
    assert [c.entity.id for c in kd.retrieve("plain", scope=evil).candidates] == [obs.id]
    assert kd.get_observation(obs.id).scope == evil
    assert kd.stats().observations_by_kind == {"command": 2}


def test_lone_surrogate_in_scope_is_invalid_input(kd: Kindling) -> None:
    with pytest.raises(InvalidInputError, match="scope"):
        kd.append_observation(kind="command", content="x", scope=Scope(repo_id="\ud800"))
    with pytest.raises(InvalidInputError, match="scope"):
        kd.retrieve("x", scope={"repoId": "a\udfffb"})  # type: ignore[arg-type]  # wire-shaped


def test_nul_and_surrogates_in_content_are_replaced(kd: Kindling) -> None:
    obs = kd.append_observation(kind="command", content="a\x00b\ud800c\ud83d\ude00")
    assert kd.get_observation(obs.id).content == "a\ufffdb\ufffdc😀"


def test_huge_content_keeps_head_and_tail_with_a_marker(kd: Kindling) -> None:
    content = "HEAD" + "é" * (3 * MAX_CONTENT_BYTES // 2) + "TAIL"
    obs = kd.append_observation(kind="command", content=content)
    stored = kd.get_observation(obs.id)
    assert len(stored.content.encode("utf-8")) <= MAX_CONTENT_BYTES
    assert stored.content.startswith("HEAD")
    assert stored.content.endswith("TAIL")
    assert "bytes elided]" in stored.content
    assert stored.provenance["contentTruncatedFromBytes"] == len(content.encode("utf-8"))


def test_huge_summary_intent_and_reason_are_capped(kd: Kindling) -> None:
    big = "x" * (2 * MAX_CONTENT_BYTES)
    capsule = kd.open_capsule(intent=big)
    summary = kd.add_summary(capsule.id, content=big)
    pin = kd.pin("summary", summary.id, reason=big)
    for text in (kd.get_capsule(capsule.id).intent, kd.get_summary(summary.id).content):
        assert len(text.encode("utf-8")) <= MAX_CONTENT_BYTES
    assert len((kd.get_pin(pin.id).reason or "").encode("utf-8")) <= MAX_CONTENT_BYTES


def _counts(url: str) -> tuple[Any, ...]:
    return table_counts(url)


def test_failed_writes_leave_nothing_behind(kd: Kindling, store_url: str) -> None:
    capsule = kd.open_capsule(intent="work")
    obs = kd.append_observation(kind="command", content="one", capsule_id=capsule.id)
    before = _counts(store_url)
    cid = capsule.id
    failures: list[Callable[[], object]] = [
        lambda: kd.append_observation(kind="command", content="d", id=obs.id, capsule_id=cid),
        lambda: kd.append_observation(kind="command", content="x", capsule_id="no-such-capsule"),
        lambda: kd.append_observation(kind="command", content="x", provenance={"a": "b" * 70_000}),
        lambda: kd.close_capsule(capsule.id, summary="done", evidence_refs=["missing-id"]),
        lambda: kd.pin("observation", "missing-id"),
        lambda: kd.open_capsule(intent="   "),
    ]  # fmt: skip
    for fail in failures:
        with pytest.raises(KindlingError):
            fail()
        assert _counts(store_url) == before
    assert kd.get_capsule(capsule.id).status == "open"


def test_unusable_database_paths_are_clear_errors(tmp_path: Path) -> None:
    text_file = tmp_path / "notes.db"
    text_file.write_text("not a database, just some text that is long enough to look like one")
    (tmp_path / "folder.db").mkdir()
    bad = [text_file, tmp_path / "folder.db", tmp_path / "nul\x00.db", text_file / "sub.db"]
    for path in bad:
        with pytest.raises(StoreError):
            Kindling.open(path)
    assert text_file.read_text().startswith("not a database")  # left as it was

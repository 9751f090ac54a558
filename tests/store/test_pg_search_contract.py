"""Store-level search contract, on both backends: context fields (session neighbour, capsule
intent) with ``context_only``, identifier parts, forgetting re-indexes the neighbour, stable
order, scope isolation, and a PostgreSQL tsquery that no user text can break."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kindling import Kindling, Scope
from kindling.store.fts import build_query
from kindling.store.postgres.tsquery import tsquery_text
from tests.support.pg import pg_schema

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

S = Scope(session_id="s1", repo_id="/r")


def _search(kd: Kindling, query: str, scope: Scope = S) -> list[tuple[str, bool]]:
    found = kd.store.search_observations(
        build_query(query), scope, exclude_ids=(), include_redacted=False, limit=50
    )
    return [(m.observation.content, m.context_only) for m in found]


def test_an_observation_is_found_through_its_neighbour_and_its_intent(kd: Kindling) -> None:
    kd.open_capsule(intent="upgrade the zebrafish pipeline", scope=S)
    kd.append_observation(kind="message", content="why does the quokka parser crash", scope=S)
    kd.append_observation(kind="command", content="pytest tests/test_parse.py", scope=S)
    assert _search(kd, "quokka") == [
        ("why does the quokka parser crash", False),
        ("pytest tests/test_parse.py", True),
    ]
    assert sorted(_search(kd, "zebrafish")) == [
        ("pytest tests/test_parse.py", True),
        ("why does the quokka parser crash", True),
    ]


def test_own_text_outranks_context(kd: Kindling) -> None:
    kd.append_observation(kind="message", content="lemur", scope=S)
    kd.append_observation(kind="message", content="something else", scope=S)
    kd.append_observation(kind="message", content="lemur again", scope=S)
    found = _search(kd, "lemur")
    assert sorted(found[:2]) == [("lemur", False), ("lemur again", False)]
    assert found[2:] == [("something else", True)]


def test_identifier_parts_match_their_words(kd: Kindling) -> None:
    kd.append_observation(kind="error", content="validateToken failed", scope=S)
    assert _search(kd, "validate token") == [("validateToken failed", False)]


def test_forgetting_removes_the_text_from_the_neighbour_too(kd: Kindling) -> None:
    secret = kd.append_observation(kind="message", content="platypus plan", scope=S)
    kd.append_observation(kind="command", content="make deploy", scope=S)
    assert len(_search(kd, "platypus")) == 2
    kd.forget(secret.id)
    assert _search(kd, "platypus") == []


def test_results_are_ordered_and_scoped(kd: Kindling) -> None:
    for i in range(5):
        kd.append_observation(kind="message", content=f"walrus {i}", ts=1000, scope=S)
    kd.append_observation(kind="message", content="walrus elsewhere", scope=Scope(repo_id="/x"))
    found = kd.store.search_observations(
        build_query("walrus"), S, exclude_ids=(), include_redacted=False, limit=50
    )
    # best bm25 first, then newer (SQLite breaks a tie of equal times by insertion order,
    # PostgreSQL by id: the provider's own sort decides the final order either way)
    keys = [(m.bm25, -m.observation.ts) for m in found]
    assert keys == sorted(keys)
    assert len(found) == 5
    assert all(m.observation.scope == S for m in found)
    assert all(m.bm25 < 0 for m in found)
    again = kd.store.search_observations(
        build_query("walrus"), S, exclude_ids=(), include_redacted=False, limit=50
    )
    assert again == found


def test_newest_ts_is_scoped(kd: Kindling) -> None:
    kd.append_observation(kind="message", content="a", ts=5, scope=S)
    kd.append_observation(kind="message", content="b", ts=9, scope=Scope(repo_id="/other"))
    assert kd.store.newest_ts(S) == 5
    assert kd.store.newest_ts(Scope()) == 9
    assert kd.store.newest_ts(Scope(repo_id="/none")) is None


@pytest.fixture(scope="module")
def pg_conn() -> Iterator[object]:
    psycopg = pytest.importorskip("psycopg")
    with pg_schema() as url:
        from kindling.store.postgres import PostgresStore

        PostgresStore(url).close()
        with psycopg.connect(url) as conn:
            yield conn


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=80))
def test_no_query_makes_postgresql_raise(pg_conn: object, text: str) -> None:
    plan = build_query(text)
    query = tsquery_text(plan.terms, plan.phrases, plan.negated)
    if query is not None:
        pg_conn.execute("SELECT to_tsquery('kindling', %s)", (query,))  # type: ignore[attr-defined]

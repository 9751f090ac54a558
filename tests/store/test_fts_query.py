"""The query builder: any user text is a safe MATCH expression; SQLite is the oracle."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kindling.store.fts import MAX_CLAUSES, build_query, without_terms
from kindling.store.identifiers import identifier_parts

DOCS = [
    "the multi-agent planner calls validate_token in src/auth/tokens.ts",
    "C++ build failed: undefined reference to `user:name` in main.cpp",
    "TypeError: Cannot read properties of undefined (reading 'map')",
    "AuthenticationError raised when the JWT expired",
    "we decided to keep jsonwebtoken and not switch to jose",
]


@pytest.fixture(scope="module")
def fts() -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(content, tokenize='porter unicode61')")
    # Documents as the store indexes them: content, then its identifiers' split parts.
    conn.executemany(
        "INSERT INTO t(content) VALUES (?)", [(f"{d}\n{identifier_parts(d)}",) for d in DOCS]
    )
    yield conn
    conn.close()


def matches(conn: sqlite3.Connection, query: str) -> set[int]:
    plan = build_query(query)
    if plan.match is None:
        return set()
    return {r[0] - 1 for r in conn.execute("SELECT rowid FROM t WHERE t MATCH ?", (plan.match,))}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("multi-agent", {0}),
        ("validateToken", {0}),  # camelCase query finds snake_case content
        ("src/auth/tokens.ts", {0}),
        ("C++", {1}),
        ("user:name", {1}),
        # ``TypeError`` is matched by its words too: ``error`` finds ``AuthenticationError``
        ("TypeError: Cannot read properties of undefined (reading 'map')", {1, 2, 3}),
        ("authentication", {3}),  # the indexed parts of AuthenticationError
        ("what did we decide about jose?", {4}),
        ("jwt OR jose", {3, 4}),
        ("jose AND jsonwebtoken", {4}),
        ("jwt NOT expired", set()),
        ('"keep jsonwebtoken"', {4}),
        ('"jsonwebtoken keep"', set()),  # phrases keep their order
        ("valid*", {0}),
        ("kubernetes", set()),
    ],
)
def test_reads_identifiers_questions_and_syntax(
    fts: sqlite3.Connection, query: str, expected: set[int]
) -> None:
    assert matches(fts, query) == expected


def test_any_term_matches_not_all(fts: sqlite3.Connection) -> None:
    assert matches(fts, "kubernetes jose") == {4}


@pytest.mark.parametrize(
    "query", ["", "   ", "?", "***", "()", '""', "AND", "\x00", "the of and", "NOT"]
)
def test_nothing_to_search_falls_back_to_recency_or_stopwords(query: str) -> None:
    plan = build_query(query)
    assert plan.mode in {"recency", "terms"}
    if plan.mode == "recency":
        assert plan.match is None
        assert plan.clauses == 0


def test_stopwords_only_are_kept_rather_than_dropped() -> None:
    assert build_query("the of").match is not None


def test_malformed_syntax_falls_back_to_terms() -> None:
    for query in ["foo AND", "(a OR b", 'say "hi', "NOT foo", "a OR OR b"]:
        plan = build_query(query)
        assert plan.mode == "terms", query


def test_explicit_syntax_is_reported() -> None:
    assert build_query('"auth error" jwt').mode == "fts5"
    assert build_query("why does login fail").mode == "terms"


def test_clause_count_is_bounded() -> None:
    plan = build_query(" ".join(f"word{i}" for i in range(100)))
    assert plan.clauses == MAX_CLAUSES
    assert len(plan.dropped) == 100 - MAX_CLAUSES


def _runs_in_sqlite(conn: sqlite3.Connection, query: str) -> None:
    plan = build_query(query)
    if plan.match is not None:
        conn.execute("SELECT count(*) FROM t WHERE t MATCH ?", (plan.match,)).fetchone()


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=80))
def test_no_text_makes_sqlite_raise(fts: sqlite3.Connection, query: str) -> None:
    _runs_in_sqlite(fts, query)


SYNTAXY = st.lists(
    st.sampled_from(
        ['"', "(", ")", "AND", "OR", "NOT", "NEAR", "*", ":", "-", "^", "+", "auth", "jwt", " "]
    ),
    max_size=12,
).map(" ".join)


@settings(max_examples=1500, deadline=None)
@given(SYNTAXY)
def test_operator_soup_never_raises(fts: sqlite3.Connection, query: str) -> None:
    _runs_in_sqlite(fts, query)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["auth", "jwt", "jose", "token", "planner"]), st.text(max_size=20))
def test_a_matching_term_is_never_lost(fts: sqlite3.Connection, term: str, noise: str) -> None:
    """Adding noise to a query never loses a document the term alone matches (OR reading)."""
    alone = matches(fts, term)
    with_noise = matches(fts, f"{term} {noise.replace(chr(34), ' ')}")
    assert alone <= with_noise or build_query(f"{term} {noise}").mode == "fts5"


def test_no_prefix_expansion_on_plain_words() -> None:
    assert "*" not in (build_query("authentication tokens").match or "")


def test_dropping_common_terms_keeps_the_rest_and_reports_them(fts: sqlite3.Connection) -> None:
    plan = build_query("keep jsonwebtoken jwt")
    thinner = without_terms(plan, {"jwt"})
    assert thinner.terms == ("keep", "jsonwebtoken")
    assert "jwt" in thinner.dropped
    assert matches_plan(fts, thinner) == {4}
    # Never everything, never inside syntax.
    assert without_terms(plan, {"keep", "jsonwebtoken", "jwt"}) == plan
    syntax = build_query("jwt AND expired")
    assert without_terms(syntax, {"jwt"}) == syntax


def matches_plan(conn: sqlite3.Connection, plan: object) -> set[int]:
    match = getattr(plan, "match", None)
    return {r[0] - 1 for r in conn.execute("SELECT rowid FROM t WHERE t MATCH ?", (match,))}

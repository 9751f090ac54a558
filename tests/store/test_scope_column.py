"""The SQLite index's scope column holds digests only: a question runs without the text-column
filter when none of its words can be a digest (``index.scoped_match``), and that never changes
which rows match, nor their bm25; a question that could match a digest keeps the filter."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kindling import Kindling, NewObservation, Scope
from kindling.store.fts import build_query
from kindling.store.sqlite import index

REPO = Scope(repo_id="/r")
WORDS = ["cache", "token", "parse", "ks", "kr", "user", "error", "map"]


def _match(kd: Kindling, query: str, scope: Scope) -> list[tuple[str, float, bool]]:
    rows = kd.store.search_observations(
        build_query(query), scope, exclude_ids=(), include_redacted=False, limit=1000
    )
    return [(r.observation.id, round(r.bm25, 9), r.context_only) for r in rows]


def test_a_question_without_a_digest_drops_the_column_filter() -> None:
    scoped = index.scoped_match('"cache" OR "map"', REPO)
    assert scoped is not None
    assert scoped.endswith('AND ("cache" OR "map")')
    prefix = index.scoped_match('"cach"*', REPO)
    assert prefix is not None
    assert index.TEXT_COLUMNS in prefix
    token = index.scope_tokens("s1", None, None, None)
    kept = index.scoped_match(f'"{token}"', Scope())
    assert kept == f'{index.TEXT_COLUMNS} : ("{token}")'


@pytest.mark.parametrize("scoped", [True, False])
def test_a_pasted_scope_digest_finds_no_item_through_the_scope_column(scoped: bool) -> None:
    with Kindling.open(":memory:") as kd:
        one = Scope(session_id="s1", repo_id="/r")
        kd.append_observation(kind="message", content="nothing to see", scope=one)
        kd.append_observation(kind="message", content="nor here", scope=Scope(session_id="s2"))
        for token in index.scope_tokens("s1", "/r", None, None).split():
            assert _match(kd, token, one if scoped else Scope()) == []
            assert _match(kd, token.upper() + " OR nothing", Scope()) == _match(
                kd, "nothing", Scope()
            )
        assert kd.retrieve("ks*", scope=Scope()).candidates == ()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    texts=st.lists(
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join),
        min_size=1,
        max_size=12,
    ),
    query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join),
    scoped=st.booleans(),
)
def test_the_column_filter_never_changes_rows_or_bm25(
    texts: list[str], query: str, scoped: bool
) -> None:
    with Kindling.open(":memory:") as kd:
        kd.append_many(
            [
                NewObservation(
                    kind="message",
                    content=t,
                    scope=Scope(session_id=f"s{i % 3}", repo_id="/r" if i % 2 else "/q"),
                    ts=1_000 + i,
                )
                for i, t in enumerate(texts)
            ]
        )
        scope = REPO if scoped else Scope()
        without = _match(kd, query, scope)
        saved = index._MAY_MATCH_SCOPE
        index._MAY_MATCH_SCOPE = re.compile("")  # every question keeps the filter
        try:
            kept = _match(kd, query, scope)
        finally:
            index._MAY_MATCH_SCOPE = saved
        assert without == kept

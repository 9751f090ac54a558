"""Issue 23 (speed at a million rows): a path matches through its file name, and a question
with more matches than the rank window is ranked among its newest matches (SQLite)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from kindling import Kindling, NewObservation, Scope
from kindling.store.fts import build_query, term_match
from kindling.store.sqlite import search

REPO = Scope(repo_id="/r")


def test_a_path_matches_through_its_file_name() -> None:
    assert term_match("src/api/offset.rs") == '"offsetrs"'
    assert term_match("src/auth/") == '"auth"'
    # the file name as one token, and its name as a word (the identifier's parts)
    assert build_query("src/auth/tokens.ts").match == '"tokensts" OR "tokens"'


@pytest.mark.contract
def test_a_path_finds_its_file_in_any_directory_on_every_backend(kd: Kindling) -> None:
    kd.append_observation(kind="file_diff", content="edited src/auth/tokens.ts", scope=REPO)
    kd.append_observation(kind="command", content="$ cat lib/tokens.ts", scope=REPO)
    kd.append_observation(kind="command", content="$ ls src/auth", scope=REPO)
    got = kd.retrieve("src/auth/tokens.ts", scope=REPO)
    texts = [c.entity.content for c in got.candidates]
    assert texts[0] == "edited src/auth/tokens.ts"
    assert "$ cat lib/tokens.ts" in texts
    assert "$ ls src/auth" not in texts


def _store(kd: Kindling, n: int) -> None:
    # The oldest row holds the word three times: the best bm25 of all.
    rows = [NewObservation(kind="message", content="cache cache cache", scope=REPO, ts=1_000)]
    rows += [
        NewObservation(
            kind="message", content=f"cache entry {i} " + "pad " * 8, scope=REPO, ts=2_000 + i
        )
        for i in range(n - 1)
    ]
    kd.append_many(rows)


@pytest.mark.parametrize(("window", "old_best_found"), [(50, True), (5, False)])
def test_a_question_past_the_window_is_ranked_among_its_newest_matches(
    monkeypatch: pytest.MonkeyPatch, window: int, old_best_found: bool
) -> None:
    monkeypatch.setattr(search, "RANK_WINDOW", window)
    with Kindling.open(":memory:") as kd:
        _store(kd, 20)
        got = kd.retrieve("cache", scope=REPO, now=10_000, max_candidates=20)
        texts = [c.entity.content for c in got.candidates]
        assert ("cache cache cache" in texts) is old_best_found
        if not old_best_found:
            newest = {f"cache entry {i} " + "pad " * 8 for i in range(14, 19)}
            assert set(texts) == newest


def test_a_big_store_estimates_its_counts_from_its_newest_rows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Above ``COUNT_SAMPLE`` rows a word's count is its count among the newest rows, scaled;
    a word the sample misses still counts, so a phrase found only in old rows is searched as
    a phrase (not read as its words)."""
    monkeypatch.setattr(search, "COUNT_SAMPLE", 10)
    with Kindling.open(":memory:") as kd:
        rows = [NewObservation(kind="message", content="ancient words here", scope=REPO, ts=1)]
        rows += [
            NewObservation(kind="message", content=f"cache {i}", scope=REPO, ts=10 + i)
            for i in range(29)
        ]
        kd.append_many(rows)
        store = kd.store
        _, counts = store.document_counts(["cache", "ancient", "missing"], share=0.5, minimum=0)
        # "cache" is in the 10 newest of 30 rows: 10 * 30 / 10
        assert counts == {"cache": 16, "ancient": 1, "missing": 0}
        got = kd.retrieve('"ancient words"', scope=REPO)
        assert [c.entity.content for c in got.candidates] == ["ancient words here"]
        assert got.provenance.phrase_fallback == ()


def test_a_small_store_counts_exactly() -> None:
    with Kindling.open(":memory:") as kd:
        kd.append_many(
            [NewObservation(kind="message", content=f"cache {i}", scope=REPO) for i in range(30)]
        )
        _, counts = kd.store.document_counts(["cache"], share=0.5, minimum=0)
        assert counts == {"cache": 16}  # counted up to the threshold (15) + 1
        _, counts = kd.store.document_counts(["cache"], share=1.0, minimum=0)
        assert counts == {"cache": 30}


def test_a_session_scope_reads_the_session_index(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a session in the scope, no statement walks the repository's time index to find
    that session's rows (at a million rows: 20 ms against 1 for the newest time alone)."""
    with Kindling.open(":memory:") as kd:
        for session in ("s1", "s2"):
            kd.append_many(
                [
                    NewObservation(
                        kind="message",
                        content=f"cache entry {i}",
                        scope=Scope(repo_id="/r", session_id=session),
                    )
                    for i in range(5)
                ]
            )
        db = kd.store.db  # type: ignore[attr-defined]
        seen: list[tuple[str, list[Any]]] = []
        read = db.read

        def recording(sql: str, params: Sequence[Any] = ()) -> list[Any]:
            seen.append((sql, list(params)))
            return list(read(sql, params))

        monkeypatch.setattr(db, "read", recording)
        scope = Scope(repo_id="/r", session_id="s1")
        kd.retrieve("cache", scope=scope)
        kd.retrieve("", scope=scope)
        plans = [
            " ".join(str(row[-1]) for row in read(f"EXPLAIN QUERY PLAN {sql}", params))
            for sql, params in seen
            if "session_id" in sql
        ]
        assert plans
        assert not [p for p in plans if "idx_obs_repo_ts" in p or "idx_caps_repo" in p]

"""The bridge as Flowbaby's client calls it (groupzer0/flowbaby, extension/src/flowbabyClient.ts).

- v0.3.13-v0.5.13 spawn ``retrieve.py WORKSPACE QUERY MAX_RESULTS MAX_TOKENS HALF_LIFE_DAYS
  INCLUDE_SUPERSEDED SEARCH_TOP_K``: seven positional words.
- v0.5.14+ spawn ``retrieve.py --json '{...}'`` with ``workspace_path``, ``query``,
  ``max_results``, ``max_tokens``, ``half_life_days``, ``include_superseded``, ``search_top_k``
  and, from its session manager, ``__user_session_id``.
- It decodes stdout chunk by chunk (so only ASCII is safe), reads a 0.0 score as a synthesized
  answer, and keeps its first result even when that one alone is over ``max_tokens``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling.bridge.ranking import MIN_SCORE
from tests.support.bridge import (
    RETRIEVE,
    ingest_ok,
    make_env,
    retrieve,
    retrieve_module,
    seed_filler,
)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    path = tmp_path / "workspace"
    path.mkdir()
    return path.resolve()


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return make_env(tmp_path / "bridge.db")


def seeded(ws: Path, env: dict[str, str], *memories: Mapping[str, object]) -> list[str]:
    seed_filler(Path(env["KINDLING_DB"]), ws)
    return [ingest_ok(ws, memory, env=env) for memory in memories]


def test_seven_positional_arguments_as_flowbaby_0_3_13_passes_them(
    ws: Path, env: dict[str, str]
) -> None:
    ids = seeded(ws, env, *({"topic": f"cache invalidation step {i}"} for i in range(5)))
    run = retrieve(str(ws), "cache invalidation", "3", "32000", "7", "false", "10", env=env)
    assert run.code == 0
    assert run.out["result_count"] == 3
    assert {r["id"] for r in run.out["results"]} <= set(ids)
    # SEARCH_TOP_K bounds the candidates ranked (the best text matches), as in Flowbaby.
    top2 = retrieve(str(ws), "cache invalidation", "3", "32000", "7", "false", "2", env=env)
    assert top2.out["total_results"] == 2
    assert retrieve_module(str(ws), "cache", "3", "32000", "7", "false", "10", env=env).code == 0


def test_the_json_request_of_flowbaby_0_5_14(ws: Path, env: dict[str, str]) -> None:
    seeded(ws, env, {"topic": "release train schedule"}, {"topic": "release notes format"})
    request = {
        "workspace_path": str(ws),
        "query": "release",
        "max_results": 3,
        "max_tokens": 32000,
        "half_life_days": 7,
        "include_superseded": False,
        "search_top_k": 10,
        "__user_session_id": "5f0c6f0e-8a1b-4f37-9a52-2c1d3e4f5a6b",
    }
    by_json = retrieve("--json", json.dumps(request), env=env)
    by_words = retrieve(str(ws), "release", "3", "32000", "7", "false", "10", env=env)
    assert by_json.code == 0
    assert by_json.out["result_count"] == 2
    assert by_json.stdout == by_words.stdout  # the same request, the same bytes
    module = retrieve_module("--json", json.dumps(request), env=env)
    assert module.stdout == by_json.stdout


def test_output_is_ascii_and_round_trips_cjk(ws: Path, env: dict[str, str]) -> None:
    topic = "缓存失效策略 キャッシュ 캐시 — naïve café ✓"
    seeded(ws, env, {"topic": topic, "decisions": ["使用 LRU"]})
    run = retrieve(str(ws), "缓存失效策略", env=env)
    assert run.stdout.isascii()
    assert "\\u7f13" in run.stdout.decode("ascii")
    [result] = run.out["results"]
    assert result["topic"] == topic
    assert result["decisions"] == ["使用 LRU"]


@pytest.mark.parametrize("query", ["-h", "--help", "--db", "--", "--json", "-5"])
def test_a_query_that_looks_like_an_option_is_text(
    ws: Path, env: dict[str, str], query: str
) -> None:
    seeded(ws, env, {"topic": f"the {query} flag of the deploy script"})
    for run in (retrieve(str(ws), query, env=env), retrieve_module(str(ws), query, env=env)):
        assert run.code == 0, run.out
        assert run.out["success"] is True  # a search, not usage text and not an error


def test_the_first_result_is_kept_even_over_the_budget(ws: Path, env: dict[str, str]) -> None:
    [big] = seeded(ws, env, {"topic": "migration " + "detail " * 400})
    run = retrieve(str(ws), "migration", "3", "100", env=env)
    [result] = run.out["results"]
    assert result["id"] == big
    assert result["tokens"] > 100


@settings(max_examples=15, deadline=None)
@given(ages=st.lists(st.integers(min_value=0, max_value=3_000), min_size=1, max_size=4))
def test_no_result_is_ever_scored_at_or_below_the_floor(ages: list[int]) -> None:
    """The bridge's own handler in this process (what ``kindling bridge ingest`` and
    ``retrieve`` run; the tests above run the real commands): the property is the scoring."""
    import io
    import tempfile
    from datetime import UTC, datetime, timedelta

    from kindling.bridge.handler import run_ingest, run_retrieve

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        workspace = root / "w"
        workspace.mkdir()
        env = make_env(root / "b.db")
        db = Path(env["KINDLING_DB"])
        now = datetime(2026, 1, 1, tzinfo=UTC)
        for days in ages:
            when = (now - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")
            memory = {"topic": "aging memory", "source_created_at": when}
            stdin = io.BytesIO(json.dumps(memory).encode("utf-8"))
            ingested = run_ingest([str(workspace)], default_db=db, stdin=stdin, env=env)
            assert ingested.exit_code == 0, ingested.body
        args = [str(workspace), "aging memory", "50", "100000", "0.5"]
        outcome = run_retrieve(args, default_db=db, env=env)
        assert outcome.exit_code == 0, outcome.body
        assert isinstance(outcome.body, dict)
        out = json.loads(json.dumps(outcome.body))
        RETRIEVE.validate(out)
        assert all(r["score"] > MIN_SCORE for r in out["results"])
        # Age alone never drops a relevant memory (issue 23): even years old at a half-life of
        # half a day, it stays, above the 0.01 floor clients drop (RECENCY_FLOOR).
        assert len(out["results"]) == len(ages)

"""The bridge through the real commands: ingest, retrieve, scoring, supersession, workspaces.

Every response is validated against docs/bridge.schema.json (see ``bridge_support``); "now" is
fixed with ``KINDLING_NOW``. Every retrieve is the real command; the memories a test only sets
up are ingested by the same handler in this process (``ingest_here``), the ingest tests use the
real command.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from kindling import Kindling
from kindling.bridge.contract import format_iso8601
from kindling.model import RELEVANCE_THRESHOLD
from tests.support.bridge import (
    DAY,
    NOW,
    ingest_here,
    ingest_ok,
    kindling,
    make_env,
    retrieve,
    retrieve_module,
    seed_filler,
)

SEED_EXAMPLE = {
    "topic": "Plan 014 – Structured Summaries",
    "context": "Implementing DataPoint-based storage for conversation summaries to enable"
    " metadata-driven ranking and compaction.",
    "decisions": [
        "Migrate summaries to DataPoints with metadata",
        "Expose structured retrieval contract via retrieve.py",
    ],
    "rationale": ["Enable recency-aware ranking and compaction in later plans"],
    "open_questions": [],
    "next_steps": ["Implement Plan 015 ranking algorithms"],
    "references": ["Plan 014 documentation"],
    "topic_id": "3e3e4f26-7c02-4b3c-8b9d-8f1f9b3e2a10",
    "plan_id": "014",
    "session_id": "f1b9b8b0-9f1a-4b8f-8c2b-1c2b3d4e5f6a",
    "status": "Active",
    "source_created_at": "2025-12-25T00:00:00Z",
}
SEED_TEXT = (
    "Summary: Plan 014 – Structured Summaries\n\n"
    "Topic: Plan 014 – Structured Summaries\n"
    "Context: Implementing DataPoint-based storage for conversation summaries to enable"
    " metadata-driven ranking and compaction.\n"
    "Decisions:\n"
    "- Migrate summaries to DataPoints with metadata\n"
    "- Expose structured retrieval contract via retrieve.py\n"
    "Rationale:\n"
    "- Enable recency-aware ranking and compaction in later plans\n"
    "Open Questions:\n"
    "- None\n"
    "Next Steps:\n"
    "- Implement Plan 015 ranking algorithms\n"
    "References:\n"
    "- Plan 014 documentation"
)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    path = tmp_path / "workspace"
    path.mkdir()
    return path


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return make_env(tmp_path / "bridge.db")


@pytest.fixture
def db(env: dict[str, str]) -> Path:
    return Path(env["KINDLING_DB"])


def test_structured_memory_round_trip(ws: Path, env: dict[str, str], db: Path) -> None:
    seed_filler(db, ws)
    memory_id = ingest_ok(ws, SEED_EXAMPLE, env=env)
    out = retrieve(str(ws), "DataPoints metadata", env=env).out
    assert out["success"] is True
    [result] = out["results"]
    assert result["id"] == memory_id
    assert result["summary_text"] == SEED_TEXT
    for key in ("topic", "topic_id", "plan_id", "session_id", "status"):
        assert result[key] == SEED_EXAMPLE[key]
    for key in ("decisions", "rationale", "open_questions", "next_steps", "references"):
        assert result[key] == SEED_EXAMPLE[key]
    assert result["source_created_at"] == "2025-12-25T00:00:00Z"
    assert result["created_at"] == result["updated_at"] == "2026-01-01T00:00:00Z"
    assert result["tokens"] == math.ceil(len(SEED_TEXT) / 4)
    assert out["total_tokens"] == result["tokens"]
    assert out["result_count"] == out["total_results"] == 1
    assert out["half_life_days"] == 7.0
    assert out["include_superseded"] is False


def test_structured_fields_are_searchable(ws: Path, env: dict[str, str], db: Path) -> None:
    seed_filler(db, ws)
    memory_id = ingest_here(
        ws, {"topic": "Auth", "next_steps": ["rotate the signing keys"]}, env=env
    )
    assert [r["id"] for r in retrieve(str(ws), "signing keys", env=env).out["results"]] == [
        memory_id
    ]
    assert retrieve(str(ws), "unrelatedword", env=env).out["results"] == []


def test_legacy_memory(ws: Path, env: dict[str, str], db: Path) -> None:
    seed_filler(db, ws)
    text = "We discussed Plan 013 truncation and decided to remove the 150-char limit."
    memory_id = ingest_ok(ws, {"text": text}, env=env)
    [result] = retrieve(str(ws), "truncation", env=env).out["results"]
    assert result["id"] == memory_id
    assert result["summary_text"] == text
    for key in ("topic", "topic_id", "plan_id", "session_id", "status", "created_at"):
        assert result[key] is None
    assert result["source_created_at"] is None
    assert result["updated_at"] is None
    assert "decisions" not in result
    assert result["recency_multiplier"] == 1.0
    assert result["status_multiplier"] == 1.0
    assert 0 < result["semantic_score"] <= 1
    assert result["score"] == result["semantic_score"]


def test_score_arithmetic(ws: Path, env: dict[str, str], db: Path) -> None:
    seed_filler(db, ws)
    ages = {"Active": 3, "DecisionRecord": 10, "Superseded": 1}
    ids = {
        status: ingest_here(
            ws,
            {
                "topic": "cache invalidation",
                "status": status,
                "source_created_at": format_iso8601(NOW - age * DAY),
            },
            env=env,
        )
        for status, age in ages.items()
    }
    ingest_here(ws, {"topic": "cache warming"}, env=env)  # age from created_at = now
    out = retrieve(str(ws), "cache invalidation", "10", "2000", "5", "true", env=env).out
    assert out["half_life_days"] == 5.0
    assert out["include_superseded"] is True
    by_id = {r["id"]: r for r in out["results"]}
    multipliers = {"Active": 1.0, "DecisionRecord": 1.1, "Superseded": 0.4}
    for status, age in ages.items():
        r = by_id[ids[status]]
        assert r["recency_multiplier"] == pytest.approx(math.exp(-math.log(2) / 5 * age), abs=1e-6)
        assert r["status_multiplier"] == multipliers[status]
        product = r["semantic_score"] * r["recency_multiplier"] * r["status_multiplier"]
        assert r["score"] == pytest.approx(product, abs=1e-6)
        assert r["score"] == r["final_score"] == r["relevance_score"]
    # "cache warming" shares only the common word: below the one "nothing relevant" cut
    assert all(r["semantic_score"] >= RELEVANCE_THRESHOLD for r in out["results"])
    assert len(out["results"]) == 3
    scores = [r["score"] for r in out["results"]]
    assert scores == sorted(scores, reverse=True)
    assert len({by_id[i]["semantic_score"] for i in ids.values()}) == 1  # same text


def test_ties_order_by_id_and_old_relevant_memories_stay_above_the_floor(
    ws: Path, env: dict[str, str], db: Path
) -> None:
    seed_filler(db, ws)
    old = {"topic": "ancient lore", "source_created_at": "2000-01-01"}  # recency would be ~0
    for status in ("Superseded", "Active", "DecisionRecord"):
        ingest_here(ws, {**old, "status": status}, env=env)
    out = retrieve(str(ws), "ancient lore", "50", "100000", "0.5", "y", env=env).out
    # Age alone never drops a relevant memory (issue 23), and a score of 0.0 would read as a
    # synthesized answer to Flowbaby: recency stops at its floor, every score stays above 0.01.
    assert out["total_results"] == 3
    assert [r["status"] for r in out["results"]] == ["DecisionRecord", "Active", "Superseded"]
    assert all(r["score"] > 0.01 and r["recency_multiplier"] == 0.11 for r in out["results"])
    out = retrieve(str(ws), "unrelated words entirely", "50", "100000", env=env).out
    assert (out["results"], out["total_results"]) == ([], 0)  # nothing relevant: nothing
    twins = [ingest_here(ws, {"topic": "twin topic", "status": "Active"}, env=env) for _ in "ab"]
    out = retrieve(str(ws), "twin topic", "50", "100000", env=env).out
    assert [r["id"] for r in out["results"]] == sorted(twins)  # equal scores: by id
    assert out["results"][0]["score"] == out["results"][1]["score"] > 0.01


def test_newest_active_supersedes_and_explicit_status_is_kept(
    ws: Path, tmp_path: Path, env: dict[str, str], db: Path
) -> None:
    seed_filler(db, ws)
    other = tmp_path / "other"
    other.mkdir()
    first = ingest_here(ws, {"topic": "release plan", "topic_id": "t1"}, env=env)
    elsewhere = ingest_here(other, {"topic": "release plan", "topic_id": "t1"}, env=env)
    later = make_env(db, NOW + DAY)
    second = ingest_here(ws, {"topic": "release plan", "topic_id": "t1"}, env=later)
    record = ingest_here(
        ws, {"topic": "release plan", "topic_id": "t1", "status": "DecisionRecord"}, env=later
    )
    kept = ingest_here(
        ws, {"topic": "release plan", "topic_id": "t2", "status": "Superseded"}, env=later
    )
    default = retrieve(str(ws), "release plan", "50", env=later).out
    assert {r["id"]: r["status"] for r in default["results"]} == {
        second: "Active",
        record: "DecisionRecord",
    }
    assert default["total_results"] == 2
    everything = retrieve(str(ws), "release plan", "50", "2000", "7", "TRUE", env=later).out
    statuses = {r["id"]: r["status"] for r in everything["results"]}
    assert statuses == {
        first: "Superseded",
        second: "Active",
        record: "DecisionRecord",
        kept: "Superseded",
    }
    first_result = next(r for r in everything["results"] if r["id"] == first)
    assert first_result["updated_at"] == "2026-01-02T00:00:00Z"
    assert first_result["created_at"] == "2026-01-01T00:00:00Z"
    assert first_result["status_multiplier"] == 0.4
    other_out = retrieve(str(other), "release plan", env=later).out
    assert [(r["id"], r["status"]) for r in other_out["results"]] == [(elsewhere, "Active")]


def test_two_workspaces_never_see_each_other(tmp_path: Path, env: dict[str, str]) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    a = ingest_here(one, {"text": "shared secret words alpha"}, env=env)
    b = ingest_here(two, {"text": "shared secret words alpha"}, env=env)
    c = ingest_here(one, {"topic": "shared secret words", "topic_id": "same"}, env=env)
    d = ingest_here(two, {"topic": "shared secret words", "topic_id": "same"}, env=env)
    for ws, mine in ((one, {a, c}), (two, {b, d})):
        out = retrieve(str(ws), "shared secret words alpha", "50", env=env).out
        assert {r["id"] for r in out["results"]} == mine
        assert out["total_results"] == 2


def test_workspace_is_its_canonical_path(tmp_path: Path, ws: Path, env: dict[str, str]) -> None:
    link = tmp_path / "link"
    link.symlink_to(ws, target_is_directory=True)
    memory_id = ingest_ok(link, {"text": "linked memory"}, env=env)
    for path, cwd in ((str(ws), None), ("workspace", tmp_path), (f"{ws}/../workspace", None)):
        out = retrieve(path, "linked", env=env, cwd=cwd).out
        assert [r["id"] for r in out["results"]] == [memory_id]


def test_defaults_and_total_results(ws: Path, env: dict[str, str], db: Path) -> None:
    seed_filler(db, ws)
    for i in range(5):
        ingest_here(ws, {"text": f"deploy note {i}"}, env=env)
    out = retrieve(str(ws), "deploy", env=env).out
    assert out["result_count"] == len(out["results"]) == 3
    assert out["total_results"] == 5
    assert out["half_life_days"] == 7.0
    assert out["include_superseded"] is False
    assert out["total_tokens"] == sum(r["tokens"] for r in out["results"])


def test_max_results_is_clamped(ws: Path, env: dict[str, str], db: Path) -> None:
    seed_filler(db, ws)
    for i in range(4):
        ingest_here(ws, {"text": f"flaky test {i}"}, env=env)
    for given, expected in {"0": 1, "-5": 1, "2": 2, "999": 4, " 3 ": 3}.items():
        out = retrieve(str(ws), "flaky", given, env=env).out
        assert out["result_count"] == expected, given
        assert out["total_results"] == 4


def test_max_results_upper_clamp_is_50(ws: Path, env: dict[str, str], db: Path) -> None:
    with Kindling.open(db) as kd:
        for i in range(55):
            kd.add_memory(str(ws.resolve()), f"migration step {i}")
    out = retrieve(str(ws), "migration", "51", "100000", env=env).out
    assert out["result_count"] == 50
    assert out["total_results"] == 55


def test_token_budget_keeps_rank_order_and_clamps(ws: Path, env: dict[str, str], db: Path) -> None:
    seed_filler(db, ws)
    ingest_here(ws, {"text": "budget " + "x" * 600}, env=env)  # 152 tokens
    ingest_here(ws, {"text": "budget small"}, env=env)  # 3 tokens
    full = retrieve(str(ws), "budget", "10", "100000", env=env).out
    order = [r["id"] for r in full["results"]]
    tokens = [r["tokens"] for r in full["results"]]
    assert sorted(tokens) == [3, 152]
    out = retrieve(str(ws), "budget", "10", "1", env=env).out  # clamped to 100 tokens
    assert out["total_results"] == 2
    # The results are the prefix of the ranking that fits in 100 tokens.
    expected: list[str] = []
    used = 0
    for memory_id, count in zip(order, tokens, strict=True):
        if used + count > 100 and expected:  # the first one is kept even when over
            break
        expected.append(memory_id)
        used += count
    assert [r["id"] for r in out["results"]] == expected
    assert out["total_tokens"] == used


def test_budget_keeps_the_first_result_and_stops_at_the_next_that_does_not_fit(
    ws: Path, env: dict[str, str], db: Path
) -> None:
    seed_filler(db, ws)
    ingest_here(ws, {"topic": "quota " + "y" * 1000}, env=env)  # fresh: ranks first
    small = ingest_here(ws, {"topic": "quota", "source_created_at": "2025-12-25"}, env=env)
    out = retrieve(str(ws), "quota", "10", "150", env=env).out
    assert out["total_results"] == 2
    # The first result alone is over the budget: it is kept (Flowbaby's bridge does the same),
    # and nothing after it.
    [first] = out["results"]
    assert first["tokens"] > 150
    assert out["total_tokens"] == first["tokens"]
    roomy = retrieve(str(ws), "quota", "10", "100000", env=env).out
    assert roomy["results"][-1]["id"] == small


def test_max_tokens_upper_clamp(ws: Path, env: dict[str, str], db: Path) -> None:
    seed_filler(db, ws)
    for _ in range(2):
        ingest_here(ws, {"text": "huge " + "z " * 150_000}, env=env)  # 75,002 tokens each
    out = retrieve(str(ws), "huge", "10", "99999999", env=env).out
    assert out["result_count"] == 1
    assert out["total_tokens"] <= 100_000


def test_half_life_is_clamped_and_echoed(ws: Path, env: dict[str, str]) -> None:
    ingest_here(ws, {"topic": "decay", "source_created_at": "2025-12-31T00:00:00Z"}, env=env)
    for given, used in {"0.1": 0.5, "-3": 0.5, "1000": 90.0, "7.5": 7.5, "30": 30.0}.items():
        out = retrieve(str(ws), "decay", "3", "2000", given, env=env).out
        assert out["half_life_days"] == used
        [result] = out["results"]
        expected = math.exp(-math.log(2) / used)  # one day old
        assert result["recency_multiplier"] == pytest.approx(expected, abs=1e-6)


def test_include_superseded_words(ws: Path, env: dict[str, str]) -> None:
    ingest_here(ws, {"topic": "old idea", "status": "Superseded"}, env=env)
    words = {"1": True, "true": True, "TRUE": True, "Yes": True, "y": True, "Y": True}
    words |= {"0": False, "false": False, "no": False, "banana": False, "": False}
    for word, flag in words.items():
        out = retrieve(str(ws), "idea", "3", "2000", "7", word, env=env).out
        assert out["include_superseded"] is flag, word
        assert out["total_results"] == (1 if flag else 0), word


def test_empty_workspace_and_missing_database(ws: Path, env: dict[str, str], db: Path) -> None:
    out = retrieve(str(ws), "anything", env=env).out
    assert out["results"] == []
    assert out["total_results"] == 0
    assert not db.exists()  # retrieve never creates a database
    ingest_here(ws.parent, {"text": "anything at all"}, env=env)
    assert retrieve(str(ws), "anything", env=env).out["total_results"] == 0


def test_query_without_words_matches_nothing(ws: Path, env: dict[str, str]) -> None:
    ingest_here(ws, {"text": "punctuation"}, env=env)
    assert retrieve(str(ws), "?!", env=env).out["results"] == []


def test_both_forms_print_identical_bytes(ws: Path, tmp_path: Path, env: dict[str, str]) -> None:
    seed_filler(Path(env["KINDLING_DB"]), ws)
    ingest_here(ws, SEED_EXAMPLE, env=env)
    ingest_here(ws, {"text": "Plan 014 legacy note on summaries"}, env=env)
    cases = [
        [str(ws), "Plan 014 summaries"],
        [str(ws), "summaries", "1", "100", "0.5", "yes"],
        [str(ws), "summaries", "abc"],
        [str(tmp_path / "missing"), "summaries"],
        [str(ws)],
        [str(ws), "q", "1", "2", "3", "4", "5"],
    ]
    for args in cases:
        cli = retrieve(*args, env=env)
        module = retrieve_module(*args, env=env)
        assert cli.stdout == module.stdout, args
        assert cli.code == module.code, args


def test_db_option_in_both_forms(ws: Path, tmp_path: Path, env: dict[str, str]) -> None:
    other_db = tmp_path / "other.db"
    run = kindling(
        "--db", str(other_db), "bridge", "ingest", str(ws), env=env, stdin=b'{"text": "elsewhere"}'
    )
    assert run.code == 0
    assert retrieve(str(ws), "elsewhere", env=env).out["total_results"] == 0
    assert retrieve("--db", str(other_db), str(ws), "elsewhere", env=env).out["total_results"] == 1
    module = retrieve_module(f"--db={other_db}", str(ws), "elsewhere", env=env)
    assert module.out["total_results"] == 1


def test_same_request_same_bytes(ws: Path, env: dict[str, str], db: Path) -> None:
    seed_filler(db, ws)
    for i in range(4):
        ingest_here(ws, {"topic": f"determinism {i}", "decisions": ["same"]}, env=env)
    first = retrieve(str(ws), "determinism", "10", env=env).stdout
    assert retrieve(str(ws), "determinism", "10", env=env).stdout == first


def test_default_token_budget_is_2000(ws: Path, env: dict[str, str], db: Path) -> None:
    seed_filler(db, ws)
    for i in range(3):
        ingest_here(ws, {"text": f"bulky {i} " + "w" * 3600}, env=env)  # 902 tokens each
    out = retrieve(str(ws), "bulky", "10", env=env).out
    assert [r["tokens"] for r in out["results"]] == [902, 902]
    assert out["total_tokens"] == 1804
    assert out["total_results"] == 3


def test_age_falls_back_to_created_at(ws: Path, tmp_path: Path, db: Path) -> None:
    seed_filler(db, ws)
    then = make_env(db, NOW - 2 * DAY)
    ingest_here(ws, {"topic": "created two days ago"}, env=then)
    [result] = retrieve(str(ws), "created", env=make_env(db, NOW)).out["results"]
    assert result["source_created_at"] is None
    assert result["created_at"] == "2025-12-30T00:00:00Z"
    assert result["recency_multiplier"] == pytest.approx(math.exp(-math.log(2) / 7 * 2), abs=1e-6)

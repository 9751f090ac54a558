"""Han, Kana, Hangul and Thai text is found by its parts (issue 23, item 4): through the
library, the CLI, MCP and the bridge, on SQLite and PostgreSQL, and in databases written
before the segments existed (the migration indexes them again)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from mcp import ClientSession
from mcp.types import CallToolResult

from kindling import Kindling, Scope
from kindling.store.identifiers import identifier_parts
from kindling.store.sqlite import index
from kindling.store.sqlite.doctor import check
from tests.conftest import FIXTURE_DB, FakeClock
from tests.mcp.test_mcp_server import run_client, structured
from tests.support.bridge import NOW, ingest_ok, make_env, retrieve, seed_filler
from tests.support.cli import run as run_in_process
from tests.support.cli import run_process

pytestmark = pytest.mark.contract  # runs on SQLite and PostgreSQL (conftest)

REPO = Scope(repo_id="/repo", session_id="s1")
JA = "東京のデータベース移行は金曜日に決定"
ZH = "数据库迁移在周五进行"
KO = "데이터베이스를 금요일에 옮겼다"
LATIN = [
    "npm test printed FAIL for src/auth/tokens.test.ts",
    "Decision: keep jsonwebtoken and use a namespace import",
    "TypeError: jwt.verify is not a function",
]
# The cases, and a letter at a run's start and at its end.
CASES = [
    ("データベース移行", JA),
    ("東京", JA),
    ("数据库迁移", ZH),
    ("데이터베이스", KO),
    ("東", JA),
    ("定", JA),
    ("行", ZH),
    ("東京のデータベース移行はいつ決定しましたか", JA),
    ("数据库迁移是什么时候进行的", ZH),
    ("데이터베이스가", KO),
]


def _seed(kd: Kindling, clock: FakeClock) -> dict[str, str]:
    ids = {}
    for text in [*LATIN, JA, ZH, KO]:
        clock.advance(1000)
        ids[text] = kd.append_observation(kind="message", content=text, scope=REPO).id
    return ids


@pytest.mark.parametrize(("query", "text"), CASES)
def test_library_finds_a_run_by_its_parts(
    kd: Kindling, clock: FakeClock, query: str, text: str
) -> None:
    ids = _seed(kd, clock)
    found = kd.retrieve(query, scope=Scope(repo_id="/repo")).candidates
    assert found, query
    assert found[0].entity.id == ids[text]
    assert found[0].explanation.relevance > 0.1  # an exact match is no floor match
    assert found[0].match_context == text


def test_runs_that_are_not_there_are_not_found(kd: Kindling, clock: FakeClock) -> None:
    _seed(kd, clock)
    for query in ["東京大阪", "迁移数据", "データ移行"]:  # letters present, not in this order
        assert kd.retrieve(query, scope=Scope(repo_id="/repo")).candidates == (), query


BAD = [
    '"東京',
    "東*",
    '"東京 データ"',
    "東 NOT 京",
    "東京 AND",
    "(東京",
    "NOT 東",
    "\u0e34",  # a lone Thai mark
    "\u3099",  # a lone combining dakuten
    "東\x00京",
    "東\ud800京",
    '"" 東',
    "東" * 3000,
    "東京 OR OR",
    "データ*",
    "e\u0301東京",
]


def test_bad_queries_never_raise(kd: Kindling, clock: FakeClock) -> None:
    _seed(kd, clock)
    for query in BAD:
        result = kd.retrieve(query, scope=Scope(repo_id="/repo"))
        assert result == kd.retrieve(query, scope=Scope(repo_id="/repo"))  # deterministic
    found = kd.retrieve("データ*", scope=Scope(repo_id="/repo")).candidates
    assert found[0].match_context == JA
    # the row after it holds it as its context (its neighbour), and says so
    assert all(c.explanation.context_only for c in found[1:])


def test_latin_search_is_unchanged(kd: Kindling, clock: FakeClock) -> None:
    ids = _seed(kd, clock)
    found = kd.retrieve("jwt.verify function", scope=Scope(repo_id="/repo")).candidates
    assert found[0].entity.id == ids[LATIN[2]]
    assert all(c.entity.id != ids[ZH] for c in found)


def test_summaries_are_found_by_their_parts(kd: Kindling, clock: FakeClock) -> None:
    _seed(kd, clock)
    cap = kd.open_capsule(intent="移行の準備", scope=Scope(repo_id="/repo", session_id="s2"))
    summary = kd.add_summary(cap.id, content="决定：数据库迁移在周五进行，回滚计划已审核")
    kd.close_capsule(cap.id)
    found = kd.retrieve("回滚计划", scope=Scope(repo_id="/repo")).candidates
    assert [c.entity.id for c in found] == [summary.id]
    kd.add_summary(cap.id, content="Rollback plan reviewed")  # replaced: the old text is gone
    assert kd.retrieve("回滚计划", scope=Scope(repo_id="/repo")).candidates == ()


def test_context_and_intent_are_searchable_too(kd: Kindling, clock: FakeClock) -> None:
    """Every searched column is segmented: a step is found through its capsule's intent, and
    through its neighbour (the context column), not only through its own text."""
    scope = Scope(repo_id="/repo", session_id="s3")
    cap = kd.open_capsule(intent="金曜日のデプロイ準備", scope=scope)
    clock.advance(1000)
    restart = kd.append_observation(kind="message", content="サーバー再起動を確認", scope=scope)
    clock.advance(1000)
    step = kd.append_observation(
        kind="command", content="$ npm run restart", scope=scope, capsule_id=cap.id
    )
    by_intent = kd.retrieve("デプロイ", scope=Scope(repo_id="/repo")).candidates
    assert {c.entity.id for c in by_intent} == {restart.id, step.id}  # both in the capsule
    assert all(c.explanation.context_only for c in by_intent)
    by_context = kd.retrieve("再起動", scope=Scope(repo_id="/repo")).candidates
    assert [c.entity.id for c in by_context] == [restart.id, step.id]
    assert by_context[1].explanation.context_only
    kd.forget(restart.id)  # the neighbour's text leaves the step's document too
    assert kd.retrieve("再起動", scope=Scope(repo_id="/repo")).candidates == ()


def test_a_forgotten_run_is_not_found(kd: Kindling, clock: FakeClock) -> None:
    ids = _seed(kd, clock)
    kd.forget(ids[ZH])
    assert kd.retrieve("数据库迁移", scope=Scope(repo_id="/repo")).candidates == ()


def test_cli_search_finds_it(
    store_url: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Kindling.open(store_url, clock=clock) as kd:
        ids = _seed(kd, clock)
    monkeypatch.setenv("KINDLING_DB", store_url)
    for k, (query, text) in enumerate(CASES[:4]):
        # the first as a real process, the others by the same CLI in this process
        run = (run_process if k == 0 else run_in_process)(
            "search", query, "--repo", "/repo", "--json"
        )
        assert run.code == 0, run.stderr
        assert run.json()["candidates"][0]["entity"]["id"] == ids[text]
    human = run_process("search", "数据库迁移", "--repo", "/repo")
    assert ZH in human.stdout


def test_mcp_retrieve_finds_it(
    git_repo: Path, store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KINDLING_DB", store_url)
    calls: dict[str, CallToolResult] = {}

    async def body(session: ClientSession) -> None:
        for text in [*LATIN, JA, ZH]:
            await session.call_tool("remember", {"content": text})
        calls["ja"] = await session.call_tool("retrieve", {"query": "データベース移行"})
        calls["tokyo"] = await session.call_tool("retrieve", {"query": "東京"})
        calls["zh"] = await session.call_tool("retrieve", {"query": "数据库迁移"})

    run_client(git_repo, body)
    with Kindling.open(store_url) as kd:  # remembered in $KINDLING_DB, not elsewhere
        assert len(kd.list_observations(limit=10)) == 5
    for name, text in [("ja", JA), ("tokyo", JA), ("zh", ZH)]:
        results = structured(calls[name], "retrieve")["results"]
        assert results, name
        assert results[0]["snippet"] == text


def test_bridge_retrieve_finds_it(tmp_path: Path, store_url: str) -> None:
    env = make_env(tmp_path / "unused.db")
    env["KINDLING_DB"] = store_url
    ws = tmp_path / "ws"
    ws.mkdir()
    seed_filler(store_url, ws)  # type: ignore[arg-type]  # a URL opens as well as a path
    memory = {"topic": "数据库迁移", "decisions": ["数据库迁移在周五进行"], "status": "Active"}
    memory_id = ingest_ok(ws, memory, env=env)
    ingest_ok(ws, {"topic": "東京のデータベース移行", "decisions": [JA]}, env=env)
    out = retrieve(str(ws), "数据库迁移", env=env).out
    assert [r["id"] for r in out["results"]][:1] == [memory_id]
    assert retrieve(str(ws), "データベース移行", env=env).out["result_count"] == 1
    with Kindling.open(store_url) as kd:  # the memories are in $KINDLING_DB, not elsewhere
        assert kd.get_summary(memory_id) is not None
    url_form = retrieve("--db", store_url, str(ws), "数据库迁移", env=make_env(tmp_path / "x.db"))
    assert [r["id"] for r in url_form.out["results"]][:1] == [memory_id]


# ---------------------------------------------------------------------------- migration


def _unsegment(store_url: str) -> None:
    """Put the database back as it was before the segments: documents without them."""
    if store_url.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(store_url, autocommit=True) as conn:
            conn.execute(
                "UPDATE observations SET search = setweight(to_tsvector('kindling', content), 'A')"
                " || kindling_scope_vector(session_id, repo_id, agent_id, user_id)"
            )
            conn.execute(
                "UPDATE summaries SET search = setweight(to_tsvector('kindling', content), 'A')"
            )
            # a database written before the segments has no later step either
            conn.execute("DELETE FROM kindling_schema_migrations WHERE version >= 8")
        return
    db = sqlite3.connect(store_url, isolation_level=None)
    db.create_function("identifier_parts", 1, identifier_parts)
    db.execute(
        "UPDATE observation_context SET parts = (SELECT identifier_parts(o.content)"
        " FROM observations o WHERE o.rowid = observation_context.rowid)"
    )
    db.execute("DROP VIEW observation_docs")
    db.execute(index.VIEW_SQL_V9)
    db.execute("INSERT INTO observations_fts (observations_fts) VALUES ('rebuild')")
    for name in ("insert", "update", "delete"):
        db.execute(f"DROP TRIGGER summaries_fts_{name}")
    db.execute("DROP TABLE summaries_fts")
    db.execute("DROP VIEW summary_docs")
    db.execute("ALTER TABLE summaries DROP COLUMN segments")
    db.execute(
        "CREATE VIRTUAL TABLE summaries_fts USING fts5(content, content='summaries',"
        " content_rowid='rowid', tokenize='porter unicode61')"
    )
    db.execute("INSERT INTO summaries_fts (summaries_fts) VALUES ('rebuild')")
    db.execute("DELETE FROM schema_migrations WHERE version IN (12, 13)")
    db.execute("PRAGMA user_version = 10")
    db.close()


def _bigram_indexed(store_url: str) -> bool:
    if store_url.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(store_url) as conn:
            row = conn.execute(
                "SELECT count(*) FROM observations WHERE search @@ to_tsquery('kindling', %s)",
                ("'数据' <-> '据库'",),
            ).fetchone()
            return bool(row and row[0])
    with sqlite3.connect(store_url) as conn:
        sql = "SELECT count(*) FROM observations_fts WHERE observations_fts MATCH ?"
        return bool(conn.execute(sql, ('"数据 据库"',)).fetchone()[0])


def test_the_migration_indexes_existing_rows_again(store_url: str, clock: FakeClock) -> None:
    with Kindling.open(store_url, clock=clock) as kd:
        ids = _seed(kd, clock)
        cap = kd.open_capsule(intent="plan", scope=Scope(repo_id="/repo", session_id="s2"))
        summary = kd.add_summary(cap.id, content="回滚计划已审核")
        kd.close_capsule(cap.id)
    assert _bigram_indexed(store_url)
    _unsegment(store_url)
    assert not _bigram_indexed(store_url)  # as a database written before the segments
    with Kindling.open(store_url, clock=clock) as kd:
        for query, text in CASES:
            found = kd.retrieve(query, scope=Scope(repo_id="/repo")).candidates
            assert found[0].entity.id == ids[text], query
        found = kd.retrieve("回滚计划", scope=Scope(repo_id="/repo")).candidates
        assert [c.entity.id for c in found] == [summary.id]
        assert kd.retrieve("jwt.verify", scope=Scope(repo_id="/repo")).candidates
        # the row after the Japanese one holds it as its context (migration 13 / PG 9)
        found = kd.retrieve("金曜日", scope=Scope(repo_id="/repo")).candidates
        assert [c.entity.id for c in found] == [ids[JA], ids[ZH]]
    assert _bigram_indexed(store_url)


def test_a_v5_database_with_cjk_text_opens_and_finds_it(tmp_path: Path) -> None:
    db = tmp_path / "v5.db"
    shutil.copy(FIXTURE_DB, db)
    with sqlite3.connect(db) as conn:  # written by the TypeScript Kindling (its triggers index)
        conn.execute(
            "INSERT INTO observations (id, kind, content, provenance, ts, scope_ids, redacted,"
            " repo_id) VALUES ('cjk-1', 'message', ?, '{}', ?, '{\"repoId\": \"/v5\"}', 0, '/v5')",
            (JA, NOW),
        )
    with Kindling.open(db) as kd:
        found = kd.retrieve("データベース移行", scope=Scope(repo_id="/v5")).candidates
        assert [c.entity.id for c in found] == ["cjk-1"]
    assert check(str(db)).problems == ()  # FTS5's integrity-check agrees with the views

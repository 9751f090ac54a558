"""Forget on PostgreSQL tells the truth about what PostgreSQL keeps (docs/privacy.md).

Each test gets its own database, so no other test's snapshot holds old row versions. The
pages are read with ``pageinspect`` (superuser; skipped where it is not available).
"""

from __future__ import annotations

import pytest

from kindling import Kindling, Scope
from tests.support.cli import run
from tests.support.pg import new_database, require_pg

psycopg = pytest.importorskip("psycopg")
pytestmark = pytest.mark.requires("postgres")

WORD = "zanzibarword"


@pytest.fixture
def db_url() -> str:
    require_pg()
    url = new_database()
    with psycopg.connect(url, autocommit=True) as conn:
        try:
            conn.execute("CREATE EXTENSION IF NOT EXISTS pageinspect")
        except psycopg.Error as exc:
            pytest.skip(f"pageinspect is not available: {exc}")
    return url


def row_versions_with(url: str, table: str, word: str = WORD) -> int:
    """Row versions (live or dead) in ``table``'s pages whose data contains ``word``."""
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM generate_series(0, pg_relation_size(%s::regclass) / 8192 - 1)"
            " AS b, heap_page_items(get_raw_page(%s, b::int)) AS h"
            " WHERE position(convert_to(%s, 'UTF8') IN COALESCE(h.t_data, '')) > 0",
            (table, table, word),
        ).fetchone()
    return int(row[0])


def pages_with(url: str, relation: str, word: str = WORD) -> int:
    """Pages of ``relation`` (table or index) whose raw bytes contain ``word`` anywhere."""
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM generate_series(0, pg_relation_size(%s::regclass) / 8192 - 1)"
            " AS b WHERE position(convert_to(%s, 'UTF8') IN get_raw_page(%s, b::int)) > 0",
            (relation, word, relation),
        ).fetchone()
    return int(row[0])


def _fill(kd: Kindling) -> str:
    scope = Scope(session_id="s1", repo_id="r")
    kd.open_capsule(intent="work", scope=scope)
    kd.append_observation(kind="message", content="before it", scope=scope)
    secret = kd.append_observation(kind="message", content=f"the key is {WORD} ok", scope=scope)
    kd.append_observation(kind="message", content="after it", scope=scope)
    return secret.id


def test_forget_vacuums_the_old_row_versions_and_says_what_remains(db_url: str) -> None:
    with Kindling.open(db_url) as kd:
        secret = _fill(kd)
        assert row_versions_with(db_url, "observations") >= 2  # itself, its successor's doc
        report = kd.forget(secret)
        assert report.complete
        assert not report.holders
        assert "VACUUM removed the old row versions" in report.message
        assert "VACUUM FULL" in report.message
        assert "WAL" in report.message
        assert report.to_dict()["remains"] == report.remains != ""
    # no row version, live or dead, holds the text any more ...
    assert row_versions_with(db_url, "observations") == 0
    # ... but the search index still has the word in its pages, until VACUUM FULL rewrites
    # the table and rebuilds its indexes; then no page of either holds it.
    assert pages_with(db_url, "idx_obs_search") > 0
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("VACUUM FULL observations")
    assert pages_with(db_url, "observations") == 0
    assert pages_with(db_url, "idx_obs_search") == 0


def test_an_older_snapshot_keeps_them_and_is_named_until_finish(db_url: str) -> None:
    with Kindling.open(db_url) as kd:
        secret = _fill(kd)
        with psycopg.connect(db_url) as reader:
            reader.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            reader.execute("SELECT count(*) FROM observations").fetchone()
            pid = reader.info.backend_pid
            report = kd.forget(secret)
            assert not report.complete
            assert any(f"PostgreSQL connection {pid} " in h for h in report.holders)
            assert "holds a read snapshot" in report.message
            assert row_versions_with(db_url, "observations") > 0  # the report is true
            assert not kd.finish_forget(wait_ms=0).complete
        finished = kd.finish_forget(wait_ms=0)
        assert finished.complete
        assert not finished.holders
    assert row_versions_with(db_url, "observations") == 0


def test_the_cli_says_what_postgresql_keeps(db_url: str) -> None:
    with Kindling.open(db_url) as kd:
        _fill(kd)
    done = run("--db", db_url, "forget", "--match", WORD, "--yes")
    assert done.code == 0, done.stderr
    assert done.stdout.startswith("forgot 1 observation; VACUUM removed the old row versions")
    assert "the text is gone from the database files" not in done.stdout
    assert row_versions_with(db_url, "observations") == 0


def test_the_server_never_shows_who_holds_a_snapshot(db_url: str) -> None:
    """Through ``kindling serve`` a forget says it is incomplete, but not which connection (a
    pid, a role, an address) holds the old snapshot: that is not another team's to see."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from kindling.http.app import create_app
    from tests.support.server import auth, make_token

    with Kindling.open(db_url) as kd:
        secret = _fill(kd)
        token = make_token(kd, "alice", "web", "r")
        with (
            TestClient(create_app(kd)) as client,
            psycopg.connect(db_url) as reader,
        ):
            reader.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            reader.execute("SELECT count(*) FROM observations").fetchone()
            report = client.post("/v1/forget", headers=auth(token), json={"id": secret}).json()
    assert report["complete"] is False
    assert report["holders"] == []
    assert "PostgreSQL connection" not in report["message"]
    assert "another connection" in report["message"]

"""Bad input to the bridge: one JSON error object on stdout, non-zero exit, nothing written."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.support.bridge import (
    assert_error,
    ingest,
    ingest_ok,
    ingest_raw_here,
    kindling,
    make_env,
    retrieve,
    retrieve_module,
    retrieve_module_here,
    summary_count,
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


def test_retrieve_usage_errors(ws: Path, env: dict[str, str], db: Path) -> None:
    cases = {
        (): "missing WORKSPACE and QUERY",
        (str(ws),): "missing QUERY",
        (str(ws), "   "): "QUERY is blank",
        (str(ws), "q", "abc"): "MAX_RESULTS must be a whole number",
        (str(ws), "q", "2.5"): "MAX_RESULTS must be a whole number",
        (str(ws), "q", "3", "lots"): "MAX_TOKENS must be a whole number",
        (str(ws), "q", "3", "2000", "week"): "HALF_LIFE_DAYS must be a number",
        (str(ws), "q", "3", "2000", "nan"): "HALF_LIFE_DAYS must be a number",
        (str(ws), "q", "3", "2000", "inf"): "HALF_LIFE_DAYS must be a number",
        (str(ws), "q", "3", "", "7"): "MAX_TOKENS must be a whole number",
        (str(ws), "q", "1", "2", "3", "4", "5", "6"): "too many arguments",
        (str(ws), "q", "3", "2000", "7", "no", "many"): "SEARCH_TOP_K must be a whole number",
        ("--json",): "--json needs the request object",
        ("--json", "[1]"): "--json needs one JSON object",
        ("--json", "{not json"): "--json needs one JSON object",
        ("--json", '{"query": "q"}'): "--json needs workspace_path",
        ("--json", f'{{"workspace_path": "{ws}", "query": "q", "max_results": "3"}}'): (
            "max_results must be a number"
        ),
        ("--json", f'{{"workspace_path": "{ws}", "query": "q", "max_results": 2.5}}'): (
            "max_results must be a whole number"
        ),
        ("--json", f'{{"workspace_path": "{ws}", "query": " "}}'): "QUERY is blank",
        ("--json", f'{{"workspace_path": "{ws}", "query": "q"}}', "extra"): (
            "--json carries the whole request"
        ),
        ("--db",): "--db needs a database file path",
    }
    for args, message in cases.items():
        assert_error(retrieve(*args, env=env), code=2, contains=message)
        # the module form's main in this process; as a process, below and in the other files
        assert_error(retrieve_module_here(*args, env=env), code=2, contains=message)
    for args in [(), (str(ws), "q", "abc"), ("--json", "[1]"), ("--db",)]:
        assert_error(retrieve_module(*args, env=env), code=2, contains=cases[args])
    assert not db.exists()


def test_retrieve_bad_workspace(tmp_path: Path, env: dict[str, str], db: Path) -> None:
    afile = tmp_path / "file.txt"
    afile.write_text("x")
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    cases = {
        str(tmp_path / "missing"): "does not exist",
        str(afile): "is not a directory",
        "": "must be the path of an existing directory",
        str(loop): "cannot be resolved",
        "a" * 5000: "cannot be resolved (File name too long)",
    }
    for workspace, message in cases.items():
        run = retrieve(workspace, "q", env=env)
        assert_error(run, code=1, contains=message)
        assert len(run.out["error"]) < 300
    assert not db.exists()


def test_database_that_cannot_be_opened(ws: Path, tmp_path: Path, env: dict[str, str]) -> None:
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not a database, just text " * 100)
    directory = tmp_path / "a-directory.db"
    directory.mkdir()
    blocked = tmp_path / "plain-file" / "k.db"  # its parent is a file
    (tmp_path / "plain-file").write_text("x")
    # a directory names no database (``entry.target_of``); the garbage fails as a store
    for bad, code in ((garbage, "store"), (directory, "invalid_input")):
        bad_env = make_env(bad)
        run = retrieve(str(ws), "q", env=bad_env)
        assert_error(run, code=1, contains=str(bad))
        assert run.out["code"] == code
        run = ingest(ws, {"text": "x"}, env=bad_env)
        assert_error(run, code=1, contains=str(bad))
    assert garbage.read_bytes().startswith(b"this is not a database")
    run = ingest(ws, {"text": "x"}, env=make_env(blocked))
    assert_error(run, code=1, contains="as a database path")
    run = retrieve("--db", str(garbage), str(ws), "q", env=env)
    assert_error(run, code=1, contains="not a usable SQLite database")


def test_newer_schema_is_refused(ws: Path, tmp_path: Path) -> None:
    newer = tmp_path / "newer.db"
    with sqlite3.connect(newer) as conn:
        conn.execute("PRAGMA user_version = 999")
    run = retrieve(str(ws), "q", env=make_env(newer))
    assert_error(run, code=1, contains="upgrade kindling-memory")
    assert run.out["code"] == "schema"


BAD_INGEST: list[tuple[bytes, str]] = [
    (b"", "not valid UTF-8 JSON"),
    (b"{not json", "not valid UTF-8 JSON"),
    (b"\xff\xfe{}", "not valid UTF-8 JSON"),
    (b'"just a string"', "must be a JSON object"),
    (b"[1, 2]", "must be a JSON object"),
    (b"{}", 'needs a "topic"'),
    (b'{"text": ""}', "text must be a non-blank string"),
    (b'{"text": 42}', "text must be a non-blank string"),
    (b'{"text": "x", "topic": "y"}', "a legacy memory has only a text"),
    (b'{"topic": 7}', "topic must be a non-blank string"),
    (b'{"topic": "  "}', "topic is blank"),
    (b'{"topic": "t", "decisions": "one"}', "decisions must be a list of strings"),
    (b'{"topic": "t", "decisions": [1]}', "decisions must be a list of strings"),
    (b'{"topic": "t", "rationale": {"a": 1}}', "rationale must be a list of strings"),
    (b'{"topic": "t", "next_steps": ["ok", " "]}', "next_steps[1] is blank"),
    (b'{"topic": "t", "status": "Done"}', "invalid status 'Done'"),
    (b'{"topic": "t", "status": "active"}', "invalid status 'active'"),
    (b'{"topic": "t", "plan_id": 14}', "plan_id must be a string or null"),
    (b'{"topic": "t", "topic_id": ""}', "topic_id is blank"),
    (b'{"topic": "t", "context": ["a"]}', "context must be a string or null"),
    (b'{"topic": "t", "source_created_at": "yesterday"}', "must be an ISO 8601 time"),
    (b'{"topic": "t", "source_created_at": 1700000000}', "source_created_at must be a string"),
    (b'{"topic": "t", "source_created_at": "1900-01-01"}', "between 1970 and 9999"),
    (b'{"topic": "t", "created_at": "2025-01-01"}', "unknown key(s) created_at"),
]


def test_malformed_or_wrongly_typed_ingest_writes_nothing(ws: Path, env: dict[str, str]) -> None:
    db = Path(env["KINDLING_DB"])
    # Bytes that are not a JSON object through the real command; the field checks behind it
    # through the same handler in this process.
    for payload, message in BAD_INGEST[:5]:
        assert_error(ingest(ws, None, env=env, raw=payload), code=1, contains=message)
    for payload, message in BAD_INGEST[5:]:
        assert_error(ingest_raw_here(ws, payload, env=env), code=1, contains=message)
    assert not db.exists()  # not even created
    ingest_ok(ws, {"text": "the only memory"}, env=env)
    for payload, message in BAD_INGEST[:4]:
        assert_error(ingest(ws, None, env=env, raw=payload), code=1, contains=message)
    assert summary_count(db) == 1


def test_oversized_ingest_is_refused(ws: Path, env: dict[str, str], db: Path) -> None:
    payload = json.dumps({"text": "x" * (1 << 20)}).encode()
    assert_error(ingest(ws, None, env=env, raw=payload), code=1, contains="larger than")
    assert not db.exists()


def test_ingest_usage_errors(ws: Path, tmp_path: Path, env: dict[str, str], db: Path) -> None:
    cases: dict[tuple[str, ...], tuple[int, str]] = {
        (): (2, "missing WORKSPACE"),
        (str(ws), "extra"): (2, "too many arguments"),
        (str(tmp_path / "missing"),): (1, "does not exist"),
    }
    for args, (code, message) in cases.items():
        run = kindling("bridge", "ingest", *args, env=env, stdin=b'{"text": "x"}')
        assert_error(run, code=code, contains=message)
    assert not db.exists()


def test_group_usage_errors_are_json(env: dict[str, str]) -> None:
    assert_error(kindling("bridge", env=env), code=2, contains="missing command")
    assert_error(kindling("bridge", "frobnicate", env=env), code=2, contains="No such command")
    assert_error(kindling("bridge", "--nope", env=env), code=2, contains="No such option")


def test_bad_kindling_now(ws: Path, env: dict[str, str], db: Path) -> None:
    for value in ("soon", "-1", "1.5"):
        bad = {**env, "KINDLING_NOW": value}
        assert_error(retrieve(str(ws), "q", env=bad), code=1, contains="KINDLING_NOW")
        assert_error(ingest(ws, {"text": "x"}, env=bad), code=1, contains="KINDLING_NOW")
    assert not db.exists()


def test_errors_leave_an_existing_database_unchanged(ws: Path, env: dict[str, str]) -> None:
    db = Path(env["KINDLING_DB"])
    ingest_ok(ws, {"topic": "kept", "topic_id": "t"}, env=env)
    run = ingest(ws, {"topic": "x", "topic_id": "t", "status": 3}, env=env)
    assert_error(run, code=1, contains="invalid status")
    out = retrieve(str(ws), "kept", env=env).out
    assert [r["status"] for r in out["results"]] == ["Active"]  # not superseded by the failure
    assert summary_count(db) == 1

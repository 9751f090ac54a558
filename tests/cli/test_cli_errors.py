"""Bad input through the installed ``kindling`` process: exit codes, one-line messages, JSON."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.support.cli import run, run_process

USAGE = [
    ("search", "x", "--limit", "abc"),
    ("search", "x", "--limit", "0"),
    ("search", "x", "--now", "-5"),
    ("search", "x", "--budget", "lots"),
    ("search", "x", "--frobnicate"),
    ("log", "x", "--kind", "nonsense"),
    ("log",),
    ("pin", "observation", "some-id", "--ttl", "5x"),
    ("pin", "observation", "some-id", "--ttl", "0d"),
    ("pin", "capsule", "some-id"),
    ("capsule", "close", "some-id", "--confidence", "2"),
    ("capsule", "open"),
    ("list", "things"),
    ("list", "capsules", "--kind", "error"),
    ("list", "observations", "--status", "open"),
    ("no-such-command",),
    ("log", "x", "--session", " "),
    ("search", "x", "--repo", ""),
]


@pytest.mark.parametrize("args", USAGE, ids=" ".join)
def test_usage_errors_exit_2_with_one_line(args: tuple[str, ...]) -> None:
    out = run_process(*args)
    assert out.code == 2, out
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("kindling: ")
    assert "--help" in lines[0]
    assert out.stdout == ""


def test_usage_error_with_json_prints_an_error_object() -> None:
    out = run_process("search", "x", "--limit", "abc", "--json")
    assert out.code == 2
    assert out.json() == {"error": {"code": "usage", "message": out.json()["error"]["message"]}}
    assert "--limit" in out.json()["error"]["message"]


RUNTIME = [
    (("show", "missing-id"), "not_found"),
    (("unpin", "missing-id"), "not_found"),
    (("forget", "missing-id"), "not_found"),
    (("pin", "observation", "missing-id"), "not_found"),
    (("capsule", "close", "missing-id"), "not_found"),
    (("log", "   "), "invalid_input"),
    (("log", "x", "--capsule", "missing-id"), "not_found"),
]


@pytest.mark.parametrize(
    ("args", "code"), RUNTIME, ids=lambda v: " ".join(v) if isinstance(v, tuple) else v
)
def test_runtime_errors_exit_1_with_a_stable_code(args: tuple[str, ...], code: str) -> None:
    assert run("log", "a first note").code == 0  # a database to read (set up in-process)
    plain = run_process(*args)
    assert plain.code == 1
    assert len(plain.stderr.strip().splitlines()) == 1
    assert "Traceback" not in plain.stderr
    as_json = run_process(*args, "--json")
    assert as_json.code == 1
    assert as_json.json()["error"]["code"] == code


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    out = run_process("--db", str(junk), "status", "--json")
    assert out.code == 1
    assert out.json()["error"]["code"] == "store"
    assert "Traceback" not in out.stderr


@pytest.mark.slow
def test_a_locked_database_fails_after_the_busy_timeout(tmp_path: Path) -> None:
    db = tmp_path / "locked.db"
    assert run_process("--db", str(db), "log", "first").code == 0
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        out = run_process("--db", str(db), "log", "second", "--json")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert out.code == 1
    assert out.json()["error"]["code"] == "database_locked"
    assert len(out.stderr.strip().splitlines()) == 1


def test_a_database_path_that_cannot_be_created(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    out = run_process("--db", str(blocker / "sub" / "k.db"), "status", "--json")
    assert out.code == 1
    assert out.json()["error"]["code"] == "store"
    assert "Traceback" not in out.stderr


def test_a_bad_kindling_now_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KINDLING_NOW", "yesterday")
    out = run_process("status")
    assert out.code == 2
    assert "KINDLING_NOW" in out.stderr


def test_a_directory_as_database_is_a_usage_error(tmp_path: Path) -> None:
    out = run_process("--db", str(tmp_path), "status")
    assert out.code == 2
    assert "is a directory" in out.stderr


@pytest.mark.parametrize("args", [(), ("capsule",)], ids=["kindling", "capsule"])
def test_a_bare_group_prints_its_help(args: tuple[str, ...]) -> None:
    out = run_process(*args)
    assert out.code == 0
    assert out.stdout.startswith("Usage: kindling")
    assert "Commands:" in out.stdout

"""Safe files: private modes, read-only databases, damaged databases refused with one line,
bounded reads, exports that follow symlinks and refuse devices, TTLs inside the contract."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from kindling import Kindling, Scope
from kindling.agents.events import last_assistant_text
from kindling.errors import DamagedDatabaseError, InvalidInputError, StoreError
from kindling.store import files
from tests.support.cli import run, run_process

S = Scope(repo_id="/r")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _make(db: Path, n: int = 2000) -> str:
    with Kindling.open(db) as kd:
        with kd.batch():
            for i in range(n):
                kd.append_observation(kind="message", content=f"hello world {i} " * 8, scope=S)
        return kd.list_observations(limit=1)[0].id


def _digest(db: Path) -> dict[str, str]:
    """What the database holds: the file and any WAL frames (an empty WAL or the -shm index
    that a reader creates hold no data)."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(db.parent.glob(db.name + "*"))
        if p.name.endswith((".db", "-wal")) and p.stat().st_size
    }


def test_new_directory_is_0700_and_database_files_0600(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        db = tmp_path / "home" / ".kindling" / "kindling.db"
        with Kindling.open(db) as kd:
            kd.append_observation(kind="message", content="private", scope=S)
            assert _mode(db.parent) == 0o700
            for name in ("kindling.db", "kindling.db-wal", "kindling.db-shm"):
                assert _mode(db.parent / name) == 0o600, name
    finally:
        os.umask(old)


def test_cli_creates_the_default_home_privately(tmp_path: Path) -> None:
    home = Path(os.environ["KINDLING_HOME"])
    assert run("log", "first memory", "--repo", "r").code == 0
    assert _mode(home) == 0o700
    assert _mode(home / "kindling.db") == 0o600


def test_a_read_only_database_can_be_searched_and_refuses_writes(tmp_path: Path) -> None:
    db = tmp_path / "ro.db"
    _make(db, 50)
    db.chmod(0o444)
    before = _digest(db)
    found = run_process("--db", str(db), "search", "hello", "--json")
    assert found.code == 0, found.stderr
    assert json.loads(found.stdout)["candidates"]
    refused = run_process("--db", str(db), "log", "more", "--repo", "r")
    assert refused.code == 1
    assert refused.stderr.strip().splitlines() == [f"kindling: {files.read_only_message(str(db))}"]
    assert _digest(db) == before
    with Kindling.open(db) as kd:
        assert kd.store.read_only  # type: ignore[attr-defined]
        with pytest.raises(StoreError, match="read-only"):
            kd.append_observation(kind="message", content="no", scope=S)


def _garbage_pages(db: Path) -> None:
    """Overwrite two pages of the observations table (the ones holding row 1000's text), so
    some rows are lost whatever the layout of the other tables."""
    at = db.read_bytes().find(b"hello world 1000 ")
    assert at > 0
    with db.open("r+b") as fh:
        for page in (at // 4096, at // 4096 + 1):
            fh.seek(page * 4096)
            fh.write(b"\xa5" * 4096)


def _bad_schema(db: Path) -> None:
    data = bytearray(db.read_bytes())
    at = data.find(b"CREATE TABLE observations")
    at = data.find(b"observations", at + 13)
    data[at + 2] = 0xFF
    db.write_bytes(bytes(data))


WRITES = [
    ["log", "new memory", "--repo", "r"],
    ["forget", "--match", "hello", "--yes"],
    ["pin", "observation", "{id}", "--reason", "keep"],
    ["forget", "{id}"],
    ["import", "{bundle}"],
]


@pytest.mark.parametrize("damage", [_garbage_pages, _bad_schema])
def test_a_damaged_database_gets_one_line_and_is_never_written(
    tmp_path: Path, damage: object
) -> None:
    db = tmp_path / "k.db"
    obs_id = _make(db)
    bundle = tmp_path / "b.json"
    bundle.write_text(
        json.dumps(
            {
                "bundleVersion": "1.0",
                "exportedAt": 1,
                "dataset": {
                    "scope": {},
                    "observations": [
                        {"id": "new1", "kind": "message", "content": "x", "ts": 1, "scopeIds": {}}
                    ],
                    "capsules": [],
                    "summaries": [],
                    "pins": [],
                },
            }
        )
    )
    files.forget_check(str(db))
    damage(db)  # type: ignore[operator]
    before = _digest(db)
    for args in WRITES:
        argv = [a.format(id=obs_id, bundle=bundle) for a in args]
        result = run_process("--db", str(db), *argv)
        assert result.code == 1, (argv, result.stdout)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, (argv, result.stderr)
        assert "kindling doctor" in lines[0], lines[0]
        assert _digest(db) == before, argv
    status = run_process("--db", str(db), "status")
    assert len(status.stderr.strip().splitlines()) <= 1
    assert "Traceback" not in status.stderr
    ingest = subprocess.run(
        [str(Path(sys.executable).with_name("kindling")), "--db", str(db), "bridge", "ingest", "."],
        input='{"topic": "Auth", "decisions": ["Use JWT"]}',
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert ingest.returncode != 0
    assert "Traceback" not in ingest.stderr + ingest.stdout
    hook = subprocess.run(
        [str(Path(sys.executable).with_name("kindling")), "hook", "PostToolUse", "--db", str(db)],
        input=json.dumps(
            {
                "session_id": "s1",
                "cwd": str(tmp_path),
                "tool_name": "Bash",
                "tool_input": {"command": "ls"},
                "tool_response": {"stdout": "a"},
            }
        ),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "Traceback" not in hook.stdout
    assert _digest(db) == before
    assert run_process("--db", str(db), "doctor").code == 1


def test_the_quick_check_refuses_the_first_write_in_the_library(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    _make(db)
    files.forget_check(str(db))
    _garbage_pages(db)
    before = _digest(db)
    with Kindling.open(db) as kd, pytest.raises(DamagedDatabaseError, match="kindling doctor"):
        kd.append_observation(kind="message", content="new", scope=S)
    assert _digest(db) == before


def test_doctor_salvages_what_can_be_read(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    _make(db)
    _garbage_pages(db)
    out = tmp_path / "new.db"
    result = run_process("--db", str(db), "doctor", "--salvage", str(out), "--json")
    doc = json.loads(result.stdout)
    assert doc["ok"] is False  # the old file is still damaged
    copied = doc["salvage"]["copied"]["observations"]
    assert 1900 <= copied < 2000
    assert run_process("--db", str(out), "doctor").code == 0
    with Kindling.open(out) as kd:
        assert len(kd.list_observations(limit=10_000)) == copied
        assert kd.retrieve(query="hello", scope=S).candidates


def test_doctor_on_a_sound_database_and_index_rebuild(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    _make(db, 20)
    assert run_process("--db", str(db), "doctor").stdout.strip() == "database ok"
    rebuilt = run_process("--db", str(db), "doctor", "--rebuild-index")
    assert rebuilt.code == 0
    assert "rebuilt the text indexes" in rebuilt.stdout


def test_doctor_on_a_postgresql_database_refuses_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A PostgreSQL database has no file checks: ``doctor`` says so in one line and exit 1
    (before, it checked the default local file instead of the database named)."""
    monkeypatch.setenv("KINDLING_DB", "postgresql://nobody@127.0.0.1:1/none")
    for args in (("doctor",), ("doctor", "--rebuild-index"), ("doctor", "--json")):
        result = run(*args)
        assert result.code == 1, args
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, lines
        assert "checks a SQLite file" in lines[0], lines
        assert "database ok" not in result.stdout
    refused = json.loads(run("doctor", "--json").stdout)
    assert refused["error"]["code"] == StoreError.code


def test_export_through_a_symlink_writes_the_target(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    _make(db, 5)
    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert run_process("--db", str(db), "export", str(link)).code == 0
    assert link.is_symlink()
    assert json.loads(target.read_text())["bundleVersion"] == "1.0"


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_export_refuses_a_target_that_is_not_a_regular_file(tmp_path: Path, kind: str) -> None:
    db = tmp_path / "k.db"
    _make(db, 5)
    target = tmp_path / "out"
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.mkdir()
    result = run_process("--db", str(db), "export", str(target))
    assert result.code != 0
    assert len(result.stderr.strip().splitlines()) == 1
    assert stat.S_ISFIFO(target.stat().st_mode) if kind == "fifo" else target.is_dir()


def test_import_of_dev_zero_is_refused_at_once(tmp_path: Path) -> None:
    result = run_process("--db", str(tmp_path / "k.db"), "import", "/dev/zero")
    assert result.code == 1
    assert "not a regular file" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_transcript_that_is_a_device_is_not_read() -> None:
    assert last_assistant_text("/dev/zero") is None


def _nested(depth: int) -> dict[str, object]:
    node: dict[str, object] = {}
    top = node
    for _ in range(depth):
        node["a"] = {}
        node = node["a"]  # type: ignore[assignment]
    return top


def test_a_bundle_nested_500_deep_is_a_clean_error(tmp_path: Path) -> None:
    bundle = {
        "bundleVersion": "1.0",
        "exportedAt": 1,
        "dataset": {
            "scope": {},
            "observations": [
                {
                    "id": "o1",
                    "kind": "message",
                    "content": "x",
                    "ts": 1,
                    "provenance": _nested(500),
                    "scopeIds": {},
                }
            ],
            "capsules": [],
            "summaries": [],
            "pins": [],
        },
    }
    deep = tmp_path / "deep.json"
    deep.write_text(json.dumps(bundle))
    deeper = tmp_path / "deeper.json"
    deeper.write_text('{"bundleVersion": "1.0", "dataset": ' + "[" * 100_000 + "]" * 100_000 + "}")
    for path in (deep, deeper):
        result = run_process("--db", str(tmp_path / "k.db"), "import", str(path))
        assert result.code == 1
        assert "nested" in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_provenance_nested_too_deep_is_refused(kd: Kindling) -> None:
    with pytest.raises(InvalidInputError, match="nested deeper than 64"):
        kd.append_observation(kind="message", content="x", provenance=_nested(500))
    kd.append_observation(kind="message", content="x", provenance=_nested(60))


def test_a_ttl_beyond_year_9999_is_refused(kd: Kindling) -> None:
    obs = kd.append_observation(kind="message", content="x", scope=S)
    with pytest.raises(InvalidInputError, match="9999"):
        kd.pin("observation", obs.id, ttl_ms=10**18)
    result = run("pin", "observation", obs.id, "--ttl", "999999999w")
    assert result.code != 0
    assert "Traceback" not in result.stderr


def test_damage_words_and_copies_are_recognised() -> None:
    assert files.is_damage("database disk image is malformed")
    assert not files.is_damage("file is not a database")  # a wrong path, said as such
    assert not files.is_damage("database is locked")
    assert shutil.which("true")  # the environment can run subprocesses


def test_the_quick_check_runs_once_and_can_be_skipped(tmp_path: Path) -> None:
    from kindling.store.sqlite import SqliteStore

    fast = tmp_path / "fast.db"
    with Kindling(SqliteStore(fast, check_before_write=False)) as kd:
        kd.append_observation(kind="message", content="x", scope=S)
    assert not Path(f"{fast}-checked").exists()
    checked = tmp_path / "checked.db"
    with Kindling.open(checked) as kd:
        kd.append_observation(kind="message", content="x", scope=S)
    assert Path(f"{checked}-checked").exists()
    assert files.recently_checked(str(checked))

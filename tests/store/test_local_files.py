"""Local files (issue 18): a schema that is not UTF-8, bit-flipped databases, read-only
databases of another user, private files in remote mode, read commands on a mistyped --db, and
what a forget says about exports. Each test fails on the code before its fix."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from kindling import Kindling, Scope
from kindling.store import files
from kindling.store.sqlite import doctor
from tests.support.cli import run, run_process
from tests.support.hooks import payload, run_hook
from tests.support.server import free_port

S = Scope(repo_id="/r")
KINDLING = Path(sys.executable).with_name("kindling")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _make(db: Path, n: int = 300) -> None:
    with Kindling.open(db, clock=lambda: 1_767_225_600_000) as kd, kd.batch():
        for i in range(n):  # fixed ids and times: the same bytes on every run
            text = f"build {i} failed in module_{i % 17}.py: KeyError 'user_{i}' " * 3
            kd.append_observation(kind="error", content=text, scope=S, id=f"o{i:04d}", ts=i)
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("UPDATE schema_migrations SET applied_at = 0")  # the one wall-clock value
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    for suffix in ("-wal", "-shm", "-checked"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)


@pytest.fixture(scope="module")
def sound(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The bytes of a sound, checkpointed database (the same for every test of the module)."""
    db = tmp_path_factory.mktemp("sound") / "k.db"
    _make(db)
    return db.read_bytes()


def _place(tmp_path: Path, data: bytes, name: str = "k.db") -> Path:
    db = tmp_path / name
    db.write_bytes(data)
    db.chmod(0o600)
    return db


# ------------------------------------------------------------------ a schema that is not UTF-8


def test_a_schema_that_is_not_utf8_is_one_line_everywhere(tmp_path: Path, sound: bytes) -> None:
    data = bytearray(sound)
    at = data.find(b"CREATE TABLE")
    data[at + 3] = 0xFF  # "CRE\xffTE TABLE ...": SQLite's own message quotes it
    db = _place(tmp_path, bytes(data))
    for args in (["search", "build"], ["status"], ["list", "observations"], ["log", "x"]):
        out = run_process("--db", str(db), *args)
        assert out.code == 1, args
        assert "Traceback" not in out.stderr
        (line,) = out.stderr.strip().splitlines()
        assert "not valid UTF-8" in line
        assert "kindling doctor" in line
    checked = run_process("--db", str(db), "doctor", "--json")
    assert checked.code == 1
    assert "Traceback" not in checked.stderr
    assert json.loads(checked.stdout)["problems"] == [f"schema: {files.NOT_UTF8}"]
    assert db.read_bytes() == bytes(data)  # and nothing was written


# ------------------------------------------------------------------ bit flips


def _flips(sound: bytes, n: int, seed: int = 7) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    return [(rng.randrange(len(sound)), rng.randrange(8)) for _ in range(n)]


def _flipped(sound: bytes, pos: int, bit: int) -> bytes:
    data = bytearray(sound)
    data[pos] ^= 1 << bit
    return bytes(data)


def _passes(db: Path, pragma: str) -> bool:
    conn = sqlite3.connect(db)
    try:
        return [r[0] for r in conn.execute(pragma)] == ["ok"]
    except (sqlite3.DatabaseError, UnicodeDecodeError):
        return False
    finally:
        conn.close()
        for suffix in ("-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)


def test_log_never_writes_into_a_bit_flipped_file_the_check_calls_damaged(
    tmp_path: Path, sound: bytes
) -> None:
    """Deterministic single-bit flips of one database: every copy the write check calls
    damaged is refused with one line and left byte for byte; among them are copies that
    PRAGMA quick_check (the check before) passed, and doctor calls each of them damaged."""
    refused = quick_missed = 0
    for k, (pos, bit) in enumerate(_flips(sound, 200)):
        data = _flipped(sound, pos, bit)
        probe = _place(tmp_path, data, f"probe{k}.db")
        damaged = not _passes(probe, "PRAGMA integrity_check(5)")
        quick_ok = _passes(probe, "PRAGMA quick_check(5)")
        probe.unlink()
        if not damaged:
            continue
        db = _place(tmp_path, data, f"flip{k}.db")
        assert not doctor.check(str(db)).ok
        # the first refusal by the real command, the others by the same CLI in this process
        command = run if refused else run_process
        out = command("--db", str(db), "log", "probe text", "--repo", "r")
        assert out.code == 1, (pos, bit, out.stdout)
        (line,) = out.stderr.strip().splitlines()
        assert "kindling doctor" in line
        assert db.read_bytes() == data
        assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0
        refused += 1
        quick_missed += quick_ok
    # the same copies on every run (fixed ids, times, seed): 23 and 6 with SQLite 3.40.1
    assert refused >= 10
    assert quick_missed >= 3  # the flips that got written before


def test_a_copy_over_a_checked_database_is_checked_again(tmp_path: Path, sound: bytes) -> None:
    db = _place(tmp_path, sound)
    assert run_process("--db", str(db), "log", "first").code == 0
    assert files.recently_checked(str(db))
    damaged = next(
        _flipped(sound, pos, bit)
        for pos, bit in _flips(sound, 200)
        if not _passes(
            _place(tmp_path, _flipped(sound, pos, bit), "p.db"), "PRAGMA integrity_check"
        )
    )
    replacement = _place(tmp_path, damaged, "new.db")
    for suffix in ("-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    os.replace(replacement, db)  # another file now, under the checked name
    assert not files.recently_checked(str(db))
    assert run_process("--db", str(db), "log", "second").code == 1


# ------------------------------------------------------------------ read-only, another user


def _as_other_user(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``kindling --db DB ARGS`` as a user who may only read ``db`` and its directory: as
    root, another uid (set after the interpreter has loaded what it needs: root's Python may
    be unreadable to that uid); otherwise this user, with the modes taking the write bits."""
    code = (
        "import os, sys, importlib, pkgutil, kindling\n"
        "for m in pkgutil.walk_packages(kindling.__path__, 'kindling.'):\n"
        "    if m.name.split('.')[1] in ('http', 'mcp', 'bridge', 'demo'): continue\n"
        "    if 'postgres' in m.name: continue\n"
        "    importlib.import_module(m.name)\n"
        "import encodings.idna, json, sqlite3\n"
        "if os.getuid() == 0:\n"
        "    os.setgroups([]); os.setgid(65534); os.setuid(65534)\n"
        "from kindling.cli import main\n"
        "sys.argv = ['kindling', *sys.argv[1:]]\n"
        "main()\n"
    )
    env = {**os.environ, "HOME": str(db.parent.parent), "KINDLING_HOME": str(db.parent.parent)}
    return subprocess.run(
        [sys.executable, "-c", code, "--db", str(db), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


def test_another_users_read_only_database_can_be_searched(sound: bytes) -> None:
    # pytest's own temporary directories are private to this user: a world-readable one
    top = Path(tempfile.mkdtemp(prefix="kindling-ro-", dir="/tmp"))
    top.chmod(0o755)
    shared = top / "shared"
    shared.mkdir()
    db = _place(shared, sound)
    db.chmod(0o444)
    shared.chmod(0o555)
    try:
        found = _as_other_user(db, "search", "KeyError", "--json")
        assert found.returncode == 0, found.stderr
        assert json.loads(found.stdout)["candidates"]
        refused = _as_other_user(db, "log", "more")
        assert refused.returncode == 1
        assert refused.stderr.strip().splitlines() == [
            f"kindling: {files.read_only_message(str(db))}"
        ]
        assert _as_other_user(db, "doctor").returncode == 0
        assert sorted(p.name for p in shared.iterdir()) == ["k.db"]  # no -wal, no -shm
        assert db.read_bytes() == sound
    finally:
        shared.chmod(0o755)
        shutil.rmtree(top)


# ------------------------------------------------------------------ private files


def test_the_hook_log_is_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kindling.hooks.log import LOG_NAME, log_problem

    old = os.umask(0o022)
    try:
        home = Path(os.environ["KINDLING_HOME"])
        log_problem("Stop", "first problem")
        assert _mode(home / LOG_NAME) == 0o600
        (home / LOG_NAME).chmod(0o644)  # one an older Kindling created
        log_problem("Stop", "second problem")
        assert _mode(home / LOG_NAME) == 0o600
        assert len((home / LOG_NAME).read_text().splitlines()) == 2
    finally:
        os.umask(old)


def test_remote_mode_creates_kindling_home_privately(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "fresh" / ".kindling"
    monkeypatch.setenv("KINDLING_HOME", str(home))
    monkeypatch.setenv("KINDLING_URL", f"http://127.0.0.1:{free_port()}")  # nobody listens
    monkeypatch.setenv("KINDLING_TOKEN", "kdt_x")
    cwd = tmp_path / "proj"
    cwd.mkdir()
    old = os.umask(0o022)
    try:
        out = run_hook("PostToolUse", payload("post_tool_use_bash", cwd))
    finally:
        os.umask(old)
    assert out.returncode == 0
    assert _mode(home) == 0o700
    assert _mode(home / "spool") == 0o700
    for path in home.rglob("*"):
        assert _mode(path) == (0o700 if path.is_dir() else 0o600), path


def test_a_new_claude_settings_file_is_private(tmp_path: Path) -> None:
    from kindling.agents.claude_code import install

    old = os.umask(0o022)
    try:
        (tmp_path / "proj").mkdir()
        [change] = install("project", str(tmp_path / "proj"), exe="kindling")
        target = change.path
    finally:
        os.umask(old)
    assert target == (tmp_path / "proj" / ".claude" / "settings.json").resolve()
    assert _mode(target) == 0o600
    assert _mode(target.parent) == 0o700


# ------------------------------------------------------------------ a mistyped --db


@pytest.mark.parametrize(
    "args",
    [
        ["search", "x"],
        ["list", "observations"],
        ["show", "abc"],
        ["status"],
        ["export", "out.json"],
        ["token", "list"],
    ],
    ids=lambda a: a[0] if a[0] != "token" else "token-list",
)
def test_a_read_command_on_a_missing_database_says_so(tmp_path: Path, args: list[str]) -> None:
    typo = tmp_path / "no-such-dir" / "kindlnig.db"
    out = run_process("--db", str(typo), *args)
    assert out.code == 1
    (line,) = out.stderr.strip().splitlines()
    assert f"no database at {typo}" in line
    assert not typo.parent.exists()  # nothing created


def test_a_write_command_still_creates_the_database(tmp_path: Path) -> None:
    fresh = tmp_path / "new" / "k.db"
    assert run_process("--db", str(fresh), "log", "first").code == 0
    assert fresh.exists()
    assert run_process("--db", str(fresh), "search", "first").code == 0


# ------------------------------------------------------------------ forget and exports


def test_forget_says_exports_keep_the_text(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    assert run_process("--db", str(db), "log", "the zanzibar password").code == 0
    dry = run_process("--db", str(db), "forget", "--match", "zanzibar", "--dry-run", "--json")
    assert json.loads(dry.stdout)["exports"] == ""  # nothing removed yet
    done = run_process("--db", str(db), "forget", "--match", "zanzibar", "--yes", "--json")
    report = json.loads(done.stdout)
    assert "exports" in report["exports"]
    assert "still hold the text" in report["message"]
    for key in ("observations", "complete", "remains", "message", "dryRun"):  # kept
        assert key in report
    again = run_process("--db", str(db), "log", "the zanzibar password")
    plain = run_process("--db", str(db), "forget", again.stdout.strip())
    assert "exports, bundles and backups written before this forget" in plain.stdout.lower()


def test_a_sound_doctor_check_stands_for_the_write_check(tmp_path: Path, sound: bytes) -> None:
    """``kindling doctor`` on a sound file stamps it: the next writer (a hook with a deadline,
    say) need not run the integrity check itself within the hour."""
    db = _place(tmp_path, sound)
    assert not files.recently_checked(str(db))
    assert run_process("--db", str(db), "doctor").code == 0
    assert files.recently_checked(str(db))

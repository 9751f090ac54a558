"""A value masked once is masked in the later observations of its session (issue 18), on every
path: library verbs, the hooks' spool (separate processes) and the drain; the memory holds
keyed hashes only, in private files, and is forgotten at SessionEnd."""

from __future__ import annotations

import os
import stat
import uuid
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from kindling import Kindling, Scope
from kindling.secrets.scrub import collect_found, scrub_secrets, take_found
from kindling.secrets.session_secrets import (
    MAX_PER_SESSION,
    SessionSecrets,
    candidates,
    forget_all,
    secrets_dir,
)
from kindling.spool import spool_dir
from tests.support.hooks import payload, run_hook


def _store_bytes(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.rglob("*") if p.is_file())


def test_a_later_copy_in_the_same_session_is_masked_and_other_sessions_are_not(
    db_path: Path,
) -> None:
    key = str(uuid.uuid4())
    with Kindling.open(db_path) as kd:
        first = kd.append_observation(
            kind="command", content=f"export HEROKU_API_KEY={key}", scope=Scope(session_id="a")
        )
        later = kd.append_observation(
            kind="command", content=f"heroku: deploying as {key}", scope=Scope(session_id="a")
        )
        other = kd.append_observation(
            kind="command", content=f"request {key} done", scope=Scope(session_id="b")
        )
    assert key not in first.content
    assert later.content == "heroku: deploying as [REDACTED:api_key]"
    assert later.provenance["redactedKinds"] == ["api_key"]
    assert key in other.content  # a UUID alone is no secret; session b never saw it named
    data = _store_bytes(db_path)
    assert key.encode() not in data.replace(f"request {key}".encode(), b"")


def test_the_hook_path_masks_a_copy_spooled_by_a_later_process(
    tmp_path: Path, monkeypatch: object
) -> None:
    db = Path(os.environ["KINDLING_DB"])
    key = str(uuid.uuid4())
    session = "9f1c2a7e-5b3d-4c8e-a1f0-2d6b8e4c3a10"
    for command, out in [
        (f"export HEROKU_API_KEY={key}", ""),
        ("heroku apps", f"heroku: deploying as {key}\n=== apps"),
    ]:
        data = payload("post_tool_use_bash", tmp_path)
        data["session_id"] = session
        data["tool_input"] = {"command": command}
        data["tool_response"] = {"stdout": out, "stderr": "", "interrupted": False}
        data["tool_use_id"] = f"toolu_{len(command)}"  # two tool calls: two ids
        proc = run_hook("PostToolUse", data)
        assert proc.returncode == 0, proc.stderr
    spooled = b"".join(p.read_bytes() for p in Path(spool_dir(str(db))).glob("*.json"))
    assert spooled.count(b"[REDACTED:") >= 2
    assert key.encode() not in spooled
    memory = Path(secrets_dir(str(db)))
    assert stat.S_IMODE(memory.stat().st_mode) == 0o700
    files = list(memory.iterdir())
    assert all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in files)
    assert all(key.encode() not in f.read_bytes() for f in files)  # hashes, never the value
    with Kindling.open(db) as kd:  # the drain
        texts = [o.content for o in kd.list_observations(limit=10)]
    assert len(texts) == 2
    assert key.encode() not in _store_bytes(db)
    end = payload("session_end", tmp_path)
    end["session_id"] = session
    assert run_hook("SessionEnd", end).returncode == 0
    assert [f.name for f in memory.iterdir()] == ["key"]  # the session's hashes are gone


def test_memory_is_bounded_and_forgettable(tmp_path: Path) -> None:
    memory = SessionSecrets(str(tmp_path / "m"), writes=True)
    values = {f"Value{i:04d}xQ9z{i * 7919:08d}": "secret" for i in range(MAX_PER_SESSION + 50)}
    for value, kind in values.items():
        memory.remember("s", {value: kind})
    first, last = next(iter(values)), list(values)[-1]
    reader = SessionSecrets(str(tmp_path / "m"))
    assert reader.mask("s", f"x {last} y")[0] == "x [REDACTED:secret] y"
    assert reader.mask("s", f"x {first} y")[0] == f"x {first} y"  # the oldest were dropped
    memory.forget("s")
    assert SessionSecrets(str(tmp_path / "m")).mask("s", f"x {last} y")[0] == f"x {last} y"
    forget_all(str(tmp_path / "m"))
    assert not (tmp_path / "m").exists()


def test_a_damaged_or_foreign_memory_file_masks_nothing_and_never_raises(tmp_path: Path) -> None:
    directory = tmp_path / "m"
    memory = SessionSecrets(str(directory), writes=True)
    memory.remember("s", {"Sup3rS3cretValue": "password"})
    for f in directory.iterdir():
        f.write_bytes(b"\xff\x00garbage\n" * 3)
    reader = SessionSecrets(str(directory))
    assert reader.mask("s", "Sup3rS3cretValue")[0] == "Sup3rS3cretValue"
    SessionSecrets(str(directory), writes=True).remember("s", {"AnotherS3cretValue": "secret"})


def test_values_are_collected_only_when_asked() -> None:
    scrub_secrets("API_TOKEN=Zx81kQ0pLm3N7vB2")
    assert take_found() == {}
    collect_found()
    scrub_secrets("API_TOKEN=Zx81kQ0pLm3N7vB2")
    assert take_found() == {"Zx81kQ0pLm3N7vB2": "token"}
    assert take_found() == {}


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200), st.text(min_size=8, max_size=40))
def test_any_text_is_masked_safely(text: str, value: str) -> None:
    memory = SessionSecrets(None)
    memory.remember("s", {value: "secret"})
    out, kinds = memory.mask("s", text)
    assert isinstance(out, str)
    if value not in text:
        assert out == text or kinds
    if value.strip() == value and value in candidates(f" {value} "):
        assert value not in memory.mask("s", f"see {value} here")[0]


def test_a_hostile_session_id_stays_inside_the_memory_directory(tmp_path: Path) -> None:
    directory = tmp_path / "m"
    memory = SessionSecrets(str(directory), writes=True)
    for session in ("../../escape", "a/b\\c", "\x00\ud800nul", "x" * 10_000):
        memory.remember(session, {"Zx81kQ0pLm3N7vB2qW": "token"})
        assert memory.mask(session, "use Zx81kQ0pLm3N7vB2qW now")[0] == "use [REDACTED:token] now"
    assert sorted(p.parent for p in tmp_path.rglob("*") if p.is_file()) == [directory] * 5

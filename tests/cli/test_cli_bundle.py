"""export and import through the real CLI: identical round trips, idempotence, atomicity."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run

NOW = 1_767_225_600_000


@pytest.fixture
def source(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KINDLING_NOW", str(NOW))
    cap = run("capsule", "open", "--intent", "ship it", "--session", "s1", "--repo", "w")
    obs = run("log", "KeyError user_id", "--kind", "error", "--session", "s1").stdout.strip()
    run("log", "npm test", "--kind", "command", "--session", "s1")
    run("log", "other repo", "--repo", "x")
    run("pin", "observation", obs, "--reason", "repro")
    run("capsule", "close", cap.stdout.strip(), "--summary", "shipped", "--evidence", obs)


def _without_time(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    data.pop("exportedAt")
    data["dataset"].pop("exportedAt")
    return data


def _rows(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        tables = ("observations", "capsules", "capsule_observations", "summaries", "pins")
        return sum(conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in tables)


def test_export_import_export_is_identical(source: None, tmp_path: Path) -> None:
    first, second, copy = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "copy.db"
    out = run("export", str(first))
    assert out.code == 0
    assert "exported 3 observations, 1 capsule, 1 summary, 1 pin" in out.stdout
    imported = run("--db", str(copy), "import", str(first), "--json").json()
    assert imported["added"] == {"observations": 3, "capsules": 1, "summaries": 1, "pins": 1}
    assert run("--db", str(copy), "export", str(second)).code == 0
    assert _without_time(first) == _without_time(second)
    assert first.read_text().replace(str(NOW), "") == second.read_text().replace(str(NOW), "")


def test_importing_twice_adds_nothing(source: None, tmp_path: Path) -> None:
    bundle, copy = tmp_path / "a.json", tmp_path / "copy.db"
    run("export", str(bundle))
    run("--db", str(copy), "import", str(bundle))
    before = _rows(copy)
    again = run("--db", str(copy), "import", str(bundle), "--json").json()
    assert sum(again["added"].values()) == 0
    assert again["linksAdded"] == 0
    assert _rows(copy) == before


def test_scoped_export_and_stdout(source: None) -> None:
    out = run("export", "-", "--repo", "x")
    data = json.loads(out.stdout)
    assert data["bundleVersion"] == "1.0"
    assert [o["content"] for o in data["dataset"]["observations"]] == ["other repo"]


def test_dry_run_writes_nothing(source: None, tmp_path: Path) -> None:
    bundle, copy = tmp_path / "a.json", tmp_path / "copy.db"
    run("export", str(bundle))
    out = run("--db", str(copy), "import", str(bundle), "--dry-run")
    assert out.code == 0
    assert out.stdout.startswith("would add 3 observations")
    assert _rows(copy) == 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"bundleVersion": "9"}', "unsupported bundleVersion"),
        ('{"bundleVersion": "1.0", "exportedAt": 1}', "no dataset"),
        ("[]", "JSON object"),
    ],
)
def test_invalid_bundles_fail_cleanly(tmp_path: Path, text: str, message: str) -> None:
    bad, copy = tmp_path / "bad.json", tmp_path / "copy.db"
    bad.write_text(text, encoding="utf-8")
    out = run("--db", str(copy), "import", str(bad), "--json")
    assert out.code == 1
    assert out.json()["error"]["code"] == "invalid_input"
    assert message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_a_bundle_failing_half_way_writes_nothing(source: None, tmp_path: Path) -> None:
    bundle, copy = tmp_path / "a.json", tmp_path / "copy.db"
    run("export", str(bundle))
    data = json.loads(bundle.read_text())
    data["dataset"]["summaries"][0]["capsuleId"] = "no-such-capsule"
    bundle.write_text(json.dumps(data))
    out = run("--db", str(copy), "import", str(bundle))
    assert out.code == 1
    assert "no-such-capsule" in out.stderr
    assert _rows(copy) == 0


def test_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    out = run("import", str(tmp_path / "nope.json"))
    assert out.code == 2
    assert "does not exist" in out.stderr


def test_export_into_a_missing_directory_fails_without_a_file(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "b.json"
    out = run("export", str(target))
    assert out.code == 1
    assert not target.exists()
    assert "Traceback" not in out.stderr


def test_import_reads_stdin_for_dash(source: None, tmp_path: Path) -> None:
    text = run("export", "-").stdout
    out = run("--db", str(tmp_path / "copy.db"), "import", "-", "--json", stdin=text)
    assert out.code == 0
    assert out.json()["added"]["observations"] == 3


def test_exported_file_is_private(source: None, tmp_path: Path) -> None:
    target = tmp_path / "b.json"
    run("export", str(target))
    assert target.stat().st_mode & 0o077 == 0

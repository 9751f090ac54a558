"""One canonical spelling of a local path for every adapter: ``config.canonical_path``."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from kindling import config
from kindling.bridge.contract import canonical_workspace
from kindling.cli.shared import canonical_repo
from tests.support.bridge import BIN, kindling
from tests.support.paths import ROOT

SRC = ROOT / "src" / "kindling"
# Paths that are not ids: the executable a hook command runs, the database file's own path.
NOT_IDS = {
    "agents/base.py",
    "agents/claude_code.py",
    "store/sqlite/purge.py",  # the database file (who holds its WAL), not an id
    "cli/commands/export.py",
    "engine/reads.py",  # the database file of `status`
    "semantic/install.py",  # a model's folder, checked to lie inside the models folder
}


def test_adapters_spell_a_directory_the_same_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = tmp_path / "real"
    (real / "sub").mkdir(parents=True)
    link = tmp_path / "link"
    link.symlink_to(real)
    monkeypatch.setenv("HOME", str(tmp_path))
    for spelling in (str(link / "sub"), "~/link/sub", str(real / "sub" / ".." / "sub")):
        expected = str(real / "sub")
        assert config.canonical_path(spelling) == expected
        assert canonical_workspace(spelling) == expected  # bridge
        assert config.repo_root(spelling) == expected  # hooks and MCP (no .git above)
        assert canonical_repo(spelling) == expected  # CLI --repo


def test_the_git_root_is_found_the_same_way(tmp_path: Path) -> None:
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / "sub").mkdir()
    sub = str(tmp_path / "repo" / "sub")
    root = str(tmp_path / "repo")
    # one repository, one id: the bridge's workspace is the root too (issue 13's /repo/sub case)
    assert config.repo_root(sub) == canonical_repo(sub) == canonical_workspace(sub) == root


@pytest.mark.slow  # three real CLI processes (the bridge and `kindling search`)
def test_a_bridge_memory_of_a_subdirectory_is_found_by_search_repo(tmp_path: Path) -> None:
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    sub = tmp_path / "repo" / "sub"
    sub.mkdir()
    env = {**os.environ, "KINDLING_DB": str(tmp_path / "k.db"), "KINDLING_HOME": str(tmp_path)}
    memory = {"topic": "cache policy", "context": "Decision: the session cache lives in Redis"}
    ingested = kindling("bridge", "ingest", str(sub), env=env, stdin=json.dumps(memory).encode())
    assert ingested.code == 0, ingested.stderr
    found = subprocess.run(
        [str(BIN / "kindling"), "search", "session cache", "--repo", str(sub), "--json"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    texts = json.dumps(json.loads(found.stdout))
    assert "lives in Redis" in texts
    back = kindling("bridge", "retrieve", str(tmp_path / "repo"), "session cache", env=env)
    assert back.out["total_results"] == 1  # the root and the subdirectory are one workspace


def test_no_other_module_canonicalises_an_id() -> None:
    spellings = re.compile(r"realpath\(|\.resolve\(\)")
    found = {
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if spellings.search(p.read_text(encoding="utf-8"))
    }
    assert found - NOT_IDS == {"config.py"}

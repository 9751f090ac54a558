"""scripts/tests_by_layer.py, the move of the tests into folders by layer: every test module
has a folder, and the script, run twice on a small repository, moves and rewrites once."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.paths import ROOT, TESTS


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "tests_by_layer", ROOT / "scripts" / "tests_by_layer.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tests_by_layer"] = module
    spec.loader.exec_module(module)
    return module


def test_every_test_module_has_a_folder() -> None:
    script = load()
    known = set(script.moves())
    placed = {new for _folder, new in script.moves().values()}
    stems = {p.stem for p in TESTS.rglob("test_*.py")}
    assert not stems - known - placed, "add these to LAYERS in scripts/tests_by_layer.py"


def test_no_two_modules_land_on_one_name() -> None:
    targets = list(load().moves().values())
    assert len(targets) == len(set(targets))


HELPER = '''"""A helper."""

from pathlib import Path

DATA = Path({file}).parent / "data"
'''

TEST = '''"""Retrieval, once named after a version."""

from __future__ import annotations

from pathlib import Path

from {tests}.pgutil import DATA
from {tests}.test_agents_cli import CLIS

ROOT = Path({file}).resolve().parents[1]
DOCS = ROOT / "docs"


def test_it() -> None:
    assert DATA and CLIS and DOCS
'''

# The old spellings, put together at run time: the script rewrites them wherever they are
# written, this file included.
OLD = {"tests": "tests", "file": "__file__"}


def git(repo: Path, *args: str) -> str:
    proc = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                          check=True)  # fmt: skip
    return proc.stdout


def test_the_script_moves_once_and_rewrites_every_spelling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "docs").mkdir()
    (repo / "tests" / "__init__.py").write_text("")
    (repo / "tests" / "pgutil.py").write_text(HELPER.format(**OLD))
    (repo / "tests" / "test_retrieval_v2.py").write_text(TEST.format(**OLD))
    (repo / "tests" / "test_agents_cli.py").write_text("CLIS = 1\n")
    (repo / "docs" / "x.md").write_text(
        "See {tests}/test_retrieval_v2.py and {tests}/pgutil.py.\n".format(**OLD)
    )
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start")
    script = load()
    monkeypatch.setattr(script, "ROOT", repo)
    monkeypatch.setattr(script, "TESTS", repo / "tests")
    monkeypatch.setattr(script, "SUPPORT", repo / "tests" / "support")
    monkeypatch.setattr(script, "tidy", lambda changed: None)

    assert script.main([]) == 0
    moved = repo / "tests" / "retrieval" / "test_relevance_and_context.py"
    text = moved.read_text()
    assert "from tests.support.pg import DATA" in text
    assert "from tests.agents.test_agents_cli import CLIS" in text
    assert "from tests.support.paths import ROOT" in text
    assert "__file__" not in text
    helper = (repo / "tests" / "support" / "pg.py").read_text()
    assert 'DATA = TESTS / "data"' in helper
    assert (repo / "docs" / "x.md").read_text() == (
        "See tests/retrieval/test_relevance_and_context.py and tests/support/pg.py.\n"
    )
    assert (repo / "tests" / "agents" / "__init__.py").exists()
    first = {
        p: p.read_text() for p in sorted(repo.rglob("*")) if p.is_file() and ".git" not in p.parts
    }

    assert script.main([]) == 0  # again: nothing changes
    second = {
        p: p.read_text() for p in sorted(repo.rglob("*")) if p.is_file() and ".git" not in p.parts
    }
    assert second == first


def test_an_unknown_test_module_is_named_not_guessed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "tests" / "test_brand_new.py").write_text("")
    git(repo, "init", "-q")
    script = load()
    monkeypatch.setattr(script, "ROOT", repo)
    monkeypatch.setattr(script, "TESTS", repo / "tests")
    monkeypatch.setattr(script, "SUPPORT", repo / "tests" / "support")
    monkeypatch.setattr(script, "tidy", lambda changed: None)
    assert script.main([]) == 1
    assert "test_brand_new.py" in capsys.readouterr().err
    assert (repo / "tests" / "test_brand_new.py").exists()


def test_prose_made_too_long_is_rewrapped_and_code_is_not(tmp_path: Path) -> None:
    long_doc = "word " * 19 + "tests/retrieval/test_relevance_and_context.py"
    long_code = "X = " + repr("y" * 110) + "  # a comment"
    source = tmp_path / "m.py"
    source.write_text(f'"""{long_doc}"""\n\n# {long_doc}\n{long_code}\n')
    load().rewrap(source)
    lines = source.read_text().splitlines()
    assert lines[0].startswith('"""word')
    assert len(lines[0]) <= 100
    assert lines[1] == 'tests/retrieval/test_relevance_and_context.py"""'
    assert lines[3].startswith("# word")
    assert len(lines[3]) <= 100
    assert lines[4] == "# tests/retrieval/test_relevance_and_context.py"
    assert lines[5] == long_code

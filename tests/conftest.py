"""Shared fixtures: every test gets its own temporary database and Kindling home."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from kindling import Kindling

# A copy of shared/fixtures/kindling-v5-sample.db (written by the TypeScript Kindling), kept in
# the repository so the upgrade tests never depend on what sits next to the checkout.
FIXTURE_DB = Path(__file__).parent / "fixtures" / "kindling-v5-sample.db"


def pytest_report_header() -> str:
    return f"sqlite {sqlite3.sqlite_version}"


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point every user-state location at a temp dir, so no test touches real data."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("KINDLING_HOME", str(home / ".kindling"))
    monkeypatch.setenv("KINDLING_DB", str(home / ".kindling" / "kindling.db"))
    monkeypatch.delenv("KINDLING_NOW", raising=False)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "kindling.db"


class FakeClock:
    """A controllable clock in epoch ms."""

    def __init__(self, start: int = 1_767_225_600_000) -> None:
        self.now = start

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> int:
        self.now += ms
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def kd(db_path: Path, clock: FakeClock) -> Iterator[Kindling]:
    with Kindling.open(db_path, clock=clock) as k:
        yield k


@pytest.fixture
def fixture_db(tmp_path: Path) -> Path:
    """A private copy of the TypeScript tool's v5 database (never write to the original)."""
    target = tmp_path / "v5.db"
    shutil.copyfile(FIXTURE_DB, target)
    return target


@pytest.fixture
def git_repo(tmp_path: Path) -> Path:
    """A fresh ``git init`` repository (its canonical path)."""
    import subprocess

    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return repo.resolve()

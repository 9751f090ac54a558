"""A test run keeps its temporary files to itself: nothing is left in the system's temp dir.

``conftest._isolated_tempdir`` points ``tempfile`` and ``$TMPDIR`` at a folder of pytest's base
temp dir for the whole run. The leak it closes was ``kindling demo`` without ``--db``: it makes a
``kindling-demo-*`` folder (on purpose: the user explores it afterwards) that the demo's tests
left in ``/tmp`` on every run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.support.cli import run, run_process
from tests.support.paths import ROOT


def test_the_runs_temp_dir_is_its_own(tmp_path_factory: pytest.TempPathFactory) -> None:
    temp = Path(tempfile.gettempdir())
    assert os.environ["TMPDIR"] == str(temp)
    assert temp.is_relative_to(tmp_path_factory.getbasetemp())


def test_the_demo_makes_its_folder_in_the_runs_temp_dir() -> None:
    temp = Path(tempfile.gettempdir())
    for result in (run("demo", "--json"), run_process("demo", "--json")):
        assert result.code == 0, result.stderr
        folder = Path(result.json()["database"]).parent
        assert folder.parent == temp
        assert folder.name.startswith("kindling-demo-")


@pytest.mark.slow
def test_a_run_of_the_demo_tests_leaves_nothing_in_the_system_temp_dir(tmp_path: Path) -> None:
    """The demo's own tests, run by pytest with an empty folder as the system's temp dir and the
    base temp dir elsewhere: the folder is still empty afterwards."""
    system = tmp_path / "system-temp"
    system.mkdir()
    env = {**os.environ, "TMPDIR": str(system)}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--basetemp",
            str(tmp_path / "base"),
            "tests/cli/test_cli_demo.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert sorted(p.name for p in system.iterdir()) == []

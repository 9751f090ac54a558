"""Helpers for CLI tests: run the real ``kindling`` command against a real temp database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from kindling.cli.app import cli

KINDLING = Path(sys.executable).with_name("kindling")


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def run(
    *args: str, stdin: str | None = None, color: bool = False, env: dict[str, str] | None = None
) -> Run:
    """Invoke the click application in-process (same code path as the installed script)."""
    runner = CliRunner()
    result = runner.invoke(
        cli,
        list(args),
        input=stdin,
        color=color,
        env=env,
        catch_exceptions=False,
        prog_name="kindling",
    )
    return Run(result.exit_code, result.stdout, result.stderr)


def run_process(*args: str, stdin: str | None = None, cwd: Path | None = None) -> Run:
    """Run the installed ``kindling`` script as a separate process."""
    proc = subprocess.run(
        [str(KINDLING), *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=dict(os.environ),
        timeout=120,
        check=False,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)

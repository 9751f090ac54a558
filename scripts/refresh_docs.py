"""Re-run the commands whose real output docs/cli.md and README.md show, and write it in.

``tests/docs/test_cli_docs.py`` fails when the documented output drifts; this script is the fix:
``.venv/bin/python scripts/refresh_docs.py``. It only replaces the fenced output that follows
``$ kindling demo`` and the documented ``kindling search`` example in docs/cli.md, and in
README.md the excerpt of the demo (as many lines as it shows) and ``kindling init
--claude-code`` run in a fresh home (shown as ``~``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEARCH = 'kindling search "flaky logout" --repo /home/dev/webapp --limit 2 --explain'


def _run(*args: str, env: dict[str, str] | None = None) -> str:
    full = {**os.environ, "COLUMNS": "100", **(env or {})}
    return subprocess.run(
        [str(Path(sys.executable).with_name("kindling")), *args],
        check=True, capture_output=True, text=True, env=full,
    ).stdout  # fmt: skip


def _replace_fence(text: str, command: str, output: str) -> str:
    start = text.index(f"$ {command}\n") + len(command) + 3
    return text[:start] + output + text[text.index("```", start) :]


def main() -> None:
    demo = re.sub(r"/\S*kindling-demo-[^/\s]+/", "/tmp/kindling-demo-x1y2z3/", _run("demo"))
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "demo.db")
        _run("demo", "--db", db)
        args = ["--db", db, "search", "flaky logout", "--repo", "/home/dev/webapp"]
        search = _run(*args, "--limit", "2", "--explain", env={"KINDLING_NOW": "1773327600000"})
    path = ROOT / "docs" / "cli.md"
    text = _replace_fence(path.read_text(encoding="utf-8"), "kindling demo", demo)
    path.write_text(_replace_fence(text, SEARCH, search), encoding="utf-8")
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    start = text.index("```console\n") + len("```console\n")
    shown = text[start : text.index("```", start)].count("\n")
    first = demo.index("1. Resume work")
    excerpt = "".join(demo[first:].splitlines(keepends=True)[:shown])
    text = text[:start] + excerpt + text[text.index("```", start) :]
    readme.write_text(_replace_fence(text, "kindling init --claude-code", _first_session()))


def _first_session() -> str:
    """``kindling init --claude-code`` in ~/src/webapp of a fresh home, paths shown from ~."""
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp).resolve()
        repo = home / "src" / "webapp"
        repo.mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        env = {"HOME": str(home), "KINDLING_HOME": str(home / ".kindling")}
        env["KINDLING_DB"] = str(home / ".kindling" / "kindling.db")
        out = subprocess.run(
            [str(Path(sys.executable).with_name("kindling")), "init", "--claude-code"],
            check=True, capture_output=True, text=True, cwd=repo, env={**os.environ, **env},
        ).stdout  # fmt: skip
        return out.replace(str(home), "~")


if __name__ == "__main__":
    main()

"""Every command has help with an example and a section in docs/cli.md (docs cannot drift)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import click
import pytest

from kindling.cli.app import cli
from tests.support.cli import run, run_process
from tests.support.paths import ROOT

DOCS = ROOT / "docs" / "cli.md"


def _commands() -> list[tuple[str, ...]]:
    """Every command path: top-level commands and the subcommands of groups."""
    ctx = click.Context(cli)
    paths: list[tuple[str, ...]] = []
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        assert command is not None, name
        paths.append((name,))
        if isinstance(command, click.Group):
            paths += [(name, sub) for sub in command.list_commands(ctx)]
    return paths


def _top_level() -> list[str]:
    return sorted({p[0] for p in _commands()})


def test_commands_are_discovered() -> None:
    found = _top_level()
    for name in ("log", "capsule", "search", "list", "show", "pin", "unpin", "forget"):
        assert name in found
    for name in ("status", "export", "import", "demo"):
        assert name in found


# These speak a protocol of their own on stdout (seed 002's JSON object, MCP's JSON-RPC, the
# agent's hook protocol): their output is always machine-readable, so `--json` has no meaning.
PROTOCOL_COMMANDS = {"bridge", "mcp", "hook", "serve"}


def _example(path: tuple[str, ...]) -> str | None:
    out = run(*path, "--help")
    assert out.code == 0, out.stderr
    assert out.stdout.startswith(f"Usage: kindling {' '.join(path)}")
    if "Example" not in out.stdout:
        return None
    return out.stdout.split("Example", 1)[1]


@pytest.mark.parametrize("path", _commands(), ids=" ".join)
def test_every_command_has_help_with_an_example(path: tuple[str, ...]) -> None:
    """A subcommand may rely on its group's example (``kindling capsule --help`` shows both)."""
    example = _example(path) or (_example(path[:1]) if len(path) > 1 else None)
    assert example is not None, f"`kindling {' '.join(path)} --help` shows no example"
    assert f"kindling {path[0]}" in example


@pytest.mark.parametrize("name", _top_level())
def test_every_command_is_documented(name: str) -> None:
    headings = re.findall(r"^## kindling (\S+)", DOCS.read_text(encoding="utf-8"), re.M)
    assert name in headings, f"docs/cli.md has no '## kindling {name}' section"


def test_every_command_takes_json() -> None:
    ctx = click.Context(cli)
    for path in _commands():
        command: click.Command | None = cli
        for part in path:
            assert isinstance(command, click.Group)
            command = command.get_command(ctx, part)
        assert command is not None
        if isinstance(command, click.Group) or path[0] in PROTOCOL_COMMANDS:
            continue
        names = {opt for p in command.params for opt in getattr(p, "opts", [])}
        assert "--json" in names, f"kindling {' '.join(path)} has no --json"


def _fence_after(command: str) -> str:
    """The console output documented right after ``$ <command>`` in docs/cli.md."""
    text = DOCS.read_text(encoding="utf-8")
    start = text.index(f"$ {command}\n") + len(command) + 3
    return text[start : text.index("```", start)]


def test_documented_demo_output_is_the_real_output(tmp_path: Path) -> None:
    out = run("demo", env={"COLUMNS": "100"})
    assert out.code == 0
    real = re.sub(r"/\S*kindling-demo-[^/\s]+/", "/tmp/kindling-demo-x1y2z3/", out.stdout)
    assert _fence_after("kindling demo") == real, "re-run `kindling demo` into docs/cli.md"


def test_documented_search_output_is_the_real_output(tmp_path: Path) -> None:
    db = str(tmp_path / "demo.db")
    assert run("demo", "--db", db).code == 0
    command = 'kindling search "flaky logout" --repo /home/dev/webapp --limit 2 --explain'
    args = command.split(" ", 1)[1].replace('"flaky logout"', "flaky\x00logout").split(" ")
    args = [a.replace("\x00", " ") for a in args]
    out = run("--db", db, *args, env={"COLUMNS": "100", "KINDLING_NOW": "1773327600000"})
    assert out.code == 0
    assert _fence_after(command) == out.stdout


def _readme_fence_after(line: str) -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index(line + "\n") + len(line) + 1
    return readme[start : readme.index("```", start)]


def test_readme_demo_excerpt_is_the_real_output() -> None:
    shown = _readme_fence_after("```console")
    out = run("demo", env={"COLUMNS": "100"})
    assert out.code == 0
    assert shown.startswith("1. Resume work")
    assert shown in out.stdout, "copy the start of `kindling demo`'s first answer into README.md"


def test_readme_first_session_is_the_real_output(tmp_path: Path) -> None:
    """The README's first session: ``kindling init --claude-code`` as a user sees it."""
    home = Path(os.environ["HOME"])
    repo = home / "src" / "webapp"
    repo.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    out = run_process("init", "--claude-code", cwd=repo)
    assert out.code == 0, out.stderr
    shown = _readme_fence_after("$ kindling init --claude-code")
    assert shown == out.stdout.replace(str(home), "~"), "re-run it into README.md"

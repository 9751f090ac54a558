"""``kindling init``: create the database, and optionally wire Kindling into Claude Code.

A thin adapter over ``Kindling.open`` (which creates and migrates the database) and
``kindling.hooks.settings`` (which merges hooks into a settings file).

Must not be imported by the core.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from kindling import KindlingError
from kindling.cli.app import State, emit_json, fail, json_option, pass_state


@click.command("init")
@click.option(
    "--claude-code",
    "claude_code",
    is_flag=True,
    help="Also install Kindling's hooks into Claude Code's settings.",
)
@click.option(
    "--scope",
    type=click.Choice(["project", "user"]),
    default="project",
    show_default=True,
    help="project: <repo>/.claude/settings.json; user: ~/.claude/settings.json.",
)
@click.option(
    "--uninstall",
    is_flag=True,
    help="With --claude-code: remove exactly the hooks Kindling added (the database stays).",
)
@json_option
@pass_state
def command(state: State, claude_code: bool, scope: str, uninstall: bool, as_json: bool) -> None:
    """Create the database (idempotent) and print where it is.

    \b
    Example:
      kindling init                              # just the database
      kindling init --claude-code                # memory on for Claude Code, this repository
      kindling init --claude-code --scope user   # ... for every repository of this user
      kindling init --claude-code --uninstall    # take Kindling's hooks out again

    The settings file keeps every other key; the old file is backed up next to it
    (settings.json.kindling-backup-<time>) before any change, and a file that is not valid
    JSON is refused, never overwritten.
    """
    if uninstall and not claude_code:
        raise click.UsageError("--uninstall goes with --claude-code")
    from kindling.hooks import settings

    try:
        report: dict[str, Any] = {}
        if not uninstall:
            with state.open():
                pass
            report["db"] = str(state.db)
        if claude_code:
            path = settings.settings_path("user" if scope == "user" else "project")
            change = settings.uninstall(path) if uninstall else settings.install(path)
            report["settings"] = {
                "path": str(change.path),
                "changed": change.changed,
                "backup": str(change.backup) if change.backup else None,
                "events": list(change.events),
                "action": "uninstall" if uninstall else "install",
            }
    except KindlingError as exc:
        fail(exc, as_json=as_json)
    if as_json:
        emit_json(report)
        return
    if "db" in report:
        click.echo(f"Database: {report['db']}")
    if claude_code:
        _describe(report["settings"], uninstall)


def _describe(info: dict[str, Any], uninstall: bool) -> None:
    path = Path(info["path"])
    if not info["changed"]:
        state = "not installed" if uninstall else "already installed"
        click.echo(f"Claude Code hooks: {state} in {path} (nothing changed)")
        return
    verb = "removed from" if uninstall else "installed in"
    click.echo(f"Claude Code hooks {verb} {path}: {', '.join(info['events'])}")
    if info["backup"]:
        click.echo(f"Previous settings saved as {info['backup']}")
    if not uninstall:
        click.echo("Start a new Claude Code session in this repository to use them.")

"""The click application: global options, lazy command discovery, error rendering.

Each command lives in ``kindling/cli/commands/<name>.py`` and exposes ``command``, a
``click.Command`` (underscores in the module name become dashes in the command name). The group
imports a command's module only when it runs, or when help lists it.

Error contract: exit 0 on success, 1 on a runtime error (``KindlingError``), 2 on a usage error
(click). A one-line message goes to stderr; with ``--json`` a JSON error object
``{"error": {"code": ..., "message": ...}}`` also goes to stdout. Never a traceback for a user's
mistake.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from kindling import Kindling, KindlingError, __version__
from kindling.cli import commands as _commands
from kindling.config import DEFAULT_DB, default_db_path

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class State:
    """What every command gets: where the database is, and how to open it."""

    db: Path

    def open(self) -> Kindling:
        return Kindling.open(self.db)


pass_state = click.make_pass_decorator(State)


def json_option(f: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")(f)


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, sort_keys=False, indent=2))


def fail(error: KindlingError, *, as_json: bool) -> NoReturn:
    """Render a library error the way every command does, then exit 1."""
    if as_json:
        emit_json({"error": error.to_dict()})
    click.echo(f"kindling: {error.message}", err=True)
    sys.exit(1)


class LazyGroup(click.Group):
    """Finds commands in ``kindling.cli.commands`` and imports them on demand."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = [m.name for m in pkgutil.iter_modules(_commands.__path__)]
        return sorted(n.replace("_", "-") for n in names if not n.startswith("_"))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.list_commands(ctx):
            return None
        module = importlib.import_module(f"kindling.cli.commands.{cmd_name.replace('-', '_')}")
        command: click.Command = module.command
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help=f"Database file (default: $KINDLING_DB, else {DEFAULT_DB}).",
)
@click.version_option(__version__, prog_name="kindling")
@click.pass_context
def cli(ctx: click.Context, db: Path | None) -> None:
    """Kindling: local memory for AI coding agents.

    Capture what happened, pin what matters, and ask what you need to know now.

    \b
    Example:
      kindling demo
      kindling log "pytest fails: KeyError 'user_id'" --kind error --repo .
      kindling search "why does the login fail" --repo .
    """
    ctx.obj = State(db=(db.expanduser() if db else default_db_path()))

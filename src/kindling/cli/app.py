"""The click application: global options, lazy command discovery, error rendering.

Each command lives in ``kindling/cli/commands/<name>.py`` and exposes ``command``, a
``click.Command`` (underscores in the module name become dashes in the command name; a trailing
underscore is dropped, so ``import_.py`` is ``kindling import``). The group imports a command's
module only when it runs, or when help lists it.

Error contract: exit 0 on success, 1 on a runtime error (``KindlingError``), 2 on a usage error
(click). A one-line message goes to stderr; with ``--json`` a JSON error object
``{"error": {"code": ..., "message": ...}}`` also goes to stdout (code ``usage`` for usage
errors). Never a traceback for a user's mistake.

``KINDLING_NOW`` (epoch ms), when set, is the clock of every command: written timestamps, pin
expiry and relative times. Tests and the demo use it to get the same output on every run.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sqlite3
import sys
from pathlib import Path
from typing import Any

import click

import kindling.cli.commands as _commands
from kindling import StoreError, __version__
from kindling.cli.state import State, emit_json, fail
from kindling.config import DEFAULT_DB, default_db_path, is_postgres_url, setting
from kindling.errors import InvalidInputError
from kindling.model.sanitize import MAX_TS


class LazyGroup(click.Group):
    """Finds commands in ``kindling.cli.commands`` and imports them on demand."""

    @staticmethod
    def _modules() -> dict[str, str]:
        """command name -> module name (``import_`` -> ``import``: keywords need the ``_``)."""
        names = [m.name for m in pkgutil.iter_modules(_commands.__path__)]
        return {n.rstrip("_").replace("_", "-"): n for n in names if not n.startswith("_")}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self._modules())

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module_name = self._modules().get(cmd_name)
        if module_name is None:
            return None
        module = importlib.import_module(f"kindling.cli.commands.{module_name}")
        command: click.Command = module.command
        return command

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """click's main, with usage errors as one line (and JSON under ``--json``), exit 2."""
        argv = kwargs.get("args")
        if argv is None:
            argv = args[0] if args else sys.argv[1:]
        kwargs["standalone_mode"] = False
        try:
            code = super().main(*args, **kwargs)
        except click.ClickException as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # click >= 8.2: bare `kindling`
                click.echo(exc.format_message())
                sys.exit(0)
            _report_click_error(exc, as_json="--json" in list(argv))
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("kindling: aborted", err=True)
            sys.exit(1)
        except sqlite3.DatabaseError as exc:  # a damaged file, read outside the store's wrapping
            fail(StoreError(f"database error: {str(exc).splitlines()[0][:200]}"), as_json=False)
        except BrokenPipeError:
            # `kindling list | head`: the reader left; that is not an error worth a traceback.
            sys.stderr.close()
            sys.exit(0)
        sys.exit(code if isinstance(code, int) else 0)


def _report_click_error(exc: click.ClickException, *, as_json: bool) -> None:
    message = exc.format_message().replace("\n", " ").strip()
    ctx = getattr(exc, "ctx", None)
    if isinstance(exc, click.UsageError):
        path = ctx.command_path if ctx is not None else "kindling"
        message = f"{message} (see '{path} --help')"
    if as_json:
        code = "usage" if isinstance(exc, click.UsageError) else InvalidInputError.code
        emit_json({"error": {"code": code, "message": message}})
    click.echo(f"kindling: {message}", err=True)


def _env_now() -> int | None:
    raw = os.environ.get("KINDLING_NOW")
    if raw is None or not raw.strip():
        return None
    try:
        value = int(raw)
    except ValueError:
        raise click.UsageError(f"KINDLING_NOW must be epoch milliseconds, got {raw!r}") from None
    if not 0 <= value <= MAX_TS:
        raise click.UsageError(f"KINDLING_NOW must be between 0 and {MAX_TS}, got {value}")
    return value


class DatabaseParam(click.Path):
    """A database file (checked like ``click.Path``), or a ``postgresql://`` URL kept as is."""

    def __init__(self) -> None:
        super().__init__(dir_okay=False, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if is_postgres_url(value):
            return value
        return super().convert(value, param, ctx)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    type=DatabaseParam(),
    metavar="PATH|URL",
    default=None,
    help=f"Database file or postgresql:// URL (default: $KINDLING_DB, else {DEFAULT_DB}).",
)
@click.option(
    "--url",
    metavar="URL",
    default=None,
    help="Remote mode: a 'kindling serve' URL (default: $KINDLING_URL).",
)
@click.option(
    "--token",
    metavar="TOKEN",
    default=None,
    help="Remote mode: the bearer token (default: $KINDLING_TOKEN).",
)
@click.version_option(__version__, prog_name="kindling")
@click.pass_context
def cli(ctx: click.Context, db: str | Path | None, url: str | None, token: str | None) -> None:
    """Kindling: local memory for AI coding agents.

    Capture what happened, pin what matters, and ask what you need to know now.

    \b
    Example:
      kindling demo
      kindling log "pytest fails: KeyError 'user_id'" --kind error --repo .
      kindling search "why does the login fail" --repo .
    """
    # The bridge answers every mistake, a bad KINDLING_NOW too, with its JSON error object.
    now = None if ctx.invoked_subcommand == "bridge" else _env_now()
    raw = db if db is not None else setting("KINDLING_DB")
    url_db = raw if isinstance(raw, str) and is_postgres_url(raw) else None
    path = db.expanduser() if isinstance(db, Path) else default_db_path()
    # --url and --token go before KINDLING_URL and KINDLING_TOKEN (entry.chosen reads those)
    ctx.obj = State(db=path, now=now, url=url_db, server_url=url, token=token)

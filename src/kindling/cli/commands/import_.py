"""``kindling import``: add a bundle's entities to the database, atomically and idempotently.

The module is ``import_`` because ``import`` is a Python keyword; the command is ``import``.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import click

from kindling.bundle import MAX_BUNDLE_BYTES, loads
from kindling.cli import render
from kindling.cli.shared import library_errors, progress_for
from kindling.cli.state import State, emit_json, json_option, pass_state
from kindling.errors import InvalidInputError


def _read(file: Path) -> str:
    """The bundle text, read up to ``MAX_BUNDLE_BYTES``: ``/dev/zero`` is refused, not read."""
    try:
        if str(file) == "-":
            data = sys.stdin.buffer.read(MAX_BUNDLE_BYTES + 1)
        else:
            with open(file, "rb") as fh:
                mode = os.fstat(fh.fileno()).st_mode
                if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):
                    raise InvalidInputError(
                        f"{file} is not a regular file; a bundle is a JSON file"
                    )
                data = fh.read(MAX_BUNDLE_BYTES + 1)
        if len(data) > MAX_BUNDLE_BYTES:
            raise InvalidInputError(
                f"{file} is larger than {MAX_BUNDLE_BYTES >> 20} MiB; a bundle is smaller"
            )
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInputError(f"{file} is not UTF-8 text; a bundle is a JSON file") from None
    except OSError as exc:
        raise click.FileError(str(file), hint=exc.strerror or str(exc)) from None


@click.command("import")
@click.argument(
    "file", type=click.Path(exists=True, dir_okay=False, allow_dash=True, path_type=Path)
)
@click.option("--dry-run", is_flag=True, help="Check the bundle and count; write nothing.")
@json_option
@pass_state
@library_errors
def command(state: State, /, file: Path, dry_run: bool, as_json: bool) -> None:
    """Add the entities of a bundle (from `kindling export`) that the database lacks.

    Entities are matched by id and never overwritten, so importing a bundle twice adds
    nothing. The whole bundle is checked first and written in one transaction: a bad bundle
    writes nothing. FILE '-' is stdin.

    \b
    Example:
      kindling import backup.json --dry-run
      kindling --db ./copy.db import backup.json
    """
    bundle = loads(_read(file))
    with state.open() as kd, progress_for(bundle.size(), "importing", quiet=as_json) as step:
        report = kd.import_bundle(bundle, dry_run=dry_run, progress=step)
    if as_json:
        emit_json({"file": str(file), **report.to_dict()})
        return
    verb = "would add" if dry_run else "added"
    added = ", ".join(render.counted(n, name) for name, n in report.added.items())
    click.echo(f"{verb} {added} ({render.counted(report.links_added, 'capsule links')})")
    present = sum(report.existing.values())
    if present:
        already = ", ".join(render.counted(n, k) for k, n in report.existing.items() if n)
        click.echo(f"already present: {already}")
    for note in report.skipped:
        click.echo(f"skipped: {note}", err=True)

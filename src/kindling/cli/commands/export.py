"""``kindling export``: write a bundle of the database (or of one scope) to a file.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import click

from kindling import Scope
from kindling.bundle import ENTITY_TYPES, dumps
from kindling.cli import render
from kindling.cli.shared import library_errors, progress_for, scope_of, scope_options
from kindling.cli.state import State, emit_json, json_option, pass_state
from kindling.memory import LocalMemory, Memory


def write_atomically(path: Path, text: str) -> None:
    """Write via a temp file beside the target and a rename, so a failed export never leaves
    half a bundle. A symlink is followed (its target gets the bundle); a target that exists
    and is not a regular file (a device, a directory, a pipe) is refused."""
    target = Path(os.path.realpath(path))
    if target.exists() and not target.is_file():
        raise click.FileError(str(path), hint="not a regular file; export writes only to files")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as exc:
        raise click.FileError(str(path), hint=exc.strerror or str(exc)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise click.FileError(str(path), hint=exc.strerror or str(exc)) from None


def _total(kd: Memory) -> int:
    """How many entities the store holds, for the progress bar (0, no bar, in remote mode:
    whole-store counts are the server's)."""
    if not isinstance(kd, LocalMemory):
        return 0
    stats = kd.stats()
    total = sum(stats.observations_by_kind.values()) + sum(stats.capsules_by_status.values())
    return total + stats.summaries + stats.pins


def _export(
    kd: Memory, scope: Scope, include_redacted: bool, now: int | None, *, quiet: bool
) -> dict[str, Any]:
    with progress_for(0 if quiet else _total(kd), "exporting", quiet=quiet) as step:
        return kd.export_bundle(
            scope=scope, include_redacted=include_redacted, exported_at=now, progress=step
        )


@click.command("export")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
@scope_options
@click.option("--include-redacted", is_flag=True, help="Also export redacted observations.")
@json_option
@pass_state
@library_errors
def command(state: State, /, file: Path, include_redacted: bool, as_json: bool, **kw: Any) -> None:
    """Write a JSON bundle (the TypeScript Kindling's format, bundleVersion 1.0) to FILE.

    Entities come oldest first with ties broken by id, so the same database always gives the
    same bundle apart from its export time. Redacted observations, and the pins and capsule
    links pointing at them, are left out unless --include-redacted. FILE '-' is stdout.

    \b
    Example:
      kindling export backup.json
      kindling export webapp.json --repo ~/src/webapp
    """
    scope = scope_of(kw)
    with state.open(create=False) as kd:
        bundle = _export(kd, scope, include_redacted, state.now, quiet=as_json)
    text = dumps(bundle)
    if str(file) == "-":
        sys.stdout.write(text)
        return
    write_atomically(file, text)
    counts = {name: len(bundle["dataset"][name]) for name in ENTITY_TYPES}
    if as_json:
        emit_json(
            {
                "file": str(file),
                "bundleVersion": bundle["bundleVersion"],
                "exportedAt": bundle["exportedAt"],
                "scope": bundle["dataset"]["scope"],
                "counts": counts,
            }
        )
    else:
        listed = ", ".join(render.counted(n, name) for name, n in counts.items())
        click.echo(f"exported {listed} to {file}")

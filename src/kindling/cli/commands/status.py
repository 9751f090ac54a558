"""``kindling status``: what is in the database, and where it is.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from kindling.cli import render
from kindling.cli.app import State, emit_json, json_option, pass_state
from kindling.cli.shared import library_errors

MAX_OPEN_SHOWN = 20


def file_bytes(db: Path) -> int:
    """The database and its WAL: what the store really occupies on disk."""
    return sum(p.stat().st_size for p in (db, db.with_name(db.name + "-wal")) if p.exists())


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    value = float(n)
    for unit in ("KiB", "MiB", "GiB"):
        value /= 1024
        if value < 1024 or unit == "GiB":
            break
    return f"{value:.1f} {unit}"


@click.command("status")
@json_option
@pass_state
@library_errors
def command(state: State, /, as_json: bool) -> None:
    """Counts by type and kind, open capsules, database path and size, schema version.

    \b
    Example:
      kindling status
      kindling --db ./team.db status --json
    """
    with state.open() as kd:
        stats = kd.stats()
        open_caps = kd.list_capsules(status="open", limit=MAX_OPEN_SHOWN)
    size = file_bytes(state.db)
    total_obs = sum(stats.observations_by_kind.values())
    doc: dict[str, Any] = {
        "database": str(state.db.resolve()),
        "sizeBytes": size,
        "schemaVersion": stats.schema_version,
        "observations": {
            "total": total_obs,
            "byKind": dict(sorted(stats.observations_by_kind.items())),
            "redacted": stats.redacted_observations,
        },
        "capsules": {
            "total": sum(stats.capsules_by_status.values()),
            "byStatus": dict(sorted(stats.capsules_by_status.items())),
        },
        "summaries": stats.summaries,
        "pins": stats.pins,
        "openCapsules": [c.to_dict() for c in open_caps],
    }
    if as_json:
        emit_json(doc)
        return
    now = state.clock()
    kinds = ", ".join(f"{k} {n}" for k, n in doc["observations"]["byKind"].items())
    statuses = ", ".join(f"{k} {n}" for k, n in doc["capsules"]["byStatus"].items())
    rows = [
        ["database", doc["database"]],
        ["size", _size(size)],
        ["schema", f"version {stats.schema_version}"],
        ["observations", f"{total_obs}" + (f" ({kinds})" if kinds else "")],
        ["redacted", str(stats.redacted_observations)],
        ["capsules", f"{doc['capsules']['total']}" + (f" ({statuses})" if statuses else "")],
        ["summaries", str(stats.summaries)],
        ["pins", str(stats.pins)],
    ]
    click.echo(render.table(["", ""], rows, width=10_000).split("\n", 1)[1])
    if open_caps:
        click.echo("")
        click.echo(render.heading("Open capsules"))
        for c in open_caps:
            when = render.relative(c.opened_at, now)
            click.echo(f"  {c.id}  {when:<11} {render.one_line(c.intent, 60)}")

"""``kindling status``: what is in the database, and where it is.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from kindling.cli import render
from kindling.cli.app import State, emit_json, json_option, pass_state
from kindling.cli.shared import library_errors
from kindling.model import Capsule
from kindling.remote.front import RemoteKindling
from kindling.semantic import api

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
    with state.open(create=False) as kd:
        if isinstance(kd, RemoteKindling):
            _remote(kd, as_json, state.clock())
            return
        stats = kd.stats()
        open_caps = kd.list_capsules(status="open", limit=MAX_OPEN_SHOWN)
        semantic = api.status(kd.store)
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
        "semantic": semantic.to_dict(),
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
        ["semantic", _semantic(semantic)],
    ]
    _print(rows, open_caps, now)


def _semantic(s: api.SemanticStatus) -> str:
    """Coverage of the semantic signal's vectors, and why it is off when it is."""
    cover = s.coverage
    counts = f"{cover.embedded} of {cover.total} embedded ({cover.share:.1%})" if cover else ""
    if s.active:
        return f"on, {s.model.key}: {counts}"
    why = (
        "extra not installed"
        if not s.extra
        else "model not installed: kindling semantic install"
        if not s.installed
        else "no vectors yet: kindling semantic index"
    )
    return f"off ({why})" + (f"; {counts}" if cover and cover.embedded else "")


def _print(rows: list[list[str]], open_caps: Sequence[Capsule], now: int) -> None:
    click.echo(render.table(["", ""], rows, width=10_000).split("\n", 1)[1])
    if open_caps:
        click.echo("")
        click.echo(render.heading("Open capsules"))
        for c in open_caps:
            when = render.relative(c.opened_at, now)
            click.echo(f"  {c.id}  {when:<11} {render.one_line(c.intent, 60)}")


def _remote(kd: RemoteKindling, as_json: bool, now: int) -> None:
    """Remote mode: the server's facts and the token user's open capsules. No counts and no
    file: the server's database is shared, and its totals are not one user's to see."""
    facts = kd.server_status()
    doc: dict[str, Any] = {
        "server": facts.url,
        "version": facts.version,
        "backend": facts.backend,
        "schemaVersion": facts.schema_version,
        "user": facts.user,
        "team": facts.team,
        "repos": list(facts.repos),
        "openCapsules": [c.to_dict() for c in facts.open_capsules],
    }
    if as_json:
        emit_json(doc)
        return
    rows = [
        ["server", doc["server"]],
        ["version", f"{doc['version']} ({doc['backend']})"],
        ["schema", f"version {doc['schemaVersion']}"],
        ["user", doc["user"]],
        ["team", doc["team"] or "none (personal token)"],
        ["repos", ", ".join(doc["repos"]) or "-"],
    ]
    _print(rows, facts.open_capsules, now)

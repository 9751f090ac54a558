"""``kindling status``: what is in the database, and where it is.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import sys

import click

from kindling.cli import render
from kindling.cli.shared import library_errors
from kindling.cli.state import State, emit_json, json_option, pass_state
from kindling.errors import KindlingError
from kindling.model import JsonObject, LocalStatus, ServerStatus

MAX_OPEN_SHOWN = 20


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

    In remote mode: the server's facts and your open capsules (no counts: the database is
    shared, and its totals are not one user's to see).

    \b
    Example:
      kindling status
      kindling --db ./team.db status --json
    """
    if state.server is None and state.url is None and not state.db.expanduser().exists():
        _no_database(state, as_json)
    with state.open(create=False) as kd:
        doc = kd.status()
    if as_json:
        emit_json(doc.to_json())
        return
    rows = _server_rows(doc) if isinstance(doc, ServerStatus) else _database_rows(doc)
    caps = doc.open_capsules
    click.echo(render.table(["", ""], rows, width=10_000).split("\n", 1)[1])
    if caps:
        click.echo("")
        click.echo(render.heading("Open capsules"))
        now = state.clock()
        for c in caps:
            when = render.relative(c.opened_at, now)
            click.echo(f"  {c.id}  {when:<11} {render.one_line(c.intent, 60)}")


def _no_database(state: State, as_json: bool) -> None:
    """No database yet: say what can be said of the semantic signal (is its model installed?),
    then fail as every read command does on a missing database (nothing is created)."""
    from kindling.semantic.api import model_status  # not on the hooks' path

    model = model_status()
    try:
        state.open(create=False)
    except KindlingError as exc:
        if as_json:
            emit_json({"error": exc.to_dict(), "semantic": model})
        else:
            click.echo(
                render.table(["", ""], [["semantic", _model_line(model)]], width=10_000).split(
                    "\n", 1
                )[1]
            )
            click.echo(f"kindling: {exc.message}", err=True)
        sys.exit(1)


def _model_line(m: JsonObject) -> str:
    if m["model"] is None:
        return f"off ({m['error']})"
    extra = "" if m["extra"] else "; extra not installed: pip install 'kindling-memory[semantic]'"
    if m["modelInstalled"]:
        return f"no database yet; model {m['model']} installed{extra}"
    others = ", ".join(m["installedModels"]) or "none"
    return (
        f"no database yet; model {m['model']} not installed (installed: {others}):"
        f" kindling semantic install{extra}"
    )


def _database_rows(doc: LocalStatus) -> list[list[str]]:
    stats = doc.stats
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(stats.observations_by_kind.items()))
    statuses = ", ".join(f"{k} {n}" for k, n in sorted(stats.capsules_by_status.items()))
    obs_total = sum(stats.observations_by_kind.values())
    caps_total = sum(stats.capsules_by_status.values())
    return [
        ["database", doc.database],
        ["size", _size(doc.size_bytes)],
        ["schema", f"version {stats.schema_version}"],
        ["observations", f"{obs_total}" + (f" ({kinds})" if kinds else "")],
        ["redacted", str(stats.redacted_observations)],
        ["capsules", f"{caps_total}" + (f" ({statuses})" if statuses else "")],
        ["summaries", str(stats.summaries)],
        ["pins", str(stats.pins)],
        ["semantic", _semantic(doc.semantic)],
    ]


def _semantic(s: JsonObject) -> str:
    """Coverage of the semantic signal's vectors, and why it is off when it is."""
    total = s.get("observations", 0) + s.get("summaries", 0)
    embedded = s.get("observationsEmbedded", 0) + s.get("summariesEmbedded", 0)
    counts = f"{embedded} of {total} embedded ({s.get('coverage', 0.0):.1%})" if total else ""
    if s["active"]:
        return f"on, {s['model']}: {counts}"
    return f"off ({s['hint']})" + (f"; {counts}" if embedded else "")


def _server_rows(doc: ServerStatus) -> list[list[str]]:
    return [
        ["server", doc.server],
        ["version", f"{doc.version} ({doc.backend})"],
        ["schema", f"version {doc.schema_version}"],
        ["user", doc.user],
        ["team", doc.team or "none (personal token)"],
        ["repos", ", ".join(doc.repos) or "-"],
    ]

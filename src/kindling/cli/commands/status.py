"""``kindling status``: what is in the database, and where it is.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import click

from kindling.cli import render
from kindling.cli.shared import library_errors
from kindling.cli.state import State, emit_json, json_option, pass_state
from kindling.model import JsonObject, wire

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
    with state.open(create=False) as kd:
        doc = kd.status()
    if as_json:
        emit_json(doc)
        return
    rows = _server_rows(doc) if "server" in doc else _database_rows(doc)
    caps = [wire.capsule(c) for c in doc["openCapsules"]]
    click.echo(render.table(["", ""], rows, width=10_000).split("\n", 1)[1])
    if caps:
        click.echo("")
        click.echo(render.heading("Open capsules"))
        now = state.clock()
        for c in caps:
            when = render.relative(c.opened_at, now)
            click.echo(f"  {c.id}  {when:<11} {render.one_line(c.intent, 60)}")


def _database_rows(doc: JsonObject) -> list[list[str]]:
    obs, caps = doc["observations"], doc["capsules"]
    kinds = ", ".join(f"{k} {n}" for k, n in obs["byKind"].items())
    statuses = ", ".join(f"{k} {n}" for k, n in caps["byStatus"].items())
    return [
        ["database", doc["database"]],
        ["size", _size(doc["sizeBytes"])],
        ["schema", f"version {doc['schemaVersion']}"],
        ["observations", f"{obs['total']}" + (f" ({kinds})" if kinds else "")],
        ["redacted", str(obs["redacted"])],
        ["capsules", f"{caps['total']}" + (f" ({statuses})" if statuses else "")],
        ["summaries", str(doc["summaries"])],
        ["pins", str(doc["pins"])],
        ["semantic", _semantic(doc["semantic"])],
    ]


def _semantic(s: JsonObject) -> str:
    """Coverage of the semantic signal's vectors, and why it is off when it is."""
    total = s.get("observations", 0) + s.get("summaries", 0)
    embedded = s.get("observationsEmbedded", 0) + s.get("summariesEmbedded", 0)
    counts = f"{embedded} of {total} embedded ({s.get('coverage', 0.0):.1%})" if total else ""
    if s["active"]:
        return f"on, {s['model']}: {counts}"
    why = (
        "extra not installed"
        if not s["extra"]
        else "model not installed: kindling semantic install"
        if not s["modelInstalled"]
        else "no vectors yet: kindling semantic index"
    )
    return f"off ({why})" + (f"; {counts}" if embedded else "")


def _server_rows(doc: JsonObject) -> list[list[str]]:
    return [
        ["server", doc["server"]],
        ["version", f"{doc['version']} ({doc['backend']})"],
        ["schema", f"version {doc['schemaVersion']}"],
        ["user", doc["user"]],
        ["team", doc["team"] or "none (personal token)"],
        ["repos", ", ".join(doc["repos"]) or "-"],
    ]

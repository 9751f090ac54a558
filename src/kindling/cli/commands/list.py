"""``kindling list``: observations, capsules, summaries or pins, newest first.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from kindling.cli import render
from kindling.cli.shared import KIND, LIMIT, library_errors, scope_of, scope_options
from kindling.cli.state import State, emit_json, json_option, pass_state
from kindling.model import Capsule, Observation, Pin, Summary

TYPES = ("observations", "capsules", "summaries", "pins")
STATUSES = ("open", "closed", "active")


def _rows(items: Sequence[Any], now: int) -> tuple[list[str], list[list[str]]]:
    if not items:
        return [], []
    first = items[0]
    if isinstance(first, Observation):
        return ["ID", "KIND", "WHEN", "CONTENT"], [
            [o.id, o.kind + (" (redacted)" if o.redacted else ""), render.when(o.ts, now),
             o.content]
            for o in items
        ]  # fmt: skip
    if isinstance(first, Capsule):
        return ["ID", "STATUS", "TYPE", "OPENED", "OBS", "INTENT"], [
            [c.id, c.status, c.type, render.when(c.opened_at, now),
             str(len(c.observation_ids)), c.intent]
            for c in items
        ]  # fmt: skip
    if isinstance(first, Summary):
        return ["ID", "CAPSULE", "CONF", "WHEN", "CONTENT"], [
            [s.id, s.capsule_id, f"{s.confidence:.2f}", render.when(s.created_at, now),
             s.content]
            for s in items
        ]  # fmt: skip
    pins: Sequence[Pin] = items
    return ["ID", "TARGET", "CREATED", "EXPIRES", "REASON"], [
        [p.id, f"{p.target_type} {p.target_id}", render.when(p.created_at, now),
         "never" if p.expires_at is None else render.relative(p.expires_at, now), p.reason or ""]
        for p in pins
    ]  # fmt: skip


@click.command("list")
@click.argument("what", type=click.Choice(TYPES), metavar="observations|capsules|summaries|pins")
@click.option("--kind", type=KIND, help="Observations of this kind only.")
@click.option(
    "--status",
    type=click.Choice(STATUSES),
    help="Capsules: open or closed. Pins: active (not expired).",
)
@scope_options
@click.option("--limit", type=LIMIT, default=50, show_default=True, metavar="N", help="Most rows.")
@json_option
@pass_state
@library_errors
def command(
    state: State,
    /,
    what: str,
    kind: str | None,
    status: str | None,
    limit: int,
    as_json: bool,
    **kw: Any,
) -> None:
    """List entities of one type, newest first.

    \b
    Example:
      kindling list observations --kind error --repo . --limit 20
      kindling list capsules --status open
      kindling list pins --status active --json
    """
    if kind is not None and what != "observations":
        raise click.UsageError("--kind applies to observations only")
    allowed = {"capsules": ("open", "closed"), "pins": ("active",)}.get(what, ())
    if status is not None and status not in allowed:
        hint = f"use one of: {', '.join(allowed)}" if allowed else f"{what} have no status"
        raise click.UsageError(f"--status {status} does not apply to {what}; {hint}")
    scope = scope_of(kw)
    items: Sequence[Any]
    with state.open(create=False) as kd:
        if what == "observations":
            items = kd.list_observations(kind=kind, scope=scope, limit=limit)  # type: ignore[arg-type]
        elif what == "capsules":
            items = kd.list_capsules(status=status, scope=scope, limit=limit)  # type: ignore[arg-type]
        elif what == "summaries":
            items = kd.list_summaries(scope=scope, limit=limit)
        else:
            active = state.clock() if status == "active" else None
            items = kd.list_pins(scope=scope, active_at=active, limit=limit)
    if as_json:
        emit_json([i.to_dict() for i in items])
        return
    headers, rows = _rows(items, state.clock())
    click.echo(render.table(headers, rows) if rows else render.dim(f"No {what}."))

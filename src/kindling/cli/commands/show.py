"""``kindling show``: one entity of any type, with its links.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import json

import click

from kindling.cli import render
from kindling.cli.shared import library_errors
from kindling.cli.state import State, emit_json, json_option, pass_state
from kindling.lookup import Described
from kindling.model import Capsule, Observation, Pin, Summary


def _field(name: str, value: str) -> str:
    return f"{render.heading(f'{name}:'):<{12 + len(render.heading(''))}} {value}"


def _human(d: Described, now: int) -> str:
    e = d.entity
    lines = [_field("id", e.id), _field("type", d.type)]
    if isinstance(e, Observation):
        lines += [
            _field("kind", e.kind + (" (redacted)" if e.redacted else "")),
            _field("when", render.when(e.ts, now)),
            _field("scope", json.dumps(e.scope.to_dict())),
        ]
        if e.provenance:
            lines.append(_field("provenance", json.dumps(e.provenance, ensure_ascii=False)))
        lines += ["", e.content.strip("\n"), ""]
        lines.append(_field("capsules", ", ".join(c.id for c in d.capsules) or "none"))
    elif isinstance(e, Capsule):
        closed = render.when(e.closed_at, now) if e.closed_at is not None else "-"
        lines += [
            _field("intent", e.intent),
            _field("status", f"{e.status} ({e.type})"),
            _field("opened", render.when(e.opened_at, now)),
            _field("closed", closed),
            _field("scope", json.dumps(e.scope.to_dict())),
            _field("summary", render.one_line(d.summary.content, 70) if d.summary else "none"),
            "",
            render.heading(f"Observations ({len(d.observations)})"),
        ]
        total = render.terminal_width()
        lines += [
            f"  {o.id}  {o.kind:<10} " + render.one_line(o.content, max(20, total - len(o.id) - 15))
            for o in d.observations
        ]
    elif isinstance(e, Summary):
        lines += [
            _field("capsule", e.capsule_id),
            _field("confidence", f"{e.confidence:.2f}"),
            _field("created", render.when(e.created_at, now)),
            "",
            e.content.strip("\n"),
            "",
            _field("evidence", ", ".join(o.id for o in d.observations) or "none"),
        ]
    elif isinstance(e, Pin):
        expires = "never" if e.expires_at is None else render.when(e.expires_at, now)
        lines += [
            _field("target", f"{e.target_type} {e.target_id}"),
            _field("reason", e.reason or "-"),
            _field("created", render.when(e.created_at, now)),
            _field("expires", expires),
        ]
        if d.target is not None:
            lines += ["", render.one_line(d.target.content, render.terminal_width())]
        else:
            lines += ["", render.dim("the target no longer exists")]
    if d.pins:
        lines.append(_field("pins", ", ".join(p.id for p in d.pins)))
    if d.also:
        lines.append(render.dim(f"(this id also names a {', '.join(d.also)})"))
    return "\n".join(lines)


@click.command("show")
@click.argument("entity_id", metavar="ID")
@json_option
@pass_state
@library_errors
def command(state: State, /, entity_id: str, as_json: bool) -> None:
    """Show one observation, capsule, summary or pin, with what it links to.

    \b
    Example:
      kindling show 3f2a9c1e-0d4b-4c8e-9a57-1b2c3d4e5f60
      kindling show 3f2a9c1e-0d4b-4c8e-9a57-1b2c3d4e5f60 --json
    """
    with state.open(create=False) as kd:
        found = kd.describe(entity_id)
    if as_json:
        emit_json(found.to_dict())
    else:
        click.echo(_human(found, state.clock()))

"""``kindling timeline``: the steps around one observation or summary in its session.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import click

from kindling.cli import render
from kindling.cli.shared import library_errors
from kindling.cli.state import State, emit_json, json_option, pass_state
from kindling.model import Observation, Timeline

STEPS = click.IntRange(0, 50)


def _human(t: Timeline, now: int) -> str:
    rows = []
    for step in t.steps:
        mark = ">" if step is t.anchor else ""
        if isinstance(step, Observation):
            kind, ts = step.kind + (" (redacted)" if step.redacted else ""), step.ts
        else:
            kind, ts = "summary", step.created_at
        rows.append([mark, step.id, kind, render.when(ts, now), step.content])
    where = f"Session {t.session_id}" if t.session_id else "No session: the same scope"
    lines = [render.heading(where)]
    if t.more_before:
        lines.append(render.dim("  … earlier steps (--before)"))
    lines.append(render.table(["", "ID", "KIND", "WHEN", "CONTENT"], rows))
    if t.more_after:
        lines.append(render.dim("  … later steps (--after)"))
    return "\n".join(lines)


@click.command("timeline")
@click.argument("anchor_id", metavar="ID")
@click.option(
    "--before", type=STEPS, default=5, show_default=True, metavar="N", help="Steps before."
)
@click.option("--after", type=STEPS, default=5, show_default=True, metavar="N", help="Steps after.")
@json_option
@pass_state
@library_errors
def command(state: State, /, anchor_id: str, before: int, after: int, as_json: bool) -> None:
    """Show what happened around an observation or summary: the steps just before and
    after it in its session, oldest first, the ID marked with ">". A summary sits at the time
    it was written. With --json: the anchor, the steps before and after (entities), and
    moreBefore/moreAfter.

    \b
    Example:
      kindling timeline demo-o02 --before 1 --after 2
      kindling timeline 4f0a9c1e-... --json
    """
    with state.open() as kd:
        found = kd.timeline(anchor_id, before=before, after=after)
    if as_json:
        emit_json(found.to_dict())
    else:
        click.echo(_human(found, state.clock()))

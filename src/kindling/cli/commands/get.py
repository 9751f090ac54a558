"""``kindling get``: whole observations, summaries and capsules by id, under a token budget.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import click

from kindling.cli import render
from kindling.cli.shared import library_errors
from kindling.cli.state import State, emit_json, json_option, pass_state
from kindling.model import Capsule, Items, Observation


def _human(found: Items, now: int) -> str:
    blocks = []
    for item in found.items:
        e = item.entity
        if isinstance(e, Observation):
            facts, text = f"{e.kind}, {render.when(e.ts, now)}", e.content
        elif isinstance(e, Capsule):
            facts, text = f"{e.status}, opened {render.when(e.opened_at, now)}", e.intent
        else:
            facts, text = f"capsule {e.capsule_id}, {render.when(e.created_at, now)}", e.content
        head = render.heading(f"{item.type} {e.id}") + render.dim(f"  ({facts})")
        blocks.append(f"{head}\n{text.strip(chr(10))}")
    if found.missing:
        blocks.append(render.dim(f"not found: {', '.join(found.missing)}"))
    cut = [f"{i.entity.id} ({i.cut_chars} of {i.total_chars} characters)" for i in found.items
           if i.cut_chars]  # fmt: skip
    if cut:
        blocks.append(render.dim(f"cut to {found.token_budget} tokens: {', '.join(cut)}"))
    return "\n\n".join(blocks)


@click.command("get")
@click.argument("ids", nargs=-1, required=True, metavar="ID...")
@click.option(
    "--budget",
    type=click.IntRange(0, 10**9),
    metavar="TOKENS",
    help="Cap on the tokens of the texts; past it they are cut with a marker. Default: none.",
)
@json_option
@pass_state
@library_errors
def command(state: State, /, ids: tuple[str, ...], budget: int | None, as_json: bool) -> None:
    """Print whole observations, summaries or capsules by id, in the order given: the full
    text that search and timeline only show a line of. Ids that name nothing are listed as
    not found (exit 0 while one is found). With --json: items (type, entity, totalChars,
    cutChars), missing, tokenBudget, tokensUsed, truncated.

    \b
    Example:
      kindling get demo-o02 demo-s1
      kindling get demo-o02 --budget 500 --json
    """
    with state.open() as kd:
        found = kd.get_items(list(ids), token_budget=budget)
    if as_json:
        emit_json(found.to_dict())
    else:
        click.echo(_human(found, state.clock()))
    if not found.items:
        raise SystemExit(1)

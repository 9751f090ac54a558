"""``kindling search``: the three-tier retrieval, with explanations.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

from typing import Any

import click

from kindling.cli.results import render_result
from kindling.cli.shared import EPOCH_MS, LIMIT, library_errors, scope_of, scope_options
from kindling.cli.state import State, emit_json, json_option, pass_state


@click.command("search")
@click.argument("query", default="", required=False)
@scope_options
@click.option(
    "--limit", type=LIMIT, default=10, show_default=True, metavar="N", help="Most candidates."
)
@click.option("--budget", type=click.IntRange(0), metavar="TOKENS", help="Token budget.")
@click.option("--include-redacted", is_flag=True, help="Also show redacted observations.")
@click.option("--intent", metavar="TEXT", help="Favour work whose capsule intent matches.")
@click.option("--now", type=EPOCH_MS, metavar="MS", help="Fix 'now' (epoch ms) for recency.")
@click.option("--explain", is_flag=True, help="Show every ranking factor of each candidate.")
@json_option
@pass_state
@library_errors
def command(
    state: State,
    /,
    query: str,
    limit: int,
    budget: int | None,
    include_redacted: bool,
    intent: str | None,
    now: int | None,
    explain: bool,
    as_json: bool,
    **kw: Any,
) -> None:
    """Ask what matters now: pins, the current summary, then ranked candidates.

    Any text is a valid QUERY; words are matched with stemming, and FTS5 syntax ("exact
    phrase", OR, NOT, prefix*) works when it is well formed. An empty QUERY ranks by recency.
    With --json the result is the retrieval contract's JSON, every candidate with its
    explanation.

    \b
    Example:
      kindling search "why does the login fail" --repo . --explain
      kindling search "jwt.verify" --session s1 --budget 2000 --json
    """
    with state.open(create=False) as kd:
        result = kd.retrieve(
            query,
            scope=scope_of(kw),
            token_budget=budget,
            max_candidates=limit,
            include_redacted=include_redacted,
            intent=intent,
            now=now if now is not None else state.now,
        )
    if as_json:
        emit_json(result.to_dict())
    else:
        reference = now if now is not None else state.clock()
        click.echo(render_result(result, now=reference, explain=explain))

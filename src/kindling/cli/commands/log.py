"""``kindling log``: record one observation.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

from typing import Any

import click

from kindling.cli.shared import KIND, library_errors, read_text, scope_of, scope_options
from kindling.cli.state import State, emit_json, json_option, pass_state


@click.command("log")
@click.argument("text")
@click.option("--kind", type=KIND, default="message", show_default=True, help="Observation kind.")
@scope_options
@click.option("--capsule", metavar="ID", help="Capsule to add it to (default: the open one).")
@json_option
@pass_state
@library_errors
def command(
    state: State, /, text: str, kind: str, capsule: str | None, as_json: bool, **kw: Any
) -> None:
    """Record an observation and print its id. TEXT '-' reads the text from stdin.

    Without --capsule, an observation with a --session joins that session's open capsule.

    \b
    Example:
      kindling log "pytest: KeyError 'user_id' in auth/session.py" --kind error --repo .
      git diff | kindling log - --kind file_diff --session s1
    """
    scope = scope_of(kw)
    with state.open() as kd:
        obs = kd.append_observation(
            kind=kind,  # type: ignore[arg-type]  # click.Choice checked it
            content=read_text(text),
            scope=None if scope.is_empty() and capsule else scope,
            capsule_id=capsule,
        )
    if as_json:
        emit_json(obs.to_dict())
    else:
        click.echo(obs.id)

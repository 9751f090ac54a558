"""``kindling unpin``: remove a pin.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import click

from kindling.cli.shared import library_errors
from kindling.cli.state import State, emit_json, json_option, pass_state


@click.command("unpin")
@click.argument("pin_id", metavar="PIN_ID")
@json_option
@pass_state
@library_errors
def command(state: State, /, pin_id: str, as_json: bool) -> None:
    """Remove a pin (the pinned entity stays). Prints the removed pin's id.

    \b
    Example:
      kindling unpin 9b1d7c2e-...
      kindling list pins --json   # find pin ids
    """
    with state.open() as kd:
        pin = kd.get_pin(pin_id)
        kd.unpin(pin.id)
    if as_json:
        emit_json(pin.to_dict())
    else:
        click.echo(pin.id)

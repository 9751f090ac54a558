"""``kindling pin``: mark an observation or summary as important.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import click

from kindling.cli.shared import DURATION, library_errors
from kindling.cli.state import State, emit_json, json_option, pass_state
from kindling.model import TARGET_TYPES


@click.command("pin")
@click.argument("target_type", type=click.Choice(TARGET_TYPES), metavar="observation|summary")
@click.argument("target_id", metavar="ID")
@click.option("--reason", metavar="TEXT", help="Why it matters (shown with the pin).")
@click.option("--ttl", type=DURATION, metavar="30m|12h|7d", help="Expire after this long.")
@json_option
@pass_state
@library_errors
def command(
    state: State,
    /,
    target_type: str,
    target_id: str,
    reason: str | None,
    ttl: int | None,
    as_json: bool,
) -> None:
    """Pin an observation or summary so that every search in its scope shows it first.

    The target must exist. Prints the pin's id (for `kindling unpin`).

    \b
    Example:
      kindling pin observation 3f2a9c1e-... --reason "the repro" --ttl 7d
    """
    with state.open() as kd:
        pin = kd.pin(target_type, target_id, reason=reason, ttl_ms=ttl)  # type: ignore[arg-type]
    if as_json:
        emit_json(pin.to_dict())
    else:
        click.echo(pin.id)

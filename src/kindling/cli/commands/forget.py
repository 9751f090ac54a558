"""``kindling forget``: redact an observation.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import click

from kindling.cli.app import State, emit_json, json_option, pass_state
from kindling.cli.shared import library_errors


@click.command("forget")
@click.argument("observation_id", metavar="ID")
@json_option
@pass_state
@library_errors
def command(state: State, /, observation_id: str, as_json: bool) -> None:
    """Redact an observation: its content is removed from the table, the index and the disk.

    The observation's id, kind, time and scope stay, so capsules keep their shape. Forgetting
    an already redacted observation is not an error.

    \b
    Example:
      kindling forget 3f2a9c1e-0d4b-4c8e-9a57-1b2c3d4e5f60
    """
    with state.open() as kd:
        obs = kd.forget(observation_id)
    if as_json:
        emit_json(obs.to_dict())
    else:
        click.echo(f"{obs.id} redacted")

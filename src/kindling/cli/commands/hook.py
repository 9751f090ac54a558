"""``kindling hook EVENT``: listed here so ``kindling --help`` shows it.

``kindling hook ...`` normally never reaches click (``kindling.cli.main`` takes a fast path
straight to ``kindling.hooks.run_hook_cli``); this command serves the other spellings, such as
``kindling --db PATH hook EVENT``, by calling the same function.

Must not be imported by the core.
"""

from __future__ import annotations

import sys

import click

from kindling.cli.state import State, pass_state


@click.command(
    "hook",
    context_settings={"ignore_unknown_options": True, "help_option_names": []},
    add_help_option=False,
    short_help="Run an agent's hook (reads the hook's JSON on stdin).",
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@pass_state
def command(state: State, args: tuple[str, ...]) -> None:
    """Run one agent's hook; see ``kindling hook --help``."""
    from kindling.hooks import run_hook_cli

    sys.exit(run_hook_cli(list(args), db=state.db, exit_process=True))

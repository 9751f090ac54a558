"""``kindling doctor``: check the database; rebuild its indexes; copy what can be read.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kindling.cli.shared import library_errors
from kindling.cli.state import State, emit_json, json_option, pass_state
from kindling.store.backends import open_doctor


def never_ran() -> list[str]:
    """The agents whose hooks ``init`` installed (this repository's or the user's) that never
    ran: no mark of a run beside the hook log (``hooks.log.ran_marker``), so nothing was
    recorded."""
    import os

    from kindling.agents import agents
    from kindling.hooks.log import RAN_DIR, ran_marker

    found = []
    for agent in agents():
        if os.path.exists(ran_marker(agent.NAME)):
            continue
        for scope in ("project", "user"):
            path = agent.hook_file(scope)
            try:
                installed = path.is_file() and "kindling" in path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                installed = False
            if installed:
                text = f"{agent.LABEL}'s hooks are installed in {path} but never ran "
                text += f"(no run marked in {RAN_DIR}/ of Kindling's home)"
                for note in (agent.SETUP_NOTE, agent.pending()):
                    text += f"; {note}" if note else ""
                found.append(text)
                break
    return found


@click.command("doctor")
@click.option("--rebuild-index", is_flag=True, help="Rebuild the text indexes from the tables.")
@click.option(
    "--salvage",
    metavar="NEW_DB",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Copy every readable row into a new database file.",
)
@json_option
@pass_state
@library_errors
def command(state: State, /, rebuild_index: bool, salvage: Path | None, as_json: bool) -> None:
    """Check the database with SQLite's integrity check and the FTS5 index checks.

    Also warns about an agent whose hooks `kindling init` installed but that never ran them
    (Codex, for one, runs hooks only once the user trusts them).

    Exit 0 when everything is sound, 1 when a check fails. With --rebuild-index the text
    indexes are rebuilt from the tables (for a damaged index; the tables are not touched).
    With --salvage NEW_DB every row that can still be read is copied into a new database
    (the damaged file is only read); point --db or KINDLING_DB at NEW_DB afterwards.

    \b
    Examples:
      kindling doctor
      kindling doctor --rebuild-index
      kindling doctor --salvage ~/.kindling/recovered.db
    """
    warnings = never_ran()
    state.local_only("kindling doctor")
    path = state.url or str(state.db)
    doctor = open_doctor(path)  # a database name the backend has no file checks for: refused
    result: dict[str, object] = {"db": path}
    if rebuild_index:
        with state.open_local():  # created and migrated as the other commands do
            pass
        doctor.rebuild_indexes()
        result["rebuilt"] = list(doctor.indexes)
    if salvage is not None:
        saved = doctor.salvage(str(salvage))
        result["salvage"] = {"file": str(salvage), "copied": saved.copied, "lost": saved.lost}
    checkup = doctor.check()
    result["ok"] = checkup.ok
    result["problems"] = list(checkup.problems)
    result["warnings"] = warnings
    if as_json:
        emit_json(result)
    else:
        if rebuild_index:
            click.echo("rebuilt the text indexes")
        if salvage is not None:
            copied = sum(saved.copied.values())
            lost = sum(n for n in saved.lost.values() if n > 0)
            click.echo(f"salvaged {copied} rows into {salvage} ({lost} unreadable)")
        for warning in warnings:
            click.echo(f"warning: {warning}")
        for problem in checkup.problems:
            click.echo(f"problem: {problem}")
        click.echo("database ok" if checkup.ok else f"{path} is damaged")
    if not checkup.ok:
        sys.exit(1)

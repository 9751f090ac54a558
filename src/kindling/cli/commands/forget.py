"""``kindling forget``: forget an entity by id, or every copy of a text, for good.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import sys

import click

from kindling.cli.shared import library_errors
from kindling.cli.state import State, emit_json, json_option, pass_state
from kindling.model.reports import ForgetReport


@click.command("forget")
@click.argument("entity_id", metavar="[ID]", required=False)
@click.option("--match", "match", metavar="TEXT", help="Forget every copy of TEXT.")
@click.option("--yes", is_flag=True, help="With --match: purge without asking.")
@click.option("--dry-run", is_flag=True, help="With --match: only count what would go.")
@click.option("--finish", is_flag=True, help="Purge old copies a reader kept in the WAL.")
@json_option
@pass_state
@library_errors
def command(
    state: State,
    /,
    entity_id: str | None,
    match: str | None,
    yes: bool,
    dry_run: bool,
    finish: bool,
    as_json: bool,
) -> None:
    """Forget an observation, summary or pin by ID, or every copy of a text with --match.

    An observation keeps its id, kind and time; its text becomes [redacted], and so do the
    summaries derived from it. A summary's text becomes [redacted]; a pin is deleted. With
    --match TEXT, every observation, summary, pin reason and capsule intent containing TEXT
    (case-insensitive) is forgotten: the count is shown first and you are asked to confirm
    (--yes skips the question, --dry-run only counts).

    Exit 0 only when the text is gone from the database file and its WAL (on PostgreSQL: when
    VACUUM has removed the old row versions; the message says what PostgreSQL may still keep).
    If another process holds an old read snapshot, the command names it and exits 1: close it,
    then run `kindling forget --finish`.

    \b
    Examples:
      kindling forget 3f2a9c1e-0d4b-4c8e-9a57-1b2c3d4e5f60
      kindling forget --match "hunter2" --dry-run
      kindling forget --match "hunter2" --yes
      kindling forget --finish
    """
    if sum(map(bool, (entity_id is not None, match is not None, finish))) != 1:
        raise click.UsageError("give exactly one of ID, --match TEXT or --finish")
    if (yes or dry_run) and match is None:
        raise click.UsageError("--yes and --dry-run go with --match")
    with state.open() as kd:
        if finish:
            report = kd.finish_forget()
        elif match is None:
            report = kd.forget(str(entity_id))
        else:
            found = kd.forget_matching(match, dry_run=True)
            if dry_run or not found.total:
                _show(found, as_json)
                return
            if not yes:
                click.echo(found.message, err=True)
                if not click.confirm("Forget all of them?", err=True):
                    click.echo("kindling: nothing forgotten", err=True)
                    sys.exit(1)
            report = kd.forget_matching(match)
    _show(report, as_json)


def _show(report: ForgetReport, as_json: bool) -> None:
    if as_json:
        emit_json(report.to_dict())
    if report.complete:
        if not as_json:
            click.echo(report.message)
        return
    click.echo(f"kindling: {report.message}", err=True)
    sys.exit(1)

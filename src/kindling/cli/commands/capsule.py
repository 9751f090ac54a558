"""``kindling capsule open|close``: the capsule lifecycle.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

from typing import Any

import click

from kindling.cli.shared import CONFIDENCE, library_errors, read_text, scope_of, scope_options
from kindling.cli.state import State, emit_json, json_option, pass_state
from kindling.model import CAPSULE_TYPES


@click.group("capsule")
def command() -> None:
    """Open and close capsules: bounded units of work that group observations.

    \b
    Example:
      id=$(kindling capsule open --intent "fix the login bug" --session s1 --repo .)
      kindling capsule close "$id" --summary "fixed: token cache was stale" --confidence 0.8
    """


@command.command("open")
@click.option("--intent", required=True, help="What this unit of work is for.")
@click.option(
    "--type",
    "ctype",
    type=click.Choice(CAPSULE_TYPES),
    default="session",
    show_default=True,
    help="Capsule type.",
)
@scope_options
@json_option
@pass_state
@library_errors
def open_(state: State, /, intent: str, ctype: str, as_json: bool, **kw: Any) -> None:
    """Open a capsule and print its id (one open session capsule per session).

    \b
    Example:
      kindling capsule open --intent "fix the login bug" --session s1 --repo .
    """
    with state.open() as kd:
        capsule = kd.open_capsule(intent=intent, type=ctype, scope=scope_of(kw))  # type: ignore[arg-type]
    if as_json:
        emit_json(capsule.to_dict())
    else:
        click.echo(capsule.id)


@command.command("close")
@click.argument("capsule_id", metavar="ID")
@click.option("--summary", metavar="TEXT", help="What was done and learned ('-' reads stdin).")
@click.option("--confidence", type=CONFIDENCE, help="Confidence in the summary, 0 to 1.")
@click.option("--evidence", multiple=True, metavar="OBS_ID", help="Observation backing it.")
@json_option
@pass_state
@library_errors
def close(
    state: State,
    /,
    capsule_id: str,
    summary: str | None,
    confidence: float | None,
    evidence: tuple[str, ...],
    as_json: bool,
) -> None:
    """Close a capsule, optionally with its summary.

    \b
    Example:
      kindling capsule close 3f2a... --summary "fixed: token cache was stale" --confidence 0.8
    """
    with state.open() as kd:
        capsule = kd.close_capsule(
            capsule_id,
            summary=read_text(summary) if summary is not None else None,
            confidence=confidence,
            evidence_refs=list(evidence) if evidence else None,
        )
    if as_json:
        emit_json(capsule.to_dict())
    else:
        click.echo(capsule.id)

"""``kindling semantic``: the optional semantic signal: install its model, index a store.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from kindling.cli.shared import library_errors
from kindling.cli.state import State, emit_json, json_option, pass_state
from kindling.semantic import api
from kindling.semantic.indexer import IndexProgress
from kindling.semantic.models import MODELS

F = TypeVar("F", bound=Callable[..., Any])


def _model_option(f: F) -> F:
    return click.option(
        "--model",
        "model",
        type=click.Choice(sorted(MODELS)),
        default=None,
        help="The pinned model (default: KINDLING_SEMANTIC_MODEL, else all-mpnet-base-v2).",
    )(f)


@click.group("semantic")
def command() -> None:
    """The optional semantic signal (extra kindling-memory[semantic]; docs/semantic.md).

    \b
    Example:
      kindling semantic install
      kindling semantic install --from ./all-mpnet-base-v2
      kindling semantic index
    """


@command.command("install")
@click.option(
    "--from",
    "source",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="A local directory holding the model's files (no download).",
)
@_model_option
@json_option
@library_errors
def install(source: Path | None, model: str | None, as_json: bool) -> None:
    """Install the model: downloaded from its pinned revision, or copied from a directory;
    every file's sha256 is checked against the pinned one.

    \b
    Example:
      kindling semantic install --from /media/usb/all-mpnet-base-v2
    """
    shown: dict[str, int] = {}

    def progress(name: str, done: int, total: int) -> None:
        pct = done * 100 // max(total, 1)
        if not as_json and shown.get(name, -10) + 10 <= pct:
            shown[name] = pct
            click.echo(f"  {name}: {pct} %", err=True)

    def notice(line: str) -> None:
        click.echo(f"  {line}", err=True)

    where = api.install(model, source=source, progress=progress, notice=notice)
    if as_json:
        emit_json({"installed": str(where)})
        return
    click.echo(f"installed and verified in {where}")


@command.command("index")
@click.option("--limit", type=click.IntRange(min=0), default=None, help="Embed at most N rows.")
@click.option(
    "--cpu",
    type=click.FloatRange(0.05, 1.0),
    default=1.0,
    show_default=True,
    help="Share of one core to use (the encoder runs on one thread).",
)
@_model_option
@json_option
@pass_state
@library_errors
def index(state: State, /, limit: int | None, cpu: float, model: str | None, as_json: bool) -> None:
    """Embed what has no vector yet, newest first; stop any time and run again to resume.

    \b
    Example:
      kindling semantic index
      nice kindling semantic index --cpu 0.5
    """
    with state.open(create=False) as kd:

        def progress(p: IndexProgress) -> None:
            if not as_json:
                click.echo(f"  {p.embedded} of {p.missing} embedded ({p.rate:.1f}/s)", err=True)

        doc = kd.semantic_index(model=model, limit=limit, cpu=cpu, progress=progress)
    if as_json:
        emit_json(doc)
        return
    done, cover = doc["index"], doc["semantic"]
    click.echo(
        f"embedded {done['embedded']} in {done['seconds']:.1f} s; coverage"
        f" {cover.get('coverage', 0.0):.1%} of {cover['model']}"
    )

"""``kindling semantic``: the optional semantic signal: install its model, index a store.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click

from kindling.cli.shared import library_errors
from kindling.cli.state import State, emit_json, json_option, pass_state
from kindling.semantic import api
from kindling.semantic.indexer import BATCH, MAX_BATCH, IndexProgress
from kindling.semantic.models import MODELS

F = TypeVar("F", bound=Callable[..., Any])
NOT_REMOTE = (
    "remote mode: the server indexes its own store (run `kindling semantic index` there,"
    " without KINDLING_URL)"
)
PROGRESS_EVERY_S = 2.0  # a progress line at most this often (and the last one)


def _model_option(f: F) -> F:
    return click.option(
        "--model",
        "model",
        type=click.Choice(sorted(MODELS)),
        default=None,
        help="The pinned model (default: KINDLING_SEMANTIC_MODEL, else the store's own model,"
        " else the default one).",
    )(f)


@click.group("semantic")
def command() -> None:
    """The optional semantic signal (extra kindling-memory[semantic]; docs/semantic.md).

    \b
    Example:
      kindling semantic install
      kindling semantic install --from ./all-MiniLM-L6-v2
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
      kindling semantic install --from /media/usb/all-MiniLM-L6-v2
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
@click.option(
    "--batch",
    type=click.IntRange(1, MAX_BATCH),
    default=BATCH,
    show_default=True,
    help="Rows embedded and stored per transaction.",
)
@click.option(
    "--replace",
    is_flag=True,
    help="Re-embed rows that have vectors of another model (switching a store's model).",
)
@_model_option
@json_option
@pass_state
@library_errors
def index(
    state: State,
    /,
    limit: int | None,
    cpu: float,
    batch: int,
    replace: bool,
    model: str | None,
    as_json: bool,
) -> None:
    """Embed what has no vector yet, newest first, in batches, with the store's own model
    (the one its vectors are of; a new store: KINDLING_SEMANTIC_MODEL, else the default).
    Ctrl-C or SIGTERM stops after the current batch (a second one at once); run again to
    resume: nothing stored is lost.

    \b
    Example:
      kindling semantic index
      nice kindling semantic index --cpu 0.5
    """
    stopping: list[int] = []
    shown = [0.0]

    def progress(p: IndexProgress) -> None:
        now = time.monotonic()
        if as_json or (now - shown[0] < PROGRESS_EVERY_S and p.embedded < p.missing):
            return
        shown[0] = now
        left = (p.missing - p.embedded) / p.rate if p.rate > 0 else 0.0
        click.echo(
            f"  {p.embedded} of {p.missing} embedded ({p.rate:.1f}/s, about {left:.0f} s left)",
            err=True,
        )

    def on_signal(signum: int, _frame: object) -> None:
        if stopping:  # the second one: stop now (the batch under way is not stored)
            raise SystemExit(128 + signum)
        stopping.append(signum)
        if not as_json:
            click.echo("  stopping after this batch (again to stop now)", err=True)

    with state.open_database(NOT_REMOTE, create=False) as kd, _signals(on_signal):
        doc = kd.semantic_index(
            model=model,
            limit=limit,
            cpu=cpu,
            batch=batch,
            replace=replace,
            progress=progress,
            stop=lambda: bool(stopping),
        )
    if as_json:
        emit_json(doc)
    else:
        done, cover = doc["index"], doc["semantic"]
        verb = "stopped: embedded" if done["stopped"] else "embedded"
        click.echo(
            f"{verb} {done['embedded']} in {done['seconds']:.1f} s; coverage"
            f" {cover.get('coverage', 0.0):.1%} of {cover['model']}"
            + ("; run again to resume" if done["stopped"] else "")
        )
    if stopping:
        sys.exit(128 + stopping[0])


@contextmanager
def _signals(handler: Callable[[int, Any], None]) -> Iterator[None]:
    """``handler`` on SIGINT and SIGTERM for the duration (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)

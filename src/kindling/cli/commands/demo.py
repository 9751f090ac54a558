"""``kindling demo``: record a short coding session, then ask it three questions.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import shlex
import tempfile
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from kindling import demo
from kindling.cli import render
from kindling.cli.results import render_result
from kindling.cli.shared import library_errors
from kindling.cli.state import State, emit_json, json_option, pass_state
from kindling.entry import connect


def _command_line(q: demo.Question) -> str:
    parts = ["kindling", "search", shlex.quote(q.query) if q.query else "''"]
    for name, value in q.scope.items():
        parts += [f"--{name.removesuffix('_id')}", shlex.quote(value)]
    parts += ["--limit", str(q.limit), "--now", str(demo.NOW), "--explain"]
    return " ".join(parts)


def _target(state: State, db: Path | None) -> Path:
    """Only a --db given on the command line is used; $KINDLING_DB never receives the demo."""
    if db is not None:
        return db.expanduser()
    root = click.get_current_context().find_root()
    if root.get_parameter_source("db") == ParameterSource.COMMANDLINE:
        return state.db
    return Path(tempfile.mkdtemp(prefix="kindling-demo-")) / "kindling.db"


@click.command("demo")
@click.option(
    "--db",
    "db",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Record into this database (default: a fresh temporary one).",
)
@json_option
@pass_state
@library_errors
def command(state: State, /, db: Path | None, as_json: bool) -> None:
    """Record a realistic short coding session, then ask it three questions.

    Into a fresh temporary database (or --db), it records two sessions of work on a web app
    (a failure and its fix, a design decision, a flaky test in progress), then runs three
    retrievals: resume work, find the decision, find the failure; each is printed with the
    reasons for its ranking. Offline, and the same output on every run.

    \b
    Example:
      kindling demo
      kindling demo --db /tmp/demo.db && kindling --db /tmp/demo.db list capsules
    """
    path = _target(state, db)
    with connect(path, now=demo.NOW) as kd:  # always a local file, whatever KINDLING_URL says
        report = kd.import_bundle(demo.session())
        answers = [
            (
                q,
                kd.retrieve(
                    q.query, scope=q.scope, max_candidates=q.limit, intent=q.intent, now=demo.NOW
                ),
            )
            for q in demo.QUESTIONS
        ]
    if as_json:
        doc: dict[str, Any] = {
            "database": str(path),
            "recorded": report.added,
            "retrievals": [
                {"title": q.title, "query": q.query, "scopeIds": q.scope.to_dict(), **r.to_dict()}
                for q, r in answers
            ],
        }
        emit_json(doc)
        return
    recorded = ", ".join(render.counted(n, k) for k, n in report.added.items() if n)
    click.echo(render.heading("Kindling demo"))
    click.echo(f"Recorded a short coding session ({recorded or 'already there'}) into")
    click.echo(f"  {path}")
    click.echo(render.dim("Two sessions on a web app: yesterday added refresh tokens (closed);"))
    click.echo(render.dim("today chases a flaky logout test (still open). Now is 10 min after."))
    for i, (q, result) in enumerate(answers, 1):
        click.echo("")
        click.echo(render.heading(f"{i}. {q.title}"))
        click.echo(render.accent(f"$ {_command_line(q)}"))
        click.echo(render_result(result, now=demo.NOW, explain=True, show_ids=False))
    click.echo("")
    click.echo(f"Explore it: kindling --db {shlex.quote(str(path))} list observations")

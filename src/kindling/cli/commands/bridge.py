"""``kindling bridge ingest|retrieve``: the chat-memory bridge (seed 002) as CLI commands.

A thin shell over ``kindling.bridge.handler``: the subcommands take their words unparsed so
that every mistake, even a usage error, is answered with the bridge's one JSON error object on
stdout (click's usage text would break a caller that parses stdout).

Must not be imported by the core or by ``kindling.bridge``.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

import click

from kindling.bridge.contract import INGEST_USAGE, RETRIEVE_USAGE
from kindling.bridge.handler import Opener, Outcome, emit, open_memory, run_ingest, run_retrieve
from kindling.bridge.render import error_response
from kindling.cli.state import State, pass_state
from kindling.entry import open_target
from kindling.errors import ArgumentError

_RAW = {"ignore_unknown_options": True, "allow_interspersed_args": False}


def _opener(state: State) -> Opener:
    """The local database (the bridge's own --db first), or in remote mode the server (never
    a local file then): ``entry.chosen``'s rule, as for every command."""
    if state.server is None:
        return open_memory
    return lambda _db, now, _create: open_target(state.where(), now=now)


def _exit(outcome: Outcome) -> NoReturn:
    sys.exit(emit(outcome, sys.stdout.buffer, sys.stderr))


def _usage(message: str) -> NoReturn:
    _exit(Outcome(error_response(ArgumentError(message)), 2))


class _BridgeGroup(click.Group):
    """A group whose usage errors are JSON too."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            _usage(exc.format_message())

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            message = exc.format_message().rstrip(".")
            _usage(f"{message}; use `kindling bridge ingest` or `kindling bridge retrieve`")


@click.group(cls=_BridgeGroup, invoke_without_command=True)
@click.pass_context
def command(ctx: click.Context) -> None:
    """Chat-memory bridge: store and retrieve workspace memories as JSON (seed 002).

    \b
    Example:
      echo '{"topic": "Auth", "decisions": ["Use JWT"]}' | kindling bridge ingest .
      kindling bridge retrieve . "auth decisions" 3 2000 7 false
    """
    if ctx.invoked_subcommand is None:
        _usage("missing command; use `kindling bridge ingest` or `kindling bridge retrieve`")


@command.command(
    "ingest",
    context_settings=_RAW,
    options_metavar="[--db PATH]",
    help=f"""Store one memory of WORKSPACE,
read as a JSON object on stdin: structured ({{"topic": ..., "decisions": [...], ...}}) or
legacy ({{"text": ...}}). Prints {{"success": true, "id": ...}}.

\b
{INGEST_USAGE}""",
)
@click.argument("words", nargs=-1, type=click.UNPROCESSED, metavar="WORKSPACE")
@pass_state
def ingest(state: State, words: tuple[str, ...]) -> None:
    db = state.url or state.db  # $KINDLING_DB may name a PostgreSQL database
    outcome = run_ingest(
        words, default_db=db, stdin=sys.stdin.buffer, env=os.environ, opener=_opener(state)
    )
    _exit(outcome)


@command.command(
    "retrieve",
    context_settings=_RAW,
    options_metavar="[--db PATH] [--json REQUEST]",
    help=f"""Print the memories of WORKSPACE
that match QUERY, ranked, as one JSON object (ASCII). Defaults: MAX_RESULTS 3 (1-50), MAX_TOKENS
2000 (100-100000), HALF_LIFE_DAYS 7 (0.5-90), INCLUDE_SUPERSEDED false (1/true/yes/y: true),
SEARCH_TOP_K every match (1-10000). --json takes the same request as one object
(workspace_path, query, max_results, max_tokens, half_life_days, include_superseded,
search_top_k). Options go before WORKSPACE: after it every word is an argument.

\b
{RETRIEVE_USAGE}""",
)
@click.argument(
    "words",
    nargs=-1,
    type=click.UNPROCESSED,
    metavar="WORKSPACE QUERY [MAX_RESULTS] [MAX_TOKENS] [HALF_LIFE_DAYS] [INCLUDE_SUPERSEDED]"
    " [SEARCH_TOP_K]",
)
@pass_state
def retrieve(state: State, words: tuple[str, ...]) -> None:
    db = state.url or state.db
    _exit(run_retrieve(words, default_db=db, env=os.environ, opener=_opener(state)))

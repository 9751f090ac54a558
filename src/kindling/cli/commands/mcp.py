"""``kindling mcp``: serve Kindling's memory over the Model Context Protocol (stdio).

A thin adapter: the server lives in ``kindling.mcp``; the SDK is an optional extra, so
it is imported only here, when the command runs.

Must not be imported by the core.
"""

from __future__ import annotations

import click

from kindling import InvalidInputError
from kindling.cli.state import State, fail, pass_state
from kindling.mcp import catalog

HELP = f"""Serve Kindling over MCP on stdin/stdout, for any agent that speaks it.

Tools: {", ".join(catalog.names())}. The default scope is the git root of the directory the
server starts in.

\b
Example (register it with Claude Code):
  claude mcp add kindling -- kindling mcp
"""


@click.command("mcp", help=HELP)
@pass_state
def command(state: State) -> None:
    try:
        from kindling.mcp import serve
    except ImportError as exc:
        fail(
            InvalidInputError(
                f"the MCP SDK is not installed ({exc.name}); "
                "install it with: pip install 'kindling-memory[mcp]'"
            ),
            as_json=False,
        )
    serve(state.db, opener=state.open)

"""The ``kindling`` command. A thin adapter: parse, make one library call, render.

``kindling hook ...`` takes a fast path that never imports click or the other commands: hooks
run on every tool call of an agent, and start-up time is their whole cost. ``kindling mcp``
answers the MCP handshake and the tool list before it imports click or the SDK
(``kindling.mcp.front``): an agent asks for the tools as soon as the server starts.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["hook"]:
        if argv is None:  # a process of its own, which ends with the hook: no cyclic garbage
            import gc  # collection during start-up (imports allocate much and free little)

            gc.disable()
        from kindling.hooks import run_hook_cli

        sys.exit(run_hook_cli(args[1:]))
    if args == ["mcp"]:  # as `init` writes it: answer the handshake before any heavy import
        from kindling.mcp import front, handoff

        if os.environ.get(front.FRONT_ENV) != "off":
            taken = front.Front(sys.stdin.buffer, sys.stdout.buffer)
            if not taken.run():
                return  # the client hung up
            handoff.HANDED_OFF = taken
    from kindling.cli.app import cli

    cli.main(args=args, prog_name="kindling")

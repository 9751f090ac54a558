"""``kindling ui``: the memory browser on the local database (extra ``kindling-memory[server]``).

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import os
import socket
import sys
import webbrowser
from pathlib import Path

import click

from kindling.cli.shared import library_errors
from kindling.cli.state import State, emit_json, json_option, pass_state
from kindling.errors import InvalidInputError, StoreError


@click.command("ui")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=0,
    show_default=True,
    help="TCP port on 127.0.0.1 (0: a free one).",
)
@click.option("--no-open", is_flag=True, help="Print the address; do not open a browser.")
@json_option
@pass_state
@library_errors
def command(state: State, /, port: int, no_open: bool, as_json: bool) -> None:
    """Browse, search, pin and forget memory in a web page on this machine.

    Serves on 127.0.0.1 only, behind a random token given once in the printed address (then
    kept in an HttpOnly cookie). For a team, 'kindling serve' has the same page at /ui.

    \b
    Example:
      kindling ui
      kindling ui --no-open --port 8777
      kindling ui --no-open --json   # {"url": ...} on stdout, for scripts
    """
    if state.server is not None:
        raise InvalidInputError(
            "kindling ui reads the local database; for a server, open <server URL>/ui"
        )
    try:
        import uvicorn

        from kindling.ui.app import create_local_app
        from kindling.ui.guard import new_token
    except ImportError:
        raise StoreError(
            "kindling ui needs the server extra: pip install 'kindling-memory[server]'"
        ) from None
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind(("127.0.0.1", port))
        sock.listen(128)  # the browser may connect before the server's loop has started
    except OSError as exc:
        sock.close()
        raise StoreError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror}") from None
    token = new_token()
    address = f"http://127.0.0.1:{sock.getsockname()[1]}/?token={token}"
    with state.open_local() as kd:
        db = None if state.url else Path(os.path.abspath(state.db))
        app = create_local_app(kd, token=token, db=db)
        if as_json:
            emit_json({"url": address, "database": str(db) if db else "postgresql"})
        else:
            click.echo(f"kindling: memory browser at {address}")
        click.echo("kindling: Ctrl-C to stop", err=True)
        if not no_open and _has_desktop():
            webbrowser.open(address)
        config = uvicorn.Config(app, log_level="warning", access_log=False)
        uvicorn.Server(config).run(sockets=[sock])


def _has_desktop() -> bool:
    """Open a browser only where a graphical one can run: a terminal browser (lynx, w3m) would
    take over this terminal, where the server's messages go."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))

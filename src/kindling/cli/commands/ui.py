"""``kindling ui``: the memory browser on the local database, or in remote mode on what a
``kindling serve`` token may see (extra ``kindling-memory[server]``).

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import tempfile
import webbrowser
from pathlib import Path

import click

from kindling.cli.shared import library_errors
from kindling.cli.state import State, emit_json, json_option, pass_state
from kindling.errors import StoreError


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

    The memory is the local database, or in remote mode (KINDLING_URL and KINDLING_TOKEN)
    what that token may see on the server. Serves on 127.0.0.1 only. The printed address
    carries a one-time code: the first visit spends it for a session cookie (HttpOnly, this
    port only, until the command stops). The browser it opens gets another code through a
    private file, never on its command line. A server also has the page at <its URL>/ui.

    \b
    Example:
      kindling ui
      kindling ui --no-open --port 8777
      kindling ui --no-open --json   # {"url": ...} on stdout, for scripts
      kindling --url https://kindling.example ui   # remote: the token in KINDLING_TOKEN
    """
    try:
        import uvicorn

        from kindling.ui.app import create_local_app
        from kindling.ui.guard import LocalLogin
    except ImportError:
        raise StoreError(
            "kindling ui needs the server extra: pip install 'kindling-memory[server]'"
        ) from None
    login = LocalLogin()
    with state.open() as memory, tempfile.TemporaryDirectory(prefix="kindling-ui-") as private:
        # the page asks the memory who it is: a dead server or a bad token stops here
        app = create_local_app(memory, login=login)
        with _listen(port) as sock:
            base = f"http://127.0.0.1:{sock.getsockname()[1]}/"
            address = f"{base}?code={login.new_code()}"
            if as_json:
                emit_json({"url": address, **_where(state)})
            else:
                click.echo(f"kindling: memory browser at {address}")
            click.echo("kindling: Ctrl-C to stop", err=True)
            if not no_open and _has_desktop():
                opener = opener_page(Path(private), f"{base}?code={login.new_code()}")
                webbrowser.open(opener.as_uri())
            config = uvicorn.Config(app, log_level="warning", access_log=False)
            # uvicorn stops on SIGTERM, then raises it again: exit through the `with`, which
            # removes the browser's file, rather than die on the spot.
            signal.signal(signal.SIGTERM, _exit)
            uvicorn.Server(config).run(sockets=[sock])


def _listen(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind(("127.0.0.1", port))
        sock.listen(128)  # the browser may connect before the server's loop has started
    except OSError as exc:
        sock.close()
        raise StoreError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror}") from None
    return sock


def _where(state: State) -> dict[str, str]:
    """What the page shows: a server's URL, or the database (a file, or ``postgresql``)."""
    if state.server is not None:
        return {"server": state.server}
    return {"database": "postgresql" if state.url else os.path.abspath(state.db)}


def _exit(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def opener_page(private: Path, address: str) -> Path:
    """A page that sends the browser on to ``address``, in a file only this user may read.

    A browser's command line is readable by every user of the machine (/proc/PID/cmdline):
    it gets this file's path, and the code stays in the file (0600, in a 0700 directory,
    removed when the command stops)."""
    page = private / "open.html"
    fd = os.open(page, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(
            '<!doctype html><meta charset="utf-8"><title>Kindling</title>'
            f'<meta http-equiv="refresh" content="0; url={address}">'
            f'<p><a href="{address}">Open the memory browser</a></p>\n'
        )
    return page


def _has_desktop() -> bool:
    """Open a browser only where a graphical one can run: a terminal browser (lynx, w3m) would
    take over this terminal, where the server's messages go."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))

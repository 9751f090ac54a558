"""``kindling serve``: run the HTTP API over the database (extra ``kindling-memory[server]``).

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import click

from kindling.cli.shared import library_errors
from kindling.cli.state import State, pass_state
from kindling.errors import StoreError


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="TCP port."
)
@click.option(
    "--read-timeout",
    type=click.FloatRange(0.1, 3600),
    default=10.0,
    show_default=True,
    help="Seconds a client has to send a request's head, and then its body.",
)
@pass_state
@library_errors
def command(state: State, /, host: str, port: int, read_timeout: float) -> None:
    """Serve the database over HTTP for a team: bearer tokens, JSON API, /openapi.json, and
    the memory browser at /ui (log in with a token).

    Create a token per developer first with 'kindling token create --user NAME'.

    \b
    Example:
      kindling --db postgresql://kindling@db.internal/kindling serve --host 0.0.0.0
      kindling serve --port 9000
    """
    try:
        import uvicorn

        from kindling.http.app import create_app
        from kindling.http.shedding import uvicorn_options
        from kindling.ui.app import add_team_ui
    except ImportError:
        raise StoreError(
            "kindling serve needs the server extra: pip install 'kindling-memory[server]'"
        ) from None
    with state.open_local() as kd:
        app = create_app(kd, read_timeout_s=read_timeout)
        add_team_ui(app, app.state.api)
        app.state.bodies.start()  # the helper process that decodes large bodies
        click.echo(f"kindling: serving on http://{host}:{port} (Ctrl-C to stop)", err=True)
        click.echo(f"kindling: memory browser at http://{host}:{port}/ui/", err=True)
        try:
            uvicorn.run(
                app,
                host=host,
                port=port,
                log_level="warning",
                access_log=False,
                **uvicorn_options(read_timeout),
            )
        finally:
            app.state.bodies.close()

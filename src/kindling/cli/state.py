"""What every ``kindling`` command gets: the ``State`` (where the database is, how to open it,
what time it is), the ``--json`` option, and the one way to print JSON and to fail.

A leaf of ``kindling.cli``: the application (``cli.app``) and every command import it, and it
imports neither, so the lazily loaded commands form no cycle with the group that loads them.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from kindling import Kindling, KindlingError, StoreError
from kindling.errors import RemoteModeError
from kindling.memory import Memory
from kindling.model.sanitize import wall_clock_ms

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class State:
    """What every command gets: where the database is, how to open it, and what time it is."""

    db: Path
    now: int | None = None  # fixed clock (KINDLING_NOW); None = wall clock
    url: str | None = None  # a postgresql:// database (--db or KINDLING_DB), used over ``db``
    server: str | None = None  # remote mode: a `kindling serve` URL (--url or KINDLING_URL)
    token: str | None = None  # its bearer token (--token or KINDLING_TOKEN)

    def open(self, *, create: bool = True) -> Memory:
        """The local database, or in remote mode a client of the server with the same verbs
        (``client.front.RemoteKindling``: both are a ``Memory``). A read command passes
        ``create=False``: a database file that does not exist is an error (a mistyped --db),
        never a new empty database."""
        if self.server is not None:
            from kindling.client.front import RemoteKindling

            return RemoteKindling(self.server, self.token, now=self.now)
        return self.open_local(create=create)

    def local_only(self, what: str) -> None:
        """Refuse in remote mode, in one line: ``what`` works on a database file, and must
        never fall back to the local one while ``KINDLING_URL`` names a server."""
        if self.server is not None:
            raise RemoteModeError(
                f"{what} works on a database, not through a server: unset KINDLING_URL (and"
                " --url) and point --db at the database"
            )

    def open_local(self, *, create: bool = True) -> Kindling:
        if not create and self.url is None and not self.db.expanduser().exists():
            raise StoreError(
                f"no database at {self.db}: check --db or KINDLING_DB (reading never creates"
                " one; `kindling log` or `kindling init` does)"
            )
        fixed = self.now
        clock = wall_clock_ms if fixed is None else (lambda: fixed)
        try:
            return Kindling.open(self.url or self.db, clock=clock, semantic="auto")
        except OSError as exc:  # e.g. the database's directory cannot be created
            raise StoreError(
                f"cannot open the database {self.db}: {exc.strerror or exc}; "
                "pick a writable path with --db or KINDLING_DB"
            ) from None

    def clock(self) -> int:
        return self.now if self.now is not None else wall_clock_ms()


pass_state = click.make_pass_decorator(State)


def json_option(f: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")(f)


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, sort_keys=False, indent=2))


def fail(error: KindlingError, *, as_json: bool) -> NoReturn:
    """Render a library error the way every command does, then exit 1."""
    if as_json:
        emit_json({"error": error.to_dict()})
    click.echo(f"kindling: {error.message}", err=True)
    sys.exit(1)

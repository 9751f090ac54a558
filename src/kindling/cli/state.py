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

from kindling.entry import Target, chosen, open_local, open_target, remote_url, target_of
from kindling.errors import KindlingError, RemoteModeError
from kindling.memory import LocalMemory, Memory, ServedMemory
from kindling.model.sanitize import wall_clock_ms

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class State:
    """What every command gets: where the memory is, how to open it, and what time it is."""

    db: Path
    now: int | None = None  # fixed clock (KINDLING_NOW); None = wall clock
    url: str | None = None  # a postgresql:// database (--db or KINDLING_DB), used over ``db``
    server_url: str | None = None  # --url; None: KINDLING_URL decides (``entry.remote_url``)
    token: str | None = None  # --token; None: KINDLING_TOKEN

    @property
    def server(self) -> str | None:
        """Remote mode's ``kindling serve`` URL, or None in local mode."""
        return remote_url(self.server_url)

    def where(self) -> Target:
        """The memory the command works on: the environment's choice (``entry.chosen``, the
        rule every adapter follows), with this command line's --url, --db and --token first."""
        return chosen(db=self.url or self.db, url=self.server_url, token=self.token)

    def open(self, *, create: bool = True) -> Memory:
        """The local database, or in remote mode a client of the server with the same verbs
        (``entry.connect``: both are a ``Memory``). A read command passes ``create=False``: a
        database file that does not exist is an error (a mistyped --db), never a new empty
        database."""
        return open_target(self.where(), now=self.now, create=create)

    def local_only(self, what: str) -> None:
        """Refuse in remote mode, in one line: ``what`` works on a database file, and must
        never fall back to the local one while ``KINDLING_URL`` names a server."""
        if self.server is not None:
            raise RemoteModeError(
                f"{what} works on a database, not through a server: unset KINDLING_URL (and"
                " --url) and point --db at the database"
            )

    def open_database(self, why: str, *, create: bool = True) -> LocalMemory:
        """The memory, which must be a database itself (``LocalMemory``: its counts, its
        semantic index, its tokens); in remote mode a one-line ``RemoteModeError`` saying
        ``why``, never the local file instead."""
        memory = self.open(create=create)
        if not isinstance(memory, LocalMemory):
            memory.close()
            raise RemoteModeError(why)
        return memory

    def open_local(self, *, create: bool = True) -> ServedMemory:
        """The database itself (``entry.open_local``), whatever KINDLING_URL says: for what only a
        database does (``kindling serve``, ``doctor``, ``ui``); call ``local_only`` first where
        remote mode must refuse."""
        return open_local(target_of(self.url or self.db), now=self.now, create=create)

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

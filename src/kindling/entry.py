"""``connect()``: the one way in. It opens a ``Memory`` for a target and never asks the caller
which class serves it.

A target is one string (or path):

- a SQLite database file (created and migrated on open unless ``create=False``), or
  ``":memory:"``;
- a ``postgresql://`` (or ``postgres://``) URL: the engine ``Kindling`` over PostgreSQL (extra
  ``kindling-memory[postgres]``);
- an ``http://`` or ``https://`` URL of a ``kindling serve``: ``client.front.RemoteKindling``,
  which needs the server's bearer token (``TokenRequiredError`` without one);
- None: the environment's choice (``chosen``), the rule every adapter uses: a server when
  ``KINDLING_URL`` is set (with ``KINDLING_TOKEN``), else ``KINDLING_DB``, else
  ``$KINDLING_HOME/kindling.db``. Explicit values (the CLI's ``--url``, ``--db``, ``--token``)
  go before their variables.

Anything else (an empty string, another URL scheme, a directory) raises ``InvalidInputError``
with a one-line message. The CLI, the MCP server, the bridge and the hooks all decide "local or
remote" here and nowhere else.

``open_local`` is the database itself (a ``memory.ServedMemory``), for what only a database
does: ``kindling serve`` serves it, ``kindling token`` manages its team directory. The hooks'
local writer opens it with ``open_for_hooks`` and applies their spool with ``drain``.

Kept cheap to import (the hooks read ``chosen`` on every tool call of an agent): the engine or
the client is imported only when a target of its kind is opened.

Must not import the adapters; imports ``engine`` and ``client`` only inside the functions that
open (or drain) one.
"""

from __future__ import annotations

import os

from kindling.config import default_db_file, is_postgres_url, setting
from kindling.errors import InvalidInputError, RemoteModeError, StoreError, TokenRequiredError

TYPE_CHECKING = False
if TYPE_CHECKING:  # ``typing`` costs a hook process milliseconds at import
    from typing import Literal, TypeAlias

    from kindling.engine.drain import DrainReport
    from kindling.memory import Memory, ServedMemory

    TargetKind: TypeAlias = Literal["sqlite", "postgres", "server"]

_SERVER_SCHEMES = ("http://", "https://")


class Target:
    """Where a memory is: its kind, its location (a file path, ``:memory:`` or a URL) and, for
    a server, its token. A plain class, not a dataclass: the hooks' fast path reads one and
    must not import ``dataclasses`` (``tests/hooks/test_start_cache.py``)."""

    __slots__ = ("kind", "location", "token")

    def __init__(self, kind: TargetKind, location: str, token: str | None = None) -> None:
        self.kind: TargetKind = kind
        self.location = location
        self.token = token

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Target) and (self.kind, self.location, self.token) == (
            other.kind,
            other.location,
            other.token,
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.location, self.token))

    def __repr__(self) -> str:
        secret = "" if self.token is None else ", token=..."
        return f"Target({self.kind!r}, {self.location!r}{secret})"

    @property
    def remote(self) -> bool:
        return self.kind == "server"


def target_of(target: str | os.PathLike[str], *, token: str | None = None) -> Target:
    """What ``target`` names (see the module docstring); raises ``InvalidInputError`` for a
    target that names nothing Kindling opens. Never touches the network or a database."""
    if not isinstance(target, str | os.PathLike):
        raise InvalidInputError(
            f"a target must be a file path, ':memory:' or a URL, not {type(target).__name__}"
        )
    text = os.fspath(target)
    if not isinstance(text, str) or not text.strip():
        raise InvalidInputError("the target is empty: give a database file, ':memory:' or a URL")
    if text.startswith(_SERVER_SCHEMES):
        from kindling.client.transport import check_url  # stdlib only: cheap

        return Target("server", check_url(text), token or None)
    if is_postgres_url(text):
        return Target("postgres", text)
    if "://" in text:
        scheme = text.split("://", 1)[0]
        raise InvalidInputError(
            f"unknown scheme {scheme}:// in {text!r}: use a database file, ':memory:',"
            " postgresql://... or http(s)://... (a kindling serve)"
        )
    if text == ":memory:":
        return Target("sqlite", text)
    path = os.path.expanduser(text)
    if os.path.isdir(path):
        raise InvalidInputError(f"{text} is a directory: give a database file inside it")
    return Target("sqlite", path)


def remote_url(url: str | None = None) -> str | None:
    """The server of remote mode: ``url`` (the CLI's ``--url``), else ``KINDLING_URL``, else
    None (local mode)."""
    return url if url is not None else setting("KINDLING_URL")


def chosen(
    *,
    db: str | os.PathLike[str] | None = None,
    url: str | None = None,
    token: str | None = None,
) -> Target:
    """The environment's choice, explicit values first: a server (``url``, else
    ``KINDLING_URL``; its token ``token``, else ``KINDLING_TOKEN``), else the database ``db``,
    else ``KINDLING_DB``, else ``$KINDLING_HOME/kindling.db``. A server wins over a database:
    remote mode never falls back to a local file."""
    server = remote_url(url)
    if server is not None:
        return target_of(server, token=token if token is not None else setting("KINDLING_TOKEN"))
    return target_of(db if db is not None else default_db_file())


def connect(
    target: str | os.PathLike[str] | None = None,
    *,
    token: str | None = None,
    now: int | None = None,
    create: bool = True,
    timeout_s: float | None = None,
) -> Memory:
    """Open the memory ``target`` names (see the module docstring), None for the environment's
    choice (``chosen``). ``token``: a server's bearer token. ``now``: a fixed clock in epoch ms
    (``KINDLING_NOW``), also the time of every write; None is the wall clock. ``create=False``:
    a database file that does not exist is a ``StoreError`` (a mistyped path when reading),
    never a new empty database. ``timeout_s``: a server's time to answer each request.

    >>> from kindling import Memory, connect
    >>> with connect(":memory:") as memory:
    ...     isinstance(memory, Memory)
    True
    """
    where = chosen(token=token) if target is None else target_of(target, token=token)
    return open_target(where, now=now, create=create, timeout_s=timeout_s)


def open_target(
    where: Target, *, now: int | None = None, create: bool = True, timeout_s: float | None = None
) -> Memory:
    """The memory at ``where`` (``connect`` once the target is known)."""
    _check_now(now)
    if where.remote:
        if not where.token:
            raise TokenRequiredError(
                f"{where.location} is a kindling serve: pass its token (token=, --token or"
                " KINDLING_TOKEN)"
            )
        from kindling.client.front import RemoteKindling

        return RemoteKindling(where.location, where.token, now=now, timeout_s=timeout_s)
    return open_local(where, now=now, create=create)


def open_local(
    where: Target,
    *,
    now: int | None = None,
    create: bool = True,
    drain_spool: bool = True,
    busy_timeout_s: float | None = None,
    semantic: bool | str = "auto",
) -> ServedMemory:
    """The database at ``where`` itself, for what only a database can do (serve it, check its
    file, manage its tokens, take the hooks' spool); a server's URL raises ``RemoteModeError``.
    ``drain_spool=False``: leave what hooks spooled for it where it is (the hooks apply it
    with ``drain``, within their own time). ``busy_timeout_s``: how long a write waits for
    another writer (None: the store's default). ``semantic``: the semantic signal (``"auto"``:
    when its model and vectors are there; False: never, as the hooks read)."""
    if where.remote:
        raise RemoteModeError(
            f"{where.location} is a kindling serve; this needs a database (a file or"
            " postgresql://...): unset KINDLING_URL (and --url)"
        )
    _check_now(now)
    local = where.kind == "sqlite" and where.location != ":memory:"
    if local and not create and not os.path.exists(where.location):
        raise StoreError(
            f"no database at {where.location}: check --db or KINDLING_DB (reading never creates"
            " one; `kindling log` or `kindling init` does)"
        )
    from kindling.engine import Kindling
    from kindling.model.sanitize import wall_clock_ms

    fixed = now
    clock = wall_clock_ms if fixed is None else (lambda: fixed)
    try:
        return Kindling.open(
            where.location,
            clock=clock,
            semantic=semantic,
            drain_spool=drain_spool,
            busy_timeout_s=busy_timeout_s,
        )
    except OSError as exc:  # e.g. the database's directory cannot be created
        raise StoreError(
            f"cannot open the database {where.location}: {exc.strerror or exc}; pick a writable"
            " path (--db or KINDLING_DB)"
        ) from None


def open_for_hooks(db: str, *, busy_timeout_s: float | None = None) -> ServedMemory:
    """The database ``db`` as the hooks' local writer opens it (``hooks.runner``,
    ``hooks.refresh``): its spool left for ``drain`` (which applies it within the hook's own
    time), lexical only (hooks never ask for the semantic signal: its model costs a process
    more than a hook may take), and a write waits ``busy_timeout_s`` for another writer (None:
    the store's default)."""
    return open_local(
        target_of(db), drain_spool=False, busy_timeout_s=busy_timeout_s, semantic=False
    )


def drain(memory: Memory, directory: str, *, budget_s: float) -> DrainReport:
    """Apply the hook records waiting in the spool ``directory`` to ``memory``, oldest first,
    within ``budget_s`` seconds (``engine.drain``: one drainer at a time; what is left waits
    for the next drain). The report says what was applied, set aside, or left because the
    database stayed locked or another drainer held the spool."""
    from kindling.engine.drain import drain as drain_spool

    return drain_spool(memory, directory, budget_s=budget_s)


def _check_now(now: int | None) -> None:
    if now is not None and (isinstance(now, bool) or not isinstance(now, int) or now < 0):
        raise InvalidInputError(f"now must be epoch milliseconds (an int >= 0), got {now!r}")

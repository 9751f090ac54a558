"""Options and plumbing shared by the commands: scope flags, value types, error handling.

Parameter types turn bad values into click usage errors (exit 2) before any library call;
``library_errors`` turns ``KindlingError`` into the one-line message (and JSON) of ``fail``.

``--repo`` canonicalisation: a value that is ``.``, starts with ``.``, ``/`` or ``~``, or names
an existing directory is read as a path and becomes the absolute path of the git work tree that
contains it (the directory holding ``.git``), or the absolute path itself outside git, because
agent hooks record a repository as its git root. Any other value (``webapp``, ``org/repo``) is
an opaque id and kept as given.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from kindling import KindlingError, Scope
from kindling.cli.state import fail
from kindling.config import repo_root
from kindling.model import OBSERVATION_KINDS
from kindling.model.sanitize import MAX_LIMIT, MAX_TS

F = TypeVar("F", bound=Callable[..., Any])

LIMIT = click.IntRange(1, MAX_LIMIT)
CONFIDENCE = click.FloatRange(0.0, 1.0)
EPOCH_MS = click.IntRange(0, MAX_TS)
KIND = click.Choice(OBSERVATION_KINDS)


def library_errors(f: F) -> F:
    """Render a ``KindlingError`` raised by the command as a one-line error, exit 1."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return f(*args, **kwargs)
        except KindlingError as exc:
            fail(exc, as_json=bool(kwargs.get("as_json")))

    return wrapper  # type: ignore[return-value]


# ---------------------------------------------------------------------------- durations

_UNITS = {"s": 1_000, "m": 60_000, "h": 3_600_000, "d": 86_400_000, "w": 604_800_000}
_DURATION = re.compile(r"^\s*(\d+)\s*([smhdw])\s*$")


if TYPE_CHECKING:  # click >= 8.2 types ParamType by (value, input); older click does not
    _ParamType = click.ParamType[int, Any]
else:
    _ParamType = click.ParamType


class Duration(_ParamType):
    """``30m``, ``12h``, ``7d``, ``2w`` (also ``s``) as milliseconds."""

    name = "duration"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        found = _DURATION.match(str(value))
        if not found or int(found.group(1)) == 0:
            self.fail(
                f"{value!r} is not a duration; use a positive number and a unit, "
                "such as 30m, 12h, 7d or 2w",
                param,
                ctx,
            )
        ms = int(found.group(1)) * _UNITS[found.group(2)]
        if ms > MAX_TS:
            self.fail(f"{value!r} is too long", param, ctx)
        return ms


DURATION = Duration()


# ---------------------------------------------------------------------------- scope


def _looks_like_path(value: str) -> bool:
    return value.startswith((".", "/", "~")) or Path(value).is_dir()


def canonical_repo(value: str) -> str:
    """See the module docstring: paths become absolute git roots (``config.repo_root``, as the
    hooks and MCP record them), other ids stay as given."""
    if not value.strip() or not _looks_like_path(value):
        return value
    return repo_root(value)


def _id_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not value.strip():
        raise click.BadParameter("must not be blank; leave the flag out to mean any")
    return value


def _repo_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    checked = _id_callback(ctx, param, value)
    return None if checked is None else canonical_repo(checked)


def scope_options(f: F) -> F:
    """``--session --repo --agent --user``: the scope, AND over the given dimensions."""
    options = [
        click.option(
            "--session", "session", metavar="ID", callback=_id_callback, help="Session id."
        ),
        click.option(
            "--repo",
            "repo",
            metavar="PATH",
            callback=_repo_callback,
            help="Repository: a path ('.' = the git root here) or an opaque id.",
        ),
        click.option("--agent", "agent", metavar="ID", callback=_id_callback, help="Agent id."),
        click.option("--user", "user", metavar="ID", callback=_id_callback, help="User id."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def scope_of(kwargs: dict[str, Any]) -> Scope:
    """The ``Scope`` of the scope flags (blank values are library errors, not usage)."""
    return Scope(
        session_id=kwargs.pop("session", None),
        repo_id=kwargs.pop("repo", None),
        agent_id=kwargs.pop("agent", None),
        user_id=kwargs.pop("user", None),
    )


def read_text(text: str) -> str:
    """``-`` means: read the text from stdin (for pipes and long content)."""
    if text != "-":
        return text
    return sys.stdin.read()


# ---------------------------------------------------------------------------- progress

PROGRESS_THRESHOLD = 2_000  # below this an export or import is over before a bar helps


@contextmanager
def progress_for(total: int, label: str, *, quiet: bool) -> Iterator[Callable[[int], None]]:
    """A step function that drives a progress bar on stderr, for big jobs on a terminal only.

    Never with ``--json`` (``quiet``) and never when stderr is not a terminal.
    """
    if quiet or total < PROGRESS_THRESHOLD or not sys.stderr.isatty():
        yield lambda _n: None
        return
    with click.progressbar(length=total, label=label, file=sys.stderr) as bar:
        yield bar.update

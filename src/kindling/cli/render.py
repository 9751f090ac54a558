"""Human output: shortened one-line text, local and relative times, aligned tables, colour.

Colour goes through ``click.style`` and ``click.echo``, which drop ANSI codes when stdout is not
a terminal, so piped output and ``--json`` output never carry them. Pure apart from ``echo``.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import re
import shutil
import unicodedata
from collections.abc import Sequence
from datetime import datetime

import click

from kindling.timefmt import relative as relative  # re-exported: the CLI shows ages

ELLIPSIS = "…"
_SPACE = re.compile(r"\s+")
_HIGHLIGHT = re.compile("[\x02\x03]")


def one_line(text: str, width: int) -> str:
    """Whitespace collapsed to single spaces, cut to ``width`` characters with an ellipsis."""
    flat = _SPACE.sub(" ", _HIGHLIGHT.sub("", text)).strip()
    if len(flat) <= width:
        return flat
    return flat[: max(0, width - 1)].rstrip() + ELLIPSIS


def terminal_width(default: int = 100) -> int:
    return max(60, shutil.get_terminal_size((default, 24)).columns)


def local_time(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000).astimezone().strftime("%Y-%m-%d %H:%M")


def when(ms: int, now: int) -> str:
    return f"{relative(ms, now)} ({local_time(ms)})"


def _cell_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], *, width: int | None = None
) -> str:
    """Left-aligned columns; the last column is shortened to fit the terminal."""
    if not rows:
        return ""
    total = width or terminal_width()
    widths = [max(_cell_width(r[i]) for r in [headers, *rows]) for i in range(len(headers) - 1)]
    last = max(20, total - sum(widths) - 2 * (len(headers) - 1))
    lines = []
    for i, row in enumerate([headers, *rows]):
        cells = [c + " " * (w - _cell_width(c)) for c, w in zip(row[:-1], widths, strict=False)]
        line = "  ".join([*cells, one_line(row[-1], last)]).rstrip()
        lines.append(click.style(line, bold=True) if i == 0 else line)
    return "\n".join(lines)


def dim(text: str) -> str:
    return click.style(text, dim=True)


def heading(text: str) -> str:
    return click.style(text, bold=True)


def accent(text: str) -> str:
    return click.style(text, fg="cyan")


def score(value: float) -> str:
    return click.style(f"{value:.3f}", fg="green")


_SINGULAR = {"summaries": "summary"}


def counted(n: int, plural: str) -> str:
    """``1 observation``, ``2 observations``, ``1 summary``."""
    if n != 1:
        return f"{n} {plural}"
    return f"{n} {_SINGULAR.get(plural, plural.removesuffix('s'))}"

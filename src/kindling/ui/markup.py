"""HTML built from parts that escape everything: a value becomes text unless it is ``Markup``,
which only this package's own builders make. Observation text can never become HTML here.

Must not import the CLI, other adapters or the rest of Kindling (standard library only).
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from urllib.parse import urlencode

_NAME = re.compile(r"^[a-z][a-z0-9-]*$")
VOID = frozenset({"input", "br", "meta", "link", "hr"})


class Markup(str):
    """Trusted HTML (built by ``tag``); any other ``str`` is text and gets escaped."""

    __slots__ = ()


def esc(value: object) -> Markup:
    if isinstance(value, Markup):
        return value
    if value is None:
        return Markup("")
    if isinstance(value, str):
        return Markup(html.escape(value, quote=True))
    if isinstance(value, int | float):
        return Markup(html.escape(str(value)))
    return Markup("".join(esc(v) for v in value))  # type: ignore[attr-defined]


def tag(name: str, attrs: Mapping[str, object] | None = None, *children: object) -> Markup:
    """``<name attrs>children</name>``; attribute names are fixed by our code, values escaped;
    ``href``/``action``/``src`` must be our own paths (``/...``), never data."""
    _check(_NAME.match(name) is not None, name)
    parts = [f"<{name}"]
    for key, value in (attrs or {}).items():
        if value is None or value is False:
            continue
        key = key.rstrip("_").replace("_", "-")
        _check(_NAME.match(key) is not None and not key.startswith("on"), key)
        if key in ("href", "action", "src"):
            own = isinstance(value, str) and value.startswith("/") and not value.startswith("//")
            _check(own, key)
        parts.append(f" {key}" if value is True else f' {key}="{esc(str(value))}"')
    parts.append(">")
    if name in VOID:
        return Markup("".join(parts))
    return Markup("".join(parts) + esc(list(children)) + f"</{name}>")


def _check(ok: bool, what: str) -> None:
    if not ok:
        raise ValueError(f"refused in markup: {what[:40]!r}")


def url(base: str, path: str, **query: object) -> str:
    """An own path under the mount point ``base`` with its query (values as text)."""
    args = {k: str(v) for k, v in query.items() if v is not None and v != ""}
    return f"{base}{path}" + (f"?{urlencode(args)}" if args else "")


def when(ms: object) -> str:
    """Epoch milliseconds as a UTC time people read (deterministic)."""
    if isinstance(ms, bool) or not isinstance(ms, int):
        return "-"
    try:
        moment = datetime.fromtimestamp(ms / 1000, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return str(ms)
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC")


def size(n: int) -> str:
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{n} B"

"""HTML built from parts that escape everything: a value becomes text unless it is ``Markup``,
which only this package's own builders make. Observation text can never become HTML here.

Bidirectional controls (``BIDI``: U+202A-U+202E, U+2066-U+2069, U+200E/F, U+061C) would make
stored text display as other text (a repository ``/work/\u202egnp.exe`` reads backwards), so
text shows each one as a marked-up ``<U+202E>``; an attribute value keeps the character itself
(``&#x202E;``: a form sends back what it was given), and ``<title>``, which holds no markup,
shows the plain ``<U+202E>``.

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
BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_BIDI = re.compile(f"[{BIDI}]")


def _code_point(found: re.Match[str]) -> str:
    return f"&lt;U+{ord(found.group()):04X}&gt;"


def _shown(found: re.Match[str]) -> str:
    return f'<span class="bidi">{_code_point(found)}</span>'


def _reference(found: re.Match[str]) -> str:
    return f"&#x{ord(found.group()):04X};"


class Markup(str):
    """Trusted HTML (built by ``tag``); any other ``str`` is text and gets escaped."""

    __slots__ = ()


def esc(value: object) -> Markup:
    if isinstance(value, Markup):
        return value
    if value is None:
        return Markup("")
    if isinstance(value, str):
        return Markup(_BIDI.sub(_shown, html.escape(value, quote=True)))
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
        parts.append(f" {key}" if value is True else f' {key}="{_attribute(value)}"')
    parts.append(">")
    if name in VOID:
        return Markup("".join(parts))
    if name == "title":  # text only: a tag in it would show as its characters
        inner = "".join(_BIDI.sub(_code_point, html.escape(str(c), quote=True)) for c in children)
        return Markup("".join(parts) + inner + "</title>")
    return Markup("".join(parts) + esc(list(children)) + f"</{name}>")


def _attribute(value: object) -> str:
    return _BIDI.sub(_reference, html.escape(str(value), quote=True))


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

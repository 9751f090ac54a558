"""The checks of values that cross a boundary (library arguments, wire JSON, bundles): text
SQLite can hold, bounded sizes, ids, times, JSON provenance.

Pure functions; they raise ``InvalidInputError`` for what cannot be repaired and repair what can
(NUL bytes and lone surrogates become U+FFFD; oversized content keeps its head and tail).
``model.sanitize`` re-exports them for the write path; ``model.wire`` reads the wire with them.

Must not import anything from Kindling except ``errors`` and ``model``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kindling.errors import InvalidInputError
from kindling.model.entities import Scope

MAX_CONTENT_BYTES = 1 << 20  # 1 MiB: a whole log fits; a core dump does not
MAX_PROVENANCE_BYTES = 64 << 10
MAX_PROVENANCE_DEPTH = 64  # JSON nesting: deeper input is an attack, not a tool's metadata
MAX_ID_CHARS = 256
# Distinct observations one summary cites. A list in a body is read once per distinct id, so
# its length, not the body's size, is what a request costs: 100,000 repeats of one id (4 MB)
# held a server for seconds when each was read on its own (issue 32).
MAX_EVIDENCE_REFS = 1_000
MAX_TS = 253_402_300_799_999  # 9999-12-31T23:59:59.999Z
REPLACEMENT = "\ufffd"
# NUL cannot live in every SQLite text path; STX/ETX are our highlight markers.
_CONTROL = {0: REPLACEMENT, 2: REPLACEMENT, 3: REPLACEMENT}


def clean_text(text: str) -> str:
    """Replace NUL, marker characters and lone surrogates; keep everything else."""
    if text.isascii() and type(text) is str:  # a flag CPython keeps: the common case is 3 memchrs
        if "\x00" in text or "\x02" in text or "\x03" in text:
            return text.translate(_CONTROL)
        return text
    cleaned = text.translate(_CONTROL)
    try:
        cleaned.encode("utf-8")
    except UnicodeEncodeError:
        # Through UTF-16: a split surrogate pair becomes its character again, and each lone
        # surrogate becomes exactly one U+FFFD.
        cleaned = cleaned.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return cleaned


def cap_content(text: str, limit: int = MAX_CONTENT_BYTES) -> tuple[str, int | None]:
    """Keep head and tail of text over ``limit`` UTF-8 bytes; return (text, original bytes)."""
    if len(text) * 4 <= limit or (len(text) <= limit and text.isascii()):
        return text, None  # within the limit whatever its bytes (nearly every capture)
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text, None
    marker = f"\n…[kindling: {len(data) - limit} bytes elided]…\n"
    keep = (limit - len(marker.encode("utf-8"))) // 2
    head = data[:keep].decode("utf-8", "ignore")
    tail = data[len(data) - keep :].decode("utf-8", "ignore")
    return head + marker + tail, len(data)


def require_text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise InvalidInputError(f"{name} must be a string, got {type(value).__name__}")
    text = clean_text(value)
    if not text.strip():
        raise InvalidInputError(f"{name} is blank; pass some text")
    return text


def require_id(value: object, name: str = "id") -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError(f"{name} must be a non-empty string")
    if len(value) > MAX_ID_CHARS or "\x00" in value or clean_text(value) != value:
        raise InvalidInputError(
            f"{name} must be at most {MAX_ID_CHARS} characters of valid text without NUL"
        )
    return value


def distinct_ids(
    values: object, name: str, what: str = "id", limit: int | None = None
) -> tuple[str, ...]:
    """``values``, a list of ids, each once in the order given. Duplicates go first, before any
    check or read, so a repeated id costs one (and 100,000 repeats of one id cost about what a
    dict costs to take them: C speed); over ``limit`` distinct ids is refused as soon as the
    ``limit + 1``-th shows (100,000 different ids stop after the first slices)."""
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise InvalidInputError(f"{name} must be a list of ids")
    distinct: dict[object, None] = {}
    try:
        step = len(values) if limit is None else limit
        for start in range(0, len(values), max(step, 1)):
            distinct.update(dict.fromkeys(values[start : start + step]))
            if limit is not None and len(distinct) > limit:
                raise InvalidInputError(
                    f"{name} names more than {limit} different ids; at most {limit}"
                )
    except TypeError:  # an unhashable item (a list, an object) is no id
        _only_ids(values, what)
        raise InvalidInputError(f"{name} must be a list of ids") from None
    if not set(map(type, distinct)) <= {str}:
        _only_ids(distinct, what)
    return tuple(require_id(value, what) for value in distinct)


def _only_ids(values: Iterable[object], what: str) -> None:
    """Raise ``require_id``'s own error for the first value that is not a string."""
    for value in values:
        if not isinstance(value, str):
            require_id(value, what)


def require_ts(value: object, name: str = "ts") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(f"{name} must be an integer epoch-milliseconds timestamp")
    if value < 0 or value > MAX_TS:
        raise InvalidInputError(
            f"{name} must be between 0 and {MAX_TS} (epoch milliseconds), got {value}"
        )
    return value


def require_confidence(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInputError("confidence must be a number between 0 and 1")
    number = float(value)
    if not 0.0 <= number <= 1.0:  # also rejects NaN
        raise InvalidInputError(f"confidence must be between 0 and 1, got {value}")
    return number


def require_provenance(value: Mapping[str, Any] | None) -> dict[str, Any]:
    """A JSON object of bounded size; keys must be strings."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidInputError("provenance must be a JSON object (a dict with string keys)")
    flat = _flat_provenance(value)
    if flat is not None:
        return flat
    check_depth(value, "provenance")
    try:
        text = json.dumps(value, allow_nan=False, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidInputError(
            f"provenance must be JSON-serialisable with string keys and finite numbers ({exc})"
        ) from None
    text = clean_text(text)
    if len(text.encode("utf-8")) > MAX_PROVENANCE_BYTES:
        raise InvalidInputError(
            f"provenance is larger than {MAX_PROVENANCE_BYTES} bytes; store big data as content"
        )
    parsed: dict[str, Any] = json.loads(text)
    return parsed


_INT_RANGE = range(-(1 << 63), 1 << 63)


def _flat_provenance(value: Mapping[str, Any]) -> dict[str, Any] | None:
    """What ``require_provenance`` returns for a flat dict of ASCII keys and strings, bools,
    None, finite floats and 64-bit ints (nearly every capture), without its JSON round trip;
    None for anything else (the round trip decides). The same result: the JSON text would hold
    these values as they are, in key order, within the size limit (``bound``: every character
    escaped to six, every number at its longest)."""
    if type(value) is not dict:
        return None
    bound = 2
    for key, item in value.items():
        if type(key) is not str or not key.isascii():
            return None
        kind = type(item)
        if kind is str:
            if not item.isascii():
                return None
            bound += 6 * len(item)
        elif kind is int:
            if item not in _INT_RANGE:
                return None
        elif kind is float:
            if not math.isfinite(item):
                return None
        elif kind is not bool and item is not None:
            return None
        bound += 6 * len(key) + 32
    if bound > MAX_PROVENANCE_BYTES:
        return None
    return dict(sorted(value.items()))


MAX_LIMIT = 10_000


def require_choice(value: object, allowed: Sequence[str], name: str) -> Any:
    if value not in allowed:
        raise InvalidInputError(f"invalid {name} {value!r}; use one of: {', '.join(allowed)}")
    return value


def require_limit(value: object, name: str = "limit") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_LIMIT:
        raise InvalidInputError(f"{name} must be an integer from 1 to {MAX_LIMIT}")
    return value


def require_scope(value: object) -> Scope:
    if value is None:
        return Scope()
    if isinstance(value, Scope):
        scope = value
    elif isinstance(value, Mapping):
        scope = Scope.from_dict(value)
    else:
        raise InvalidInputError("scope must be a kindling.Scope (or a dict of its fields)")
    for name, text in scope.items():
        if clean_text(text) != text:  # a lone surrogate cannot be stored or compared
            raise InvalidInputError(f"scope {name} must be valid Unicode text")
    return scope


_SCALARS = frozenset({str, int, float, bool, type(None)})


def check_depth(value: object, name: str, limit: int = MAX_PROVENANCE_DEPTH) -> None:
    """Refuse JSON-like data nested deeper than ``limit`` (walked without recursion)."""
    if type(value) is dict and all(type(item) in _SCALARS for item in value.values()):
        return  # flat (most provenance): nothing to walk
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if type(item) in _SCALARS:
            continue  # most values: no abstract Mapping check (it runs on every capture)
        if isinstance(item, Mapping | list | tuple):
            if depth > limit:
                raise InvalidInputError(f"{name} is nested deeper than {limit} levels")
            children = item.values() if isinstance(item, Mapping) else item
            stack.extend((child, depth + 1) for child in children)

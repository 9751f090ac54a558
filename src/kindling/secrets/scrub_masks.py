"""What is done to a text after the rules: each mask takes the whole token it stands in.

A rule's pattern ends where its author ended it, and a value can run on past it:

- letters and digits glued after a mask (issue 32, seventeenth pass): a key longer than its
  vendor's documented length (a new format, a dummy), or a rule loaded as data whose pattern
  stops at a fixed length, left its last characters in the clear
  (``AIza<35>x9Q`` became ``[REDACTED:vendor_secret]x9Q``). Letters and digits only: ``:``,
  ``@``, ``/``, ``.`` and ``_`` join the mask to something else (``<token>:x-oauth-basic``,
  ``<key>@host``, ``<password>_FILE``);
- a mask that fills a quoted value but for a few signs at its end (``"[REDACTED:secret]!"``:
  a rule's value stops at ``!``): the quoted value is one value, and its last signs are
  masked with it. Signs only: a tail with a letter, ``:``, ``@`` or ``/`` is part of
  something else (``"<token>:x-oauth-basic"`` keeps its user).

``mask_copies`` masks every other copy of the values the rules masked (a password a command
printed twice), never inside a mask already there (``password]`` was masked inside
``[REDACTED:url_password]``: 28th pass). Each value was looked for in the whole text, so a
text holding thousands of masked values (a MiB of random tokens) took time in their product:
18 s for a MiB (issue 32, nineteenth pass). Past a size, the values a text holds are found in
one pass over it, by their first characters, and only those are replaced, in the same order
as before.

Run once by ``secrets.scrub`` on a text that had a mask. Must not import anything from Kindling
except ``secrets.regex_cache``.
"""

from __future__ import annotations

import re

from kindling.secrets.regex_cache import compile as cached_compile

_MASK = cached_compile(r"(\[REDACTED:[a-z0-9_]++\])", re.ASCII)
_GLUED_TAIL = cached_compile(r"(\[REDACTED:[a-z0-9_]++\])[A-Za-z0-9]++", re.ASCII)
_QUOTED_TAIL = cached_compile(
    r"""(["'`])(\[REDACTED:[a-z0-9_]++\])[!#$%^&*+=?~;|<>(){}-]{1,8}+\1""", re.ASCII
)


def whole_tokens(text: str) -> str:
    """``text`` with what is glued after each mask, and each quoted mask's trailing signs,
    masked with it."""
    if "[REDACTED:" not in text:
        return text
    return _QUOTED_TAIL.sub(r"\1\2\1", _GLUED_TAIL.sub(r"\1", text))


# Past this product of values and characters, the values' copies are found in one pass.
_INDEXED_WORK = 4_000_000


def mask_copies(text: str, values: dict[str, str], shortest: int) -> str:
    """``text`` with every copy of each value (value -> kind; none shorter than ``shortest``)
    masked, longest value first."""
    candidates = list(values)
    if len(candidates) > 8 and len(candidates) * len(text) > _INDEXED_WORK:
        candidates = _held(text, candidates, shortest)
    # The masks the text may hold, read once: a value that is a piece of one (``password]`` in
    # ``[REDACTED:url_password]``, from ``://[user[:password]@]host``) is replaced outside them.
    masks = set(_MASK.findall(text)) | {f"[REDACTED:{kind}]" for kind in values.values()}
    for value in sorted(candidates, key=len, reverse=True):
        if value in text:
            mask = f"[REDACTED:{values[value]}]"
            if any(value in m for m in masks):
                text = _replace_outside_masks(text, value, mask)
            else:
                text = text.replace(value, mask)
    return text


def _replace_outside_masks(text: str, value: str, mask: str) -> str:
    parts = _MASK.split(text)  # (text, mask, text, ..., text): the group keeps the masks
    return "".join(p if i % 2 else p.replace(value, mask) for i, p in enumerate(parts))


def _held(text: str, values: list[str], shortest: int) -> list[str]:
    """The values ``text`` holds, found in one pass by their first ``shortest`` characters."""
    heads: dict[str, list[str]] = {}
    for value in values:
        heads.setdefault(value[:shortest], []).append(value)
    held: set[str] = set()
    get = heads.get
    for i in range(len(text) - shortest + 1):
        if (same_head := get(text[i : i + shortest])) is not None:
            held.update(v for v in same_head if text.startswith(v, i))
    return [v for v in values if v in held]

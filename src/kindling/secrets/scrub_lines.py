"""The line holding a position, read at most ``REACH`` characters each way.

The rules ask for the line around a key once a key. Reading a line of minified JSON whole for
each of its keys takes time quadratic in the line's length, so every such check reads through
here and treats a line longer than that as no line at all (each caller says which way that
falls). ``quoted_before`` reads back over a key's words, at most 64 characters, to the quote a
string it ends opened (``'DB_PASS:'``). Imports nothing from Kindling.
"""

from __future__ import annotations

REACH = 1000


def line_start(text: str, at: int) -> int | None:
    """Where the line holding ``at`` starts, or None past ``REACH`` characters back."""
    lo = max(0, at - REACH)
    start = text.rfind("\n", lo, at) + 1
    return start if start or lo == 0 else None


def line_head(text: str, at: int) -> str | None:
    """The line holding ``at`` up to ``at``, or None past ``REACH`` characters back."""
    start = line_start(text, at)
    return None if start is None else text[start:at]


def line_at(text: str, at: int) -> str | None:
    """The line holding ``at``, or None when it runs past ``REACH`` characters either way."""
    start = line_start(text, at)
    stop = text.find("\n", at, at + REACH)
    if start is None or (stop < 0 and len(text) - at > REACH):
        return None
    return text[start : len(text) if stop < 0 else stop]


def quoted_before(text: str, key_end: int, quote: str) -> bool:
    """The word ending at ``key_end`` (a key's), maybe after other words on its line, follows
    ``quote``: a string it ends (``'DB_PASS:'``, ``'Initial Root Token:'``)."""
    start = key_end
    while (
        start > 0
        and key_end - start < 64
        and (text[start - 1].isalnum() or text[start - 1] in "_.- \t")
    ):
        start -= 1
    return start > 0 and text[start - 1] == quote

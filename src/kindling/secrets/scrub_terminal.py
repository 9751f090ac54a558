"""Terminal colour codes in the text ``secrets.scrub`` masks (issue 32's fourth pass).

A tool's output on a terminal is full of ANSI escape sequences (``ESC[93m`` ... ``ESC[0m``):
test runners, linters, ``git diff`` and loggers colour what they print, and a secret printed
in colour sits between two of them. The sequence ends in a letter (``m``), so to every rule a
token right after it is part of a longer word (``msk-...``) and no word boundary opens. The
rules therefore also read the text without its escape sequences; each value found there is
masked wherever it occurs in the text as written (the sequences are kept: they are not
secrets). Only texts that hold ``ESC[`` pay for it.

Must not import anything from Kindling (``secrets.scrub`` passes its own functions in);
standard library ``re`` only (hooks import it).
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from kindling.secrets.scrub import Scrubbed

# ECMA-48 control sequences: ESC [, parameter bytes, intermediate bytes, one final byte.
_CSI = re.compile(r"\x1b\[[0-?]*+[ -/]*+[@-~]")


def without_escapes(text: str) -> str | None:
    """``text`` with its ANSI control sequences removed, or None when it holds none."""
    if "\x1b[" not in text:
        return None
    plain = _CSI.sub("", text)
    return plain if plain != text else None


def through_escapes(
    text: str, scrub: Callable[[str], Scrubbed], mask_copies: Callable[[str, dict[str, str]], str]
) -> Scrubbed:
    """``scrub`` of ``text``, after every value it finds in the text without its escape
    sequences is masked in ``text`` (``mask_copies``: value -> kind)."""
    plain = without_escapes(text)
    seen = scrub(plain).found if plain is not None else ()
    rest = scrub(mask_copies(text, dict(seen)) if seen else text)
    kinds = {kind for value, kind in seen if value in text} | set(rest.kinds)
    found = {**dict(seen), **dict(rest.found)}
    return type(rest)(rest.text, tuple(sorted(kinds)), tuple(found.items()))

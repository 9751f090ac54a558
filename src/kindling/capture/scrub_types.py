"""The scrubber's shared types: a rule's lazily compiled pattern, and what a rule is.

A leaf, so that ``capture.scrub`` and the rule modules it loads on first use
(``scrub_rules``, ``scrub_keyed``, ``scrub_context``, ``scrub_data``) all import it without
importing each other in a circle. Standard library ``re`` only (hooks import it: no ``typing``
at run time).

Must not import anything from Kindling.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    # A rule looks at one match and returns (kind, replacement), or None to leave it as is.
    Rule = Callable[[re.Match[str]], tuple[str, str] | None]


class LazyPattern:
    """A rule's pattern, compiled the first time text holding one of its keywords needs it.

    A hook is a fresh process that scrubs one event: compiling all ~140 rules up front cost
    about 20 ms of its 40 ms budget, while a typical event wakes a handful of them."""

    __slots__ = ("_compiled", "flags", "source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source = source
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    def sub(self, repl: Callable[[re.Match[str]], str], text: str) -> str:
        if self._compiled is None:
            self._compiled = re.compile(self.source, self.flags)
        return self._compiled.sub(repl, text)

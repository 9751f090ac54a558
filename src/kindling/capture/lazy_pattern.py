"""A regular expression compiled the first time it is used (the scrubber's rules).

Must not import anything from Kindling: ``capture.scrub`` stays cheap to import for the hooks.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


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

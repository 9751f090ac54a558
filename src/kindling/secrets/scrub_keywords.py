"""Which of the scrubber's rules a text wakes: the rule keywords it holds, found in one pass.

A rule of ``secrets.scrub`` runs only when one of its keywords occurs in the lowercased text.
Asking ``word in text`` for each of the ~240 keywords costs some 40 µs on a 200-character
observation; this index answers the same question with one scan of a regular expression built
as a trie of the keywords (``gl(?:pat-|dt-|...)``), so each position of the text costs a few
character comparisons, and maps the keywords found to their rules without looking at the
others (a flat alternation of the keywords is slower than the substring loop: each position
tries every branch).

The scan reports, at each position it stops at, the longest keyword starting there, and goes
on after it. The keywords it steps over are recovered exactly: those inside a reported keyword
are known in advance, and those that start inside one and run past its end (few, listed per
keyword) are checked with ``in``. So ``present`` always equals the substring loop
(``present_by_substring``); ``tests/test_scrub_keywords.py`` holds it to that.

Compiling the trie costs a few milliseconds, more than a hook (a fresh process that scrubs one
event) saves with it: the index uses the substring loop for a process's first texts and builds
the trie once the process has scrubbed ``SCAN_AFTER`` of them.

Must not import anything but ``re`` (hooks load it on their first scrub).
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    Trie = dict[str, "Trie"]

# Texts scrubbed with the substring loop before the trie is compiled (a long-lived process).
SCAN_AFTER = 200
# A text this long is scanned with the trie at once: the loop asks ``in`` once per keyword
# (about 1,100 with the data rules), each a pass over the whole text.
SCAN_ABOVE = 32_768


def trie_source(words: Iterable[str]) -> str:
    """A pattern matching any of ``words``, the longest one where several start at a place."""
    root: Trie = {}
    for word in words:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: Trie) -> str:
        branches = [re.escape(ch) + emit(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"
        # Greedy: a longer keyword is tried before the one that ends here.
        return f"(?:{body})?" if "" in node else body

    return emit(root)


class KeywordIndex:
    """The rules each keyword wakes, and the scan that finds the keywords of a text."""

    def __init__(self, rule_keywords: Sequence[tuple[str, ...]]) -> None:
        rules_of: dict[str, set[int]] = {}
        for number, words in enumerate(rule_keywords):
            for word in words:
                rules_of.setdefault(word, set()).add(number)
        self.rules_of = {word: frozenset(rules) for word, rules in rules_of.items()}
        self.keywords = frozenset(self.rules_of)
        self._scan: re.Pattern[str] | None = None
        self._texts = 0

    def _build_scan(self) -> re.Pattern[str]:
        # Single characters (digits) are asked with ``in`` (a memchr): in the trie each one
        # would be a match of its own, and a line of numbers would stop the scan everywhere.
        words = sorted(w for w in self.keywords if len(w) > 1)
        self._chars = tuple((w, self.rules_of[w]) for w in sorted(self.keywords) if len(w) == 1)
        # For each keyword the scan can report: the rules of the keywords inside it, and the
        # keywords that can start inside it and end after it (a proper suffix of it is a
        # proper prefix of theirs), which the scan steps over and ``in`` checks.
        longer: dict[str, list[str]] = {}
        for word in words:
            for end in range(1, len(word)):
                longer.setdefault(word[:end], []).append(word)
        self._inside = {
            w: frozenset(r for k in words if k in w for r in self.rules_of[k]) for w in words
        }
        self._across = {
            w: tuple(
                (k, self.rules_of[k])
                for k in sorted({k for i in range(1, len(w)) for k in longer.get(w[i:], ())})
            )
            for w in words
        }
        return re.compile(trie_source(words))

    @property
    def scanning(self) -> bool:
        """True once the trie is compiled (the process scrubbed ``SCAN_AFTER`` texts)."""
        return self._scan is not None

    def woken_by_substring(self, lowered: str) -> list[int]:
        """The rules ``lowered`` wakes, asking ``in`` for every keyword (the reference)."""
        rules = {r for word in self.keywords if word in lowered for r in self.rules_of[word]}
        return sorted(rules)

    def woken_by_scan(self, lowered: str) -> list[int]:
        """The rules ``lowered`` wakes, from one scan of the keyword trie."""
        if self._scan is None:
            self._scan = self._build_scan()
        rules: set[int] = set()
        found = set(self._scan.findall(lowered))
        for word in found:
            rules |= self._inside[word]
        for word in found:
            for longer, its_rules in self._across[word]:
                if not its_rules <= rules and longer in lowered:
                    rules |= its_rules
        for char, its_rules in self._chars:
            if char in lowered:
                rules |= its_rules
        return sorted(rules)

    def woken(self, lowered: str) -> list[int]:
        """The numbers of the rules ``lowered`` wakes, in rule order."""
        if self._scan is None and self._texts < SCAN_AFTER and len(lowered) < SCAN_ABOVE:
            self._texts += 1
            return self.woken_by_substring(lowered)
        return self.woken_by_scan(lowered)

"""Which of the scrubber's rules a text wakes: the rule keywords it holds, found in one pass.

A rule of ``secrets.scrub`` runs only when one of its keywords occurs in the lowercased text.
Asking ``word in text`` for each of the ~950 keywords costs 60-80 µs on a 200-character
observation. This index finds them all with one pass of an Aho-Corasick automaton
(``pyahocorasick``, a C extension made for this), which reports every keyword occurrence,
overlapping ones included, in about 7 µs for the same text; the keywords found map to their
rules. A regular expression built as a trie of the keywords, which this module used before,
took 30 µs: ``re`` tries the trie at every position of the text.

The automaton is built on a process's first text (under a millisecond for both of the
scrubber's indexes), so a hook that scrubs one event pays for it once.
``woken_by_substring`` is the reference it must agree with
(``tests/secrets/test_scrub_keywords.py``).

Must not import anything but ``ahocorasick`` (hooks load it on their first scrub).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


class KeywordIndex:
    """The rules each keyword wakes, and the automaton that finds the keywords of a text."""

    def __init__(self, rule_keywords: Sequence[tuple[str, ...]]) -> None:
        rules_of: dict[str, set[int]] = {}
        for number, words in enumerate(rule_keywords):
            for word in words:
                rules_of.setdefault(word, set()).add(number)
        self.rules_of = {word: frozenset(rules) for word, rules in rules_of.items()}
        self.keywords = frozenset(self.rules_of)
        self._automaton: object = None

    def _build(self) -> object:
        import ahocorasick  # type: ignore[import-not-found,unused-ignore]

        automaton = ahocorasick.Automaton()
        for word, rules in self.rules_of.items():
            automaton.add_word(word, rules)
        if self.rules_of:
            automaton.make_automaton()
        return automaton

    def woken_by_substring(self, lowered: str) -> list[int]:
        """The rules ``lowered`` wakes, asking ``in`` for every keyword (the reference)."""
        rules = {r for word in self.keywords if word in lowered for r in self.rules_of[word]}
        return sorted(rules)

    def woken(self, lowered: str) -> list[int]:
        """The numbers of the rules ``lowered`` wakes, in rule order."""
        if not self.rules_of:
            return []
        automaton = self._automaton
        if automaton is None:
            automaton = self._automaton = self._build()
        # Each keyword's rule set is one frozenset object: collect the distinct ones first.
        found = {id(rules): rules for _, rules in automaton.iter(lowered)}  # type: ignore[attr-defined]
        if not found:
            return []
        return sorted(frozenset().union(*found.values()))

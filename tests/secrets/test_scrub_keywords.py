"""The scrubber's keyword index wakes exactly the rules the substring loop wakes, so scrubbing
gives the same result as asking ``word in text`` for every keyword of every rule.

``secrets.scrub_keywords`` finds a text's keywords with one pass of an Aho-Corasick automaton
instead of asking ``in`` for each of them; a rule it failed to wake would let a secret through
unnoticed by any other test that does not happen to hold that keyword in that position. So both
paths are compared over the whole secret corpus (secrets and look-alikes), over every keyword
glued to every other (overlapping keywords), and over random text.

The reference is the keyword-gated result, not literally every rule: gating is part of the
scrubber's precision (a rule keyed by a vendor name runs only near that name), and on 32 of
the corpus's 14,453 texts running every rule names a mask differently or masks a look-alike.
"""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling.secrets import scrub
from kindling.secrets.scrub_keywords import KeywordIndex
from tests.support.secret_samples import non_secret_samples, secret_samples

RULES, INDEX = scrub._rules()
KEYWORDS = sorted(INDEX.keywords)


def _corpus() -> list[str]:
    texts = [s.text for s in secret_samples()]
    texts += [text for text, _ in non_secret_samples()]
    return texts


CORPUS = _corpus()


def test_the_automaton_wakes_the_same_rules_as_the_substring_loop_on_the_corpus() -> None:
    index = KeywordIndex([keywords for keywords, _, _ in RULES])
    for text in CORPUS:
        lowered = text.lower()
        assert index.woken(lowered) == index.woken_by_substring(lowered), text


def _reference(text: str) -> scrub.Scrubbed:
    """Every rule with a keyword in the text, each keyword asked with ``in`` (and the rules
    any candidate wakes, when the text holds one)."""
    return scrub.run_rules(text, scrub.reference_woken(text))


def test_scrubbing_gives_the_reference_result_on_the_corpus() -> None:
    for text in CORPUS:  # one pass each (scrub_secrets repeats passes to a fixed point)
        assert scrub.scrub_once(text) == _reference(text), text


@pytest.mark.slow  # about 110,000 overlaps and 120,000 neighbours: half a minute
def test_keywords_overlapping_each_other_are_all_found() -> None:
    # Keywords that overlap: one starts inside another and ends after it (every such pair, found
    # through the keywords' prefixes). Then keywords side by side: each beside 32 others, a
    # seeded draw, either way round (every pair of 1,864 keywords was 3.5 million texts and ten
    # minutes of the suite; random texts of keywords glued together are the test below).
    index = KeywordIndex([keywords for keywords, _, _ in RULES])
    starting: dict[str, list[str]] = {}
    for word in KEYWORDS:
        for end in range(1, len(word) + 1):
            starting.setdefault(word[:end], []).append(word)
    for first in KEYWORDS:
        for cut in range(1, len(first)):
            for second in starting.get(first[cut:], []):
                text = first[:cut] + second
                assert index.woken(text) == index.woken_by_substring(text), text
    for neighbour in random.Random(24).sample(KEYWORDS, 32):
        for word in KEYWORDS:
            for text in (word + neighbour, neighbour + word):
                assert index.woken(text) == index.woken_by_substring(text), text


def test_a_text_without_keywords_wakes_nothing() -> None:
    assert INDEX.woken("plain words only") == []
    assert scrub.scrub_secrets("plain words only") == scrub.Scrubbed("plain words only", ())


PIECES = [*KEYWORDS, *(k.upper() for k in KEYWORDS), "=", ": ", '"', " ", "\n", "_", "-", "."]
keyword_text = st.lists(
    st.one_of(st.sampled_from(PIECES), st.text(st.sampled_from(string.printable), max_size=6)),
    max_size=25,
).map("".join)
any_text = st.one_of(keyword_text, st.text(st.characters(), max_size=300))


@settings(max_examples=400)
@given(any_text)
def test_the_automaton_wakes_the_same_rules_as_the_substring_loop(text: str) -> None:
    lowered = text.lower()
    assert INDEX.woken(lowered) == INDEX.woken_by_substring(lowered)


@settings(max_examples=300)
@given(any_text)
def test_scrubbing_gives_the_reference_result(text: str) -> None:
    assert scrub.scrub_once(text) == _reference(text)

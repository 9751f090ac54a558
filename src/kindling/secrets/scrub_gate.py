"""The candidate gate of ``secrets.scrub``: which of the rules that mask by value a text wakes.

Most texts hold nothing shaped like a generated credential; the rules that find a secret by
its value alone are marked here (``gated``) and skipped, with their keyword scan, on a text
that holds no candidate (``gate``). Each marked rule checks its own value with the same test,
so the gate never changes a result (``tests/secrets/test_scrub_gate.py``).

A leaf, like ``secrets.scrub_values``: the rule modules and ``secrets.scrub`` import it, and it
imports nothing from Kindling except ``secrets.regex_cache`` (and ``scrub_values`` for a type).
"""

from __future__ import annotations

import re

from kindling.secrets.regex_cache import compile as cached_compile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule

# A token that could be a generated credential: 8+ characters of a credential's alphabet with a
# digit among them or 8 hex digits in a row (``deadbeef``), or 20+ with two capitals at most
# one letter apart (``xKQz``, not the ``ClientSerializer`` of a CamelCase name) or 20 small
# letters in a row (a draw of one case, ``scrub_letters``; 1,933 of 4.5M lines of the
# standard library hold such a run and no other candidate). The rules that
# find a secret by its value alone (self-identifying shapes, random tokens, a value near a key
# word, loose keys, the kingfisher data rules) mask only such a value (or, for two of them, a
# ``typed_key`` given to a secret word: ``woken_by_typed_key``), so a text with none skips them
# and their keyword scan (``gated``). The runs
# are maximal (a run of 8 or more is matched from its start), so a value's run lies inside
# one of its text's runs.
_RUN = cached_compile(r"[A-Za-z0-9+/=_.~-]{8,}", re.ASCII)
_DIGIT = cached_compile(r"[0-9]|[a-fA-F]{8}", re.ASCII)
_CAPITALS = cached_compile(r"[A-Z][a-z]?[A-Z]", re.ASCII)
_LETTERS = cached_compile(r"[A-Za-z]{16}", re.ASCII)
# Eight letters typed along the alphabet, either way: a dummy typed in a key's place
# (``abcdefghijklmnopqrstuvwx``), which ``scrub_typed.typed_placeholder`` judges; or 20
# small letters in a row, which ``scrub_letters.drawn_letters`` judges.
_TYPED_OR_SMALL = cached_compile(r"(?i:abcdefgh|zyxwvuts)|[a-z]{20}", re.ASCII)
_GATED: set[object] = set()


# What a text wakes among the gated rules (``gate``): none; those that also mask a
# letters-only ``typed_key`` after a secret word (``woken_by_typed_key``), when it holds no
# candidate but 16+ letters in a row; or all of them, when it holds a candidate.
NO_CANDIDATE, LETTER_RUN, CANDIDATE = 0, 1, 2


def gate(text: str) -> int:
    """``CANDIDATE`` when ``text`` holds a token that could be a generated credential (see
    above), else ``LETTER_RUN`` when it holds 16+ letters in a row (where a ``typed_key`` of
    letters only, ``SECRET abcdefghijklmnopqrst``, could be), else ``NO_CANDIDATE``. One pass
    over the runs for both: a hook scrubs every short text of a session."""
    letters = False
    for run in _RUN.findall(text):
        if _DIGIT.search(run) is not None:
            return CANDIDATE
        if len(run) >= 20 and (_CAPITALS.search(run) or _TYPED_OR_SMALL.search(run)) is not None:
            return CANDIDATE
        if not letters and len(run) >= 16:
            letters = _LETTERS.search(run) is not None
    return LETTER_RUN if letters else NO_CANDIDATE


def has_candidate(text: str) -> bool:
    """True when ``text`` holds a token that could be a generated credential (see above)."""
    return gate(text) == CANDIDATE


def gated(rule: Rule) -> Rule:
    """Mark ``rule`` as one that masks only a candidate value: ``secrets.scrub`` runs it only
    on texts for which ``has_candidate`` is true. The rule must check its value with
    ``has_candidate`` itself, so skipping it never changes a result."""
    _GATED.add(rule)
    return rule


def is_gated(rule: Rule) -> bool:
    return rule in _GATED


_ANY_CANDIDATE: set[object] = set()


def woken_by_any_candidate(rule: Rule) -> Rule:
    """Mark a gated ``rule`` that a candidate wakes without a keyword: a random token of
    letters only (``kETSVUrnPuVzCcVj...``) holds no word to find it by. A keyword scan for
    every letter would report each character of a text; ``has_candidate`` is asked anyway."""
    _ANY_CANDIDATE.add(gated(rule))
    return rule


def is_woken_by_any_candidate(rule: Rule) -> bool:
    return rule in _ANY_CANDIDATE


_TYPED_KEY: set[object] = set()


def woken_by_typed_key(rule: Rule) -> Rule:
    """Mark a gated ``rule`` that also masks a ``typed_key`` given to a secret word: it runs
    as well on a text with no candidate but a run of 16+ letters (``gate``), which every
    letters-only ``typed_key`` is. Only these rules: a long CamelCase name would wake every
    gated rule for nothing (of 257,104 lines of site-packages, 3.5% hold 16+ letters in a row
    and no candidate; waking them all there cost a fifth more time a line)."""
    _TYPED_KEY.add(gated(rule))
    return rule


def is_woken_by_typed_key(rule: Rule) -> bool:
    return rule in _TYPED_KEY

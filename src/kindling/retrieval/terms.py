"""Which query terms a text holds, and how much each term weighs: the inputs of calibrated
relevance (``scoring.relevance``). Pure functions, the same for every backend.

- A **term** is a positive plain word or quoted phrase of the query plan. A text holds a
  word when one of its words or camelCase parts starts with the word's stem (``fail`` holds
  for ``failed``, ``token`` for ``validateToken``; a stand-in for the index's porter
  stemmer), or, for an identifier with inner punctuation, when the text holds its joined
  form once that punctuation is removed (``jwt.verify`` -> ``jwtverify``);
  a word with inner punctuation needs its joined form, a path each of its segments, a phrase
  each of its words. A term in a script without spaces (Han, Kana, Hangul, Thai) is held
  when it occurs in the text as written.
- A term's **weight** is a positive, smoothed IDF counted on the items' own text only:
  ``log(1 + (N - df + 0.5) / (df + 0.5))``. It never reaches zero, so a word found in every
  item of a five-row store still counts, and a word found in a neighbour's context never
  makes another item's word weigh less (the issue 23 small-store collapse).
- **Coverage** is the share of the query's weight a text holds: 1.0 for a full match in a
  store of any size.

A quoted phrase that matches nothing is read as its words (``phrases_as_terms``).

Must not import anything from Kindling except ``store.identifiers`` and ``store.fts``.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Collection, Mapping, Sequence

from kindling.store.fts import (
    STOPWORDS,
    Leaf,
    Node,
    QueryPlan,
    build_query,
    identifier_words,
    without_line,
)
from kindling.store.identifiers import joined_form

_WORD = re.compile(r"[^\W_]+")
_INNER = re.compile(r"[._:\-]")
# Scripts written without spaces between words: matched as written (the index cuts them into
# bigrams, so any substring of two or more characters is findable there too).
_UNSPACED = re.compile(r"[\u0e00-\u0e7f\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]")
# A long text is looked at in its head and tail (a command line and its last error lines; a
# traceback's first and last frames), as a neighbour enters the index (store.documents).
HEAD_CHARS = 4_000
TAIL_CHARS = 2_000


def _scanned(text: str) -> str:
    if len(text) <= HEAD_CHARS + TAIL_CHARS:
        return text
    return text[:HEAD_CHARS] + "\n" + text[-TAIL_CHARS:]


_SUFFIXES = ("ational", "ations", "ation", "ings", "ing", "ions", "ion", "ies", "ed", "es", "s")


def stem(word: str) -> str:
    """A crude stem: the word without one common English suffix, kept at 3+ letters."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


class TermMatcher:
    """Which of a question's terms a text holds. Built once per question, then applied to
    each text: a stem is held when the text contains it (a fast substring test) at the start
    of a word or of a camelCase part; a term when all of its stems are held."""

    def __init__(self, terms: Sequence[str]) -> None:
        self.stems = {t: term_stems(t) for t in dict.fromkeys(terms)}
        every = sorted({s for v in self.stems.values() if v for s in v})
        self.boundary = {
            s: re.compile(r"(?:(?<![^\W_])|(?<=[a-z0-9])(?=[A-Z]))(?i:" + re.escape(s) + ")")
            for s in every
        }
        # stems that only an identifier's joined form holds (``jwt.verify`` -> ``jwtverify``)
        self.joined = frozenset(
            stem(j) for t in self.stems for seg in t.split("/") if (j := joined_form(seg))
        )

    def held(self, text: str) -> frozenset[str]:
        if not text:
            return frozenset()
        head = _scanned(text)
        lower = head.lower()
        squeezed: str | None = None
        have: set[str] = set()
        ascii_text = head.isascii()  # then ``lower`` and ``head`` share their positions
        for s, boundary in self.boundary.items():
            if s in lower and (
                _starts_token(head, lower, s) if ascii_text else boundary.search(head)
            ):
                have.add(s)
            elif s in self.joined:
                squeezed = _INNER.sub("", lower) if squeezed is None else squeezed
                if s in squeezed:
                    have.add(s)
        out = []
        for term, stems in self.stems.items():
            if stems is None:
                if term.lower() in lower:
                    out.append(term)
            elif stems and have.issuperset(stems):
                out.append(term)
        return frozenset(out)

    def counts(self, text: str, held: frozenset[str]) -> dict[str, int]:
        """How often each held term occurs in ``text`` (its rarest stem's count, at least 1;
        a substring count: the term frequency of length-normalised coverage)."""
        lower = _scanned(text).lower()
        out = {}
        for term in held:
            stems = self.stems.get(term)
            if not stems:
                out[term] = max(1, lower.count(term.lower()))
            else:
                out[term] = max(1, min(lower.count(s) for s in stems))
        return out


def _starts_token(head: str, lower: str, s: str) -> bool:
    """``boundary.search(head)`` of ``TermMatcher`` for an ASCII text, without a regular
    expression: ``s`` occurs in ``lower`` after a character that is no letter or digit, or
    at a lower-to-upper case step of ``head``."""
    i = lower.find(s)
    while i != -1:
        if i == 0:
            return True
        before = head[i - 1]
        if not before.isalnum() or (head[i].isupper() and not before.isupper()):
            return True
        i = lower.find(s, i + 1)
    return False


def term_stems(term: str) -> tuple[str, ...] | None:
    """The stems a text must hold for ``term``; None for a term matched as written."""
    if _UNSPACED.search(term):
        return None
    core = term.strip("\"'.,;:!?()[]{}<>").lower()
    if " " in core.strip():  # a phrase: each of its words
        return tuple(s for w in core.split() for s in term_stems(w) or ())
    core = without_line(core)  # a pasted location: the path, not its line
    segments = [s for s in core.split("/") if _WORD.search(s)] if "/" in core else [core]
    out: list[str] = []
    for seg in segments:
        joined = joined_form(seg)
        if joined:
            out.append(stem(joined))
        else:
            out += [stem(w) for w in _WORD.findall(seg)]
    return tuple(out)


def idf(total: int, df: int) -> float:
    """BM25's IDF, smoothed to stay positive (``log(1 + ...)``): a term in every document
    still weighs a little."""
    n = max(total, df, 1)
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


# What a word of an identifier in the question weighs beside the identifier itself: it is
# evidence of the identifier (``frame`` of ``Frame.resample``), not a topic of its own.
PART_SHARE = 0.5


def term_weights(
    terms: Sequence[str],
    total: int,
    counts: Mapping[str, int] | None,
    power: float = 1.0,
    typed: Sequence[str] = (),
) -> dict[str, float]:
    """Each term's weight, ``idf ** power`` (a power above 1 lets rare terms carry the
    question), a word the question holds only as part of an identifier at ``PART_SHARE``;
    every term weighs the same when no counts were taken (one term)."""
    if not counts:
        return dict.fromkeys(terms, 1.0)
    parts = {p for t in (*terms, *typed) for p in identifier_words(t) if p != t.lower()}
    return {
        t: idf(total, counts.get(t, 0)) ** power * (PART_SHARE if t in parts else 1.0)
        for t in terms
    }


def saturated(tf: int, length: int, k: float, b: float, reference: int) -> float:
    """A held term's credit in [0, 1]: BM25's term-frequency saturation with length
    normalisation against a fixed ``reference`` length (not the store's average, so the
    credit of a text does not depend on what else is stored). A text up to the reference
    length that holds the term gets full credit; a long one needs the term more often
    (a 6,000-character listing that names it once gets about a fifth)."""
    if b <= 0 or length <= reference:
        return 1.0
    norm = 1.0 - b + b * length / reference
    return min(1.0, tf * (1.0 + k) / (tf + k * norm))


def phrases_as_terms(plan: QueryPlan, phrases: Collection[str]) -> QueryPlan:
    """The plan with each quoted phrase in ``phrases`` (as typed) read as its words, in its
    place: the query is written out again without those quotes and read as usual (stop words
    dropped), so a phrase that matches nothing falls back to its terms (issue 23)."""
    if not phrases or plan.tree is None:
        return plan
    wanted = set(phrases)

    def text(node: Node) -> str:
        if isinstance(node, Leaf):
            if node.phrase:
                return node.text if node.text in wanted else f'"{node.text}"'
            return node.text + ("*" if node.prefix else "")
        return "(" + f" {node.op} ".join(text(c) for c in node.children) + ")"

    again = build_query(text(plan.tree))
    return QueryPlan(
        again.mode, again.match, again.terms, (*plan.dropped, *again.dropped), again.clauses,
        again.phrases, again.negated, again.words, again.summary_match, again.tree,
    )  # fmt: skip


class PairMatcher:
    """Term proximity: which of the question's adjacent word pairs a text holds as written,
    the two words next to each other with only punctuation or blanks between them
    (``custom_coord object`` holds ``custom coord`` and ``coord object``). A pair of two stop
    words says nothing and is left out. Words are ``[^\\W_]+``, lower-cased; a text is looked
    at in its head and tail, as ``TermMatcher`` looks at it."""

    def __init__(self, question: str) -> None:
        words = _WORD.findall(question.lower())
        pairs = dict.fromkeys(
            (a, b) for a, b in itertools.pairwise(words) if not (a in STOPWORDS and b in STOPWORDS)
        )
        self.pairs = tuple(pairs)
        # Each pattern starts with its first word, so the search jumps to where that word
        # stands; the boundary before it is checked at each hit (a look-behind first would make
        # the search try every position).
        self._patterns = [
            (a, b, re.compile(rf"{re.escape(a)}[\W_]+{re.escape(b)}(?![^\W_])"))
            for a, b in self.pairs
        ]

    def share(self, text: str) -> float | None:
        """The share of the pairs ``text`` holds; None when the question has no pair."""
        if not self._patterns:
            return None
        lower = _scanned(text).lower()
        held = 0
        for a, b, pattern in self._patterns:
            if a in lower and b in lower:
                m = pattern.search(lower)
                while m is not None:
                    start = m.start()
                    if start == 0 or not _WORD.match(lower, start - 1):
                        held += 1
                        break
                    m = pattern.search(lower, start + 1)  # hits may overlap ("zqx qx qx")
        return held / len(self._patterns)

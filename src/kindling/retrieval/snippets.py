"""Evidence snippets: bounded, centred on the match, stack traces keep first and last lines.

Match positions are found in the entity's own text by ``find_terms``: no database work on
read. A query word matches a word of the text, or a part of a camelCase identifier, that starts
with the query word's stem (``fail`` for ``failing``/``failed``, a close stand-in for the
index's porter stemmer). A Han, Kana, Hangul or Thai word matches wherever its runs occur
(``store.segments``: the index finds them inside longer runs). Pure and deterministic.

Must not import anything from Kindling except ``model`` and ``store.segments``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from kindling.model import REDACTED
from kindling.store.segments import segment_spans

SNIPPET_CHARS = 240
ELLIPSIS = "…"
_TRACE_LINE = re.compile(
    r"^\s+(at |File \"|\d+: |#\d+ )|^\s*Traceback \(|^goroutine \d+"
    r"|^\s+\S+\.(go|rs|py|java|ts|js):\d+"
)
# Words and the parts of camelCase identifiers, as the index sees them.
_TOKEN = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+|[^\W\d_A-Za-z]+")
_SUFFIXES = (
    "ational",
    "ations",
    "ation",
    "ings",
    "ing",
    "ions",
    "ion",
    "ies",
    "ed",
    "es",
    "s",
    "ly",
)
MAX_SPANS = 64
SCAN_CHARS = 65_536  # matches past this are not looked for: the snippet shows the first one


def stem(word: str) -> str:
    """A crude stem: the word without one common English suffix, kept at 3+ letters."""
    word = word.lower()
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


# A token starts after a character that is no letter or digit, or at a lower-to-upper case step;
# it matches when it starts with a stem, and runs on to the end of its token (``_REST``).
_REST = r"(?:[a-z0-9]*|[A-Z0-9]*(?![a-z]))"
_LETTER_OR_DIGIT = re.compile(r"[^\W_]")


@dataclass(frozen=True, slots=True)
class _Stems:
    """One question's stems, compiled: ``any_case`` finds a stem and the rest of its token in
    any text; ``lower`` finds a stem in a lower-cased ASCII text (all stems ASCII), where a
    search can jump to the stems' first letters, and ``rest`` then reads the token's rest."""

    any_case: re.Pattern[str]
    lower: re.Pattern[str] | None
    rest: re.Pattern[str]


@functools.lru_cache(maxsize=64)  # one question's words, asked of each of its hits
def _pattern(words: tuple[str, ...]) -> _Stems | None:
    """The expressions that find the words' stems (see ``find_terms``); None when no word has a
    stem of two letters or more. Where a token starts is checked at each hit
    (``_starts_token``): a look-behind first would make the search try every position."""
    stems = sorted({s for w in words for t in _TOKEN.findall(w) if len(s := stem(t)) >= 2})
    if not stems:
        return None
    either = "|".join(re.escape(s) for s in sorted(stems, key=len, reverse=True))
    return _Stems(
        any_case=re.compile(rf"(?i:{either}){_REST}"),
        lower=re.compile(f"(?:{either})") if all(s.isascii() for s in stems) else None,
        rest=re.compile(_REST),
    )


def _starts_token(text: str, i: int) -> bool:
    """A token starts at ``i``: after a character that is no letter or digit (or ``_``), or
    at a step from a lower-case letter or digit to an upper-case letter."""
    if i == 0:
        return True
    before = text[i - 1]
    if not _LETTER_OR_DIGIT.match(before):
        return True
    return ("a" <= before <= "z" or "0" <= before <= "9") and "A" <= text[i] <= "Z"


def _stem_spans(content: str, found: _Stems) -> list[tuple[int, int]]:
    """Where the stems start a token, each span running to the token's end, in order; the
    matching parts of one identifier (``verifyToken``) make one span."""
    head = content[:SCAN_CHARS]
    ascii_text = found.lower is not None and head.isascii()
    scanned = head.lower() if ascii_text else head  # the same positions: ASCII
    pattern = found.lower if ascii_text and found.lower is not None else found.any_case
    spans: list[tuple[int, int]] = []
    m = pattern.search(scanned)
    while m is not None:
        start = m.start()
        if not _starts_token(head, start):
            m = pattern.search(scanned, start + 1)  # a hit may start inside this one
            continue
        end = found.rest.match(head, m.end()).end() if ascii_text else m.end()  # type: ignore[union-attr]
        if spans and spans[-1][1] == start:  # the next part of one identifier
            spans[-1] = (spans[-1][0], end)
        elif len(spans) >= MAX_SPANS:
            break
        else:
            spans.append((start, end))
        m = pattern.search(scanned, end)
    return spans


def find_terms(content: str, words: tuple[str, ...] | list[str]) -> tuple[tuple[int, int], ...]:
    """Spans of ``content`` that match a query word (see the module docstring), in order;
    matching parts of one identifier (``verifyToken``) make one span."""
    segmented = segment_spans(content[:SCAN_CHARS], words)
    found = _pattern(tuple(words))
    spans = [] if found is None else _stem_spans(content, found)
    return _merge(segmented, spans) if segmented else tuple(spans)


def _merge(one: list[tuple[int, int]], two: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Two span lists as one, in order, overlapping spans joined, at most ``MAX_SPANS``."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted([*one, *two]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        elif len(merged) < MAX_SPANS:
            merged.append((start, end))
    return tuple(merged)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(0, limit - 1)].rstrip() + ELLIPSIS


def _window(text: str, centre_start: int, centre_end: int, limit: int) -> str:
    """At most ``limit`` chars of ``text`` around a span, cut at spaces, with ellipses."""
    if len(text) <= limit:
        return text
    span = centre_end - centre_start
    lead = max(0, (limit - span) // 3)  # a third before the match, the rest after
    start = max(0, min(centre_start - lead, len(text) - limit))
    end = min(len(text), start + limit)
    if start > 0:
        space = text.find(" ", start, centre_start)
        start = space + 1 if space != -1 and space < centre_start else start
    if end < len(text):
        space = text.rfind(" ", max(centre_end, start), end)
        end = space if space > centre_end else end
    out = text[start:end].strip()
    prefix = ELLIPSIS if start > 0 else ""
    suffix = ELLIPSIS if end < len(text) else ""
    return _clip(prefix + out + suffix, limit + 2)


def _looks_like_trace(lines: list[str], kind: str | None) -> bool:
    if len(lines) < 3:
        return False
    if kind in {"error", "node_error"}:
        return True
    return sum(1 for line in lines if _TRACE_LINE.search(line)) >= 2


def make_snippet(
    content: str,
    spans: tuple[tuple[int, int], ...] = (),
    *,
    kind: str | None = None,
    redacted: bool = False,
    max_chars: int = SNIPPET_CHARS,
) -> str:
    """A snippet of at most about ``max_chars`` characters (plus ellipses and line breaks)."""
    if redacted:
        return REDACTED
    text = content
    if len(text) <= max_chars:
        return text
    lines = text.split("\n")
    # Centre on the longest match (a whole identifier beats a part of one), the first on ties.
    first = max(spans, key=lambda sp: (sp[1] - sp[0], -sp[0])) if spans else (0, 0)
    if _looks_like_trace(lines, kind):
        head, tail = lines[0], lines[-1]
        head_end = len(head)
        tail_start = len(text) - len(tail)
        budget = max(40, max_chars // 3)
        parts = [_clip(head.strip(), budget)]
        if first[0] > head_end and first[1] < tail_start:
            line_start = text.rfind("\n", 0, first[0]) + 1
            line_end = text.find("\n", first[1])
            line = text[line_start : line_end if line_end != -1 else len(text)]
            body = line.strip()
            shift = line_start + len(line) - len(line.lstrip())
            parts.append(ELLIPSIS)
            parts.append(_window(body, first[0] - shift, first[1] - shift, budget))
        parts.append(ELLIPSIS)
        parts.append(_clip(tail.strip(), budget))
        return "\n".join(parts)
    return _window(text, first[0], first[1], max_chars)

"""Evidence snippets: bounded, centred on the match, stack traces keep first and last lines.

Input is the entity's content and, for text queries, FTS5's ``highlight()`` of it (matches
wrapped in ``\\x02`` ... ``\\x03``), so match positions come from the real tokenizer (porter
stemming included) rather than from a guess in Python. Pure and deterministic.

Must not import anything from Kindling.
"""

from __future__ import annotations

import re

SNIPPET_CHARS = 240
REDACTED = "[redacted]"
ELLIPSIS = "…"
_OPEN, _CLOSE = "\x02", "\x03"
_TRACE_LINE = re.compile(
    r"^\s+(at |File \"|\d+: |#\d+ )|^\s*Traceback \(|^goroutine \d+"
    r"|^\s+\S+\.(go|rs|py|java|ts|js):\d+"
)


def _spans(highlighted: str) -> tuple[str, list[tuple[int, int]]]:
    """Strip markers; return the plain text and the (start, end) of each match in it."""
    plain: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    start = -1
    for ch in highlighted:
        if ch == _OPEN:
            start = pos
        elif ch == _CLOSE:
            if start >= 0:
                spans.append((start, pos))
            start = -1
        else:
            plain.append(ch)
            pos += 1
    return "".join(plain), spans


def matched_terms(highlighted: str | None) -> tuple[str, ...]:
    """Distinct matched words, lower-cased, in order of first appearance."""
    if not highlighted:
        return ()
    text, spans = _spans(highlighted)
    seen: dict[str, None] = {}
    for start, end in spans:
        seen.setdefault(text[start:end].lower(), None)
    return tuple(seen)


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
    highlighted: str | None = None,
    *,
    kind: str | None = None,
    redacted: bool = False,
    max_chars: int = SNIPPET_CHARS,
) -> str:
    """A snippet of at most about ``max_chars`` characters (plus ellipses and line breaks)."""
    if redacted:
        return REDACTED
    text, spans = _spans(highlighted) if highlighted else (content, [])
    if text != content:  # highlight of stale index text: never show it
        text, spans = content, []
    if len(text) <= max_chars:
        return text
    lines = text.split("\n")
    first = (spans[0][0], spans[0][1]) if spans else (0, 0)
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
    flat_spans = first if spans else (0, 0)
    return _window(text, flat_spans[0], flat_spans[1], max_chars)

"""What the search documents of both stores hold besides an item's words, written once:

- ``searchable_parts``: what an observation's own text is also searchable by (identifier parts,
  and the bigrams of its Han, Kana, Hangul and Thai runs);
- ``with_segments`` (``summary_document``): a text with the bigrams of those runs, as a
  summary's document and an observation's context and intent columns hold it;
- ``context_excerpt``: what a document takes from its neighbour: the head and tail of a long
  text (the command line and the last error line of a long output), never a 30,000-character
  log twice. SQLite cuts it in the index's view (``store.sqlite.index``), PostgreSQL with
  ``context_excerpt``.

Must not import anything from Kindling except ``store.identifiers`` and ``store.segments``.
"""

from __future__ import annotations

from kindling.store.identifiers import identifier_parts
from kindling.store.segments import has_segments, index_segments

CONTEXT_HEAD = 400
CONTEXT_TAIL = 200
ELISION = " … "


def context_excerpt(content: str) -> str:
    """A neighbour's content as it enters a document: whole, or its head and tail."""
    if len(content) <= CONTEXT_HEAD + CONTEXT_TAIL:
        return content
    return content[:CONTEXT_HEAD] + ELISION + content[-CONTEXT_TAIL:]


def searchable_parts(text: str) -> str:
    """What an item's own text is searchable by besides its words: its identifier parts, then
    the segments of its Han, Kana, Hangul and Thai runs (of the parts too, so a joined
    identifier of such letters is found as the query spells it)."""
    parts = identifier_parts(text)
    if not has_segments(text):
        return parts
    segments = index_segments(f"{text}\n{parts}")
    return f"{parts} {segments}" if parts else segments


def with_segments(text: str) -> str:
    """A text as a search column holds it: the text, and the segments of its Han, Kana, Hangul
    and Thai runs on a line of their own (a text without them is left as it is). A summary's
    document, and the context and intent columns of an observation's."""
    segments = index_segments(text)
    return f"{text}\n{segments}" if segments else text


def summary_document(text: str) -> str:
    """A summary as its index holds it (``with_segments``)."""
    return with_segments(text)

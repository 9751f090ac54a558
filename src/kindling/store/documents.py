"""What an observation's search document takes from its neighbour, for both stores: the
head and tail of a long text (the command line and the last error line of a long output),
never a 30,000-character log twice. SQLite cuts it in the index's view
(``store.sqlite.index``), PostgreSQL with ``context_excerpt``.

Must not import anything from Kindling.
"""

from __future__ import annotations

CONTEXT_HEAD = 400
CONTEXT_TAIL = 200
ELISION = " … "


def context_excerpt(content: str) -> str:
    """A neighbour's content as it enters a document: whole, or its head and tail."""
    if len(content) <= CONTEXT_HEAD + CONTEXT_TAIL:
        return content
    return content[:CONTEXT_HEAD] + ELISION + content[-CONTEXT_TAIL:]

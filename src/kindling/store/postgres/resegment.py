"""The PostgreSQL migration steps that make Han, Kana, Hangul and Thai text searchable by its
parts in an existing database: the documents of the observations and summaries holding such
letters are built again, now with their bigrams (``store.segments``; ``resegment``), then those
of the observations whose context (neighbour) or capsule intent holds them
(``resegment_context``); every other row keeps its document. Each runs inside the migration's
transaction, on its connection.

Must not import anything from Kindling except ``store``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kindling.store.base import iter_chunks
from kindling.store.postgres.observations import (
    DOCUMENT_SOURCES,
    DOCUMENT_UPDATE,
    SUMMARY_UPDATE,
    document_columns,
    summary_text,
)
from kindling.store.segments import SCRIPT_CLASS

if TYPE_CHECKING:
    import psycopg

# Any letter of a segmented script, as a PostgreSQL regular expression (a UTF-8 database).
_HAS_SEGMENTS = f"[{SCRIPT_CLASS}]"


def resegment(conn: psycopg.Connection[Any]) -> None:
    """Rebuild the documents of the rows whose text holds a letter of a segmented script."""
    rows = conn.execute(
        f"{DOCUMENT_SOURCES} WHERE NOT o.redacted AND o.content ~ %s ORDER BY o.rowid",
        (_HAS_SEGMENTS,),
    ).fetchall()
    for chunk in iter_chunks(rows):
        conn.execute(DOCUMENT_UPDATE, document_columns(chunk))
    summaries = conn.execute(
        "SELECT id, content FROM summaries WHERE search IS NOT NULL AND content ~ %s",
        (_HAS_SEGMENTS,),
    ).fetchall()
    for summary_id, content in summaries:
        conn.execute(SUMMARY_UPDATE, (summary_text(content), summary_id))


def resegment_context(conn: psycopg.Connection[Any]) -> None:
    """Rebuild the documents of the rows whose neighbour's text or capsule intent holds a
    letter of a segmented script (their B and C parts now carry its bigrams)."""
    rows = conn.execute(
        f"SELECT * FROM ({DOCUMENT_SOURCES} WHERE NOT o.redacted) AS d(id, content, redacted,"
        " previous, intent) WHERE d.previous ~ %s OR d.intent ~ %s ORDER BY d.id",
        (_HAS_SEGMENTS, _HAS_SEGMENTS),
    ).fetchall()
    for chunk in iter_chunks(rows):
        conn.execute(DOCUMENT_UPDATE, document_columns(chunk))

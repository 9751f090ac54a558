"""The PostgreSQL migration step that makes Han, Kana, Hangul and Thai text searchable by its
parts in an existing database: the documents of the observations and summaries holding such
letters are built again, now with their bigrams (``store.segments``); every other row keeps
its document. It runs inside the migration's transaction, on its connection.

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

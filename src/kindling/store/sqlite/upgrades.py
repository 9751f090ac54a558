"""The SQLite index's upgrade steps, each run once by its migration (``migrations``): what
changed in how a row is indexed is applied to the rows an older version indexed, and only
those leave the index and come back (``index.reindexing``).

- ``resegment`` (migration 12): rows and summaries with Han, Kana, Hangul or Thai letters get
  their segments;
- ``resegment_context`` (migration 13): the context and intent columns get theirs;
- ``relink_ties`` (migrations 16 and 17): each step gets the neighbour ``index.NEIGHBOUR_SQL``
  gives it now.

PostgreSQL's are ``store.postgres.resegment``. Must not import anything from Kindling except
``store.base`` and ``store.sqlite.index``.
"""

from __future__ import annotations

import sqlite3

import kindling.store.sqlite.index as index
from kindling.store.base import iter_chunks


def resegment(conn: sqlite3.Connection) -> None:
    """Index the observations and summaries that hold Han, Kana, Hangul or Thai letters again,
    now with their segments (the migration that introduces them; a no-op for Latin-only
    databases). Summaries are few: their index is rebuilt whole."""
    index.register_functions(conn)
    rowids = [
        int(r[0])
        for r in conn.execute(
            "SELECT x.rowid FROM observation_context x JOIN observations o ON o.rowid = x.rowid"
            " WHERE o.redacted = 0 AND kindling_segmented(o.content) ORDER BY x.rowid"
        )
    ]
    with index.reindexing(conn, rowids):
        for chunk in iter_chunks(rowids):
            marks = ",".join("?" * len(chunk))
            conn.execute(
                "UPDATE observation_context SET parts = (SELECT kindling_parts(o.content)"
                " FROM observations o WHERE o.rowid = observation_context.rowid)"
                f" WHERE rowid IN ({marks})",
                chunk,
            )
    conn.execute("INSERT INTO summaries_fts(summaries_fts) VALUES('rebuild')")


def relink_ties(conn: sqlite3.Connection) -> None:
    """Give each step the neighbour ``NEIGHBOUR_SQL`` now gives it (migrations 16 and 17):
    among steps of one millisecond, the last written, where databases indexed before took the
    first; and a step written late, with an earlier time, as its successor's neighbour, where
    they kept theirs. Only the rows whose neighbour changes leave the index and come back (none
    in a database whose steps were written in order, one per millisecond). ``conn`` has
    Kindling's SQL functions (the migrations run on the connection ``Database`` registered them
    on; registering them again here fails while an earlier step's statement is still open)."""
    index.relink(conn, None)


def resegment_context(conn: sqlite3.Connection) -> None:
    """Give the context and intent columns their segments (migration 13): the rows whose
    neighbour or intent holds Han, Kana, Hangul or Thai letters leave the index with the
    documents they were indexed with, the view changes, and they are indexed again (a no-op
    for the rows of a Latin-only database)."""
    index.register_functions(conn)
    rowids = [
        int(r[0])
        for r in conn.execute(
            "SELECT x.rowid FROM observation_context x JOIN observations o ON o.rowid = x.rowid"
            " LEFT JOIN observations p ON p.rowid = x.prev_rowid WHERE o.redacted = 0"
            " AND (kindling_segmented(x.intent)"
            " OR (p.redacted = 0 AND kindling_segmented(p.content))) ORDER BY x.rowid"
        )
    ]
    with index.reindexing(conn, rowids):
        conn.execute("DROP VIEW IF EXISTS observation_docs")
        conn.execute(index.VIEW_SQL)

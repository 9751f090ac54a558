"""Make forgotten text leave the database files, not just the query results.

Forgetting an observation rewrites its row (content ``[redacted]``, provenance ``{}``) and the
FTS trigger removes it from the index. That alone is not enough on disk:

- FTS5 (external content, SQLite < 3.42 has no ``secure-delete`` option) records a delete as a
  tombstone in a new segment; the old segment still holds the (stemmed) terms until segments are
  merged. ``optimize`` merges every segment into one, dropping the terms for good. Its cost grows
  with the index and it holds the write lock meanwhile: a whole ``forget`` measured about 0.2 s
  at 10k observations and 1.3 s at 100k (8 MB and 65 MB files, 2-core VM;
  ``bench/forget_cost.py``). ``forget`` calls inside one ``batch()`` share a single optimize.
- ``secure_delete = ON`` (set on every connection) zeroes the freed bytes of rewritten pages.
- In WAL mode the old page images stay in the ``-wal`` file until a checkpoint copies the new
  pages back and ``TRUNCATE`` empties it. A reader holding an old snapshot can delay that up to
  the busy timeout; the copy then goes at the next checkpoint that completes.

The ``-shm`` file holds only the WAL index (page numbers and hashes), never row data.

Must not import anything from Kindling.
"""

from __future__ import annotations

import sqlite3

FTS_TABLES = ("observations_fts",)


def merge_fts_segments(conn: sqlite3.Connection) -> None:
    """Rewrite the observation index as one segment; run inside the forgetting transaction."""
    for table in FTS_TABLES:
        conn.execute(f"INSERT INTO {table}({table}) VALUES('optimize')")


def truncate_wal(conn: sqlite3.Connection) -> bool:
    """Checkpoint everything and empty the WAL file; False if a reader kept it from finishing."""
    busy, _frames, _done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return not busy

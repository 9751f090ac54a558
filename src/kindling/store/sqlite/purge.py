"""Make forgotten text leave the database files, not just the query results.

Forgetting an observation rewrites its row (content ``[redacted]``, provenance ``{}``) and the
FTS trigger removes it from the index. That alone is not enough on disk:

- FTS5 (external content, SQLite < 3.42 has no ``secure-delete`` option) records a delete as a
  tombstone in a new segment; the old segment still holds the (stemmed) terms until segments are
  merged. ``optimize`` merges every segment into one, dropping the terms for good. Its cost grows
  with the index and it holds the write lock meanwhile: a whole ``forget`` measured 0.06-0.2 s
  at 10k observations and 0.7-1.3 s at 100k (8 MB and 65 MB files, 2-core VM, idle to loaded;
  ``bench/forget_cost.py``). ``forget`` calls inside one ``batch()`` share a single optimize.
- ``secure_delete = ON`` (set on every connection) zeroes the freed bytes of rewritten pages.
- In WAL mode the old page images stay in the ``-wal`` file until a checkpoint copies the new
  pages back and ``TRUNCATE`` empties it. A reader holding an old snapshot can delay that up to
  the busy timeout; then every later commit on this connection tries again, without waiting,
  until one succeeds (and closing the last connection checkpoints and deletes the WAL).

The ``-shm`` file holds only the WAL index (page numbers and hashes), never row data.
``holders`` names the other processes that have the files open, one of which keeps the WAL
(``SqliteStore.purge_state``).

Must not import anything from Kindling.
"""

from __future__ import annotations

import os
import sqlite3

FTS_TABLES = ("observations_fts", "summaries_fts")
# FTS5 in SQLite 3.40 puts the segment that 'optimize' writes one level above the highest, and
# never drops the empty levels below it: every forget adds a level or two. A structure of more
# than 2,000 levels no longer decodes, and every new connection then fails with "vtable
# constructor failed" (measured: after about 1,000 forgets). Past this many levels the index
# is rebuilt from its content instead, which starts the structure afresh.
MAX_FTS_LEVELS = 500


def merge_fts_segments(conn: sqlite3.Connection) -> None:
    """Rewrite each text index as one segment; run inside the forgetting transaction."""
    for table in FTS_TABLES:
        conn.execute(f"INSERT INTO {table}({table}) VALUES('optimize')")
        if fts_levels(conn, table) > MAX_FTS_LEVELS:
            conn.execute(f"INSERT INTO {table}({table}) VALUES('rebuild')")


def fts_levels(conn: sqlite3.Connection, table: str) -> int:
    """The number of levels in an FTS5 index's structure record (its row 10 of ``_data``: a
    4-byte cookie, then the level count as an SQLite varint); 0 when there is none."""
    row = conn.execute(f"SELECT block FROM {table}_data WHERE id = 10").fetchone()
    if row is None or not isinstance(row[0], bytes) or len(row[0]) < 5:
        return 0
    value = 0
    for byte in row[0][4:13]:
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            break
    return value


def truncate_wal(conn: sqlite3.Connection, *, wait_ms: int | None = None) -> bool:
    """Checkpoint everything and empty the WAL file; False if a reader kept it from finishing.

    ``wait_ms`` replaces the connection's busy timeout for this call (0: do not wait)."""
    if wait_ms is None:
        return _truncate(conn)
    previous = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    conn.execute(f"PRAGMA busy_timeout = {int(wait_ms)}")
    try:
        return _truncate(conn)
    finally:
        conn.execute(f"PRAGMA busy_timeout = {int(previous)}")


def _truncate(conn: sqlite3.Connection) -> bool:
    busy, _frames, _done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return not busy


def holders(db_path: str) -> tuple[str, ...]:
    """Other processes with the database, its WAL or its shared memory open (Linux only)."""
    if db_path == ":memory:" or not os.path.isdir("/proc/self/fd"):
        return ()
    try:
        real = os.path.realpath(db_path)
    except (OSError, ValueError):
        return ()
    targets = {real, f"{real}-wal", f"{real}-shm"}
    found: list[str] = []
    me = os.getpid()
    try:
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != me]
    except OSError:
        return ()
    for pid in sorted(pids):
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
            if not any(os.readlink(f"/proc/{pid}/fd/{fd}") in targets for fd in fds):
                continue
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                raw = fh.read()
        except OSError:
            continue
        command = " ".join(raw.replace(b"\0", b" ").decode("utf-8", "replace").split())[:80]
        found.append(f"process {pid} ({command})" if command else f"process {pid}")
    return tuple(found)

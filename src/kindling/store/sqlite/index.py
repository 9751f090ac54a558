"""The observation search index of the SQLite store: what each observation is searchable by.

Each observation that is not forgotten has one row in ``observations_fts`` (FTS5, external
content read through the ``observation_docs`` view) with four columns:

- ``body``: its own content, then ``documents.searchable_parts`` of it: ``identifier_parts``
  (camelCase words split, identifiers with inner punctuation joined), so identifiers match
  their words and their whole without a per-query prefix scan or a phrase of common words; and
  ``index_segments`` (Han, Kana, Hangul and Thai runs as bigrams, ``store.segments``), so those
  runs are found by their parts. bm25 weight 1.
- ``context``: an excerpt of the previous observation of the same session (its neighbour), so
  the prompt that explains a command, or the command that printed an error, finds it too.
  bm25 weight 0.5.
- ``intent``: the intent of the capsule it was captured in. bm25 weight 0.5.
  Both with the segments of their Han, Kana, Hangul and Thai runs (``documents.with_segments``,
  computed in the view, so they always follow the texts they come from).
- ``scope``: one token per scope dimension (``scope_tokens``); bm25 weight 0. A scoped query
  ANDs these tokens, so FTS5 reads only the scope's part of every doclist and never looks a
  row up in ``observations`` to filter it.

``observation_context`` keeps, per observation, everything the view needs besides the two
contents: the neighbour's rowid, the intent, the parts and the scope tokens, all fixed at
write time, but for one case: a step written late, with an earlier time than steps already
written, becomes the neighbour of the step after it, which is indexed again
(``index_from``), as PostgreSQL indexes a new row's successors. FTS5
deletes need the exact values that were indexed, so a row is always removed from the index
*before* anything it was built from changes, then indexed again (see ``reindexing``). Only the
previous neighbour is used: indexing the next one too would re-index the previous row on every
append (three FTS5 writes per capture instead of one).

The SQL functions ``kindling_parts``, ``kindling_scope`` and ``kindling_with_segments`` are
registered on every connection the store opens; the migration that builds the index uses the
same ones. No trigger calls them: only Kindling writes this index, so a connection without
them (the ``sqlite3`` shell, another tool) can still write every table (an observation written
that way is stored, not indexed). Reading ``observation_docs`` (FTS5's ``rebuild``, and the
``integrity-check`` of SQLite versions that compare external content) needs them:
``kindling doctor`` registers them.

The summary index (``summaries_fts``) is kept by triggers, which use built-in SQL only, so any
SQLite writer can add or change a summary: its document is its content and, on a line of its
own, its ``segments`` column, which Kindling fills when it writes the summary (a summary
written elsewhere is found by its words, not by the bigrams of its CJK runs).

Must not import anything from Kindling except ``model``, ``store.base``,
``store.documents`` and ``store.segments``.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from kindling.model import Scope
from kindling.store.base import iter_chunks
from kindling.store.documents import (
    CONTEXT_HEAD,
    CONTEXT_TAIL,
    ELISION,
    searchable_parts,
    summary_document,
    with_segments,
)
from kindling.store.segments import has_segments, index_segments

# bm25 column weights: body, context, intent, scope.
BM25_WEIGHTS = "1.0, 0.5, 0.5, 0.0"
# The body column alone: 0 exactly when no query term was found in the item's own text.
BM25_BODY_ONLY = "1.0, 0.0, 0.0, 0.0"
TEXT_COLUMNS = "{body context intent}"

# Scope dimension -> token prefix. Tokens are hex digests, never words a user types.
_SCOPE_PREFIX = (("session_id", "ks"), ("repo_id", "kr"), ("agent_id", "ka"), ("user_id", "ku"))
# A question that could match a scope token (a prefix term, or a digest pasted as a word) is
# kept to the text columns; any other cannot match the scope column (see ``scoped_match``).
_MAY_MATCH_SCOPE = re.compile(r"\*|k[srau][0-9a-f]{16}", re.IGNORECASE)


try:  # hashlib's own blake2b, without hashlib's import of OpenSSL (milliseconds at hook start)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - an interpreter without the builtin module
    from hashlib import blake2b


@functools.lru_cache(maxsize=4096)  # every capture asks for its session's and repo's tokens
def _token(prefix: str, value: str) -> str:
    return prefix + blake2b(value.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def scope_tokens(
    session_id: str | None, repo_id: str | None, agent_id: str | None, user_id: str | None
) -> str:
    """The ``scope`` column of an item: one token per dimension it has."""
    values = (session_id, repo_id, agent_id, user_id)
    return " ".join(
        _token(prefix, value)
        for (_, prefix), value in zip(_SCOPE_PREFIX, values, strict=True)
        if value is not None
    )


def scoped_match(match: str | None, scope: Scope) -> str | None:
    """The MATCH expression that finds ``match`` in the text columns of in-scope rows only
    (AND over the requested dimensions); ``None`` when there is nothing to match.

    The scope column holds only digests (``_token``), so a question none of whose words can
    be one runs without the column filter: same rows, same bm25 (the scope column's weight is
    0), but FTS5 no longer reads every match's positions to check its column, which was a
    fifth of a ranked search's time (bm25's document counts walk each word's whole list)."""
    filters = [
        f'scope : "{_token(prefix, value)}"'
        for name, prefix in _SCOPE_PREFIX
        if (value := getattr(scope, name)) is not None
    ]
    if match is None:
        return None
    text = f"{TEXT_COLUMNS} : ({match})" if _MAY_MATCH_SCOPE.search(match) else f"({match})"
    return " AND ".join([*filters, text])


def register_functions(conn: sqlite3.Connection) -> None:
    """Make ``kindling_parts(text)``, ``kindling_with_segments(text)``, ``kindling_segments(text)``,
    ``kindling_segmented(text)`` and ``kindling_scope(s, r, a, u)`` callable from SQL (and
    ``kindling_summary_doc(text)``, which migration 12's summary index calls until 13)."""
    conn.create_function("kindling_parts", 1, _parts_sql, deterministic=True)
    conn.create_function("kindling_with_segments", 1, _with_segments_sql, deterministic=True)
    conn.create_function("kindling_segments", 1, _segments_sql, deterministic=True)
    conn.create_function("kindling_summary_doc", 1, _summary_doc_sql, deterministic=True)
    conn.create_function("kindling_segmented", 1, _segmented_sql, deterministic=True)
    conn.create_function("kindling_scope", 4, scope_tokens, deterministic=True)


def _parts_sql(text: object) -> str:
    return searchable_parts(text) if isinstance(text, str) else ""


def _with_segments_sql(text: object) -> str | None:
    return with_segments(text) if isinstance(text, str) else None


def _segments_sql(text: object) -> str | None:
    return (index_segments(text) or None) if isinstance(text, str) else None


def _summary_doc_sql(text: object) -> str | None:
    return summary_document(text) if isinstance(text, str) else None


def _segmented_sql(text: object) -> int:
    return int(isinstance(text, str) and has_segments(text))


# The documents as indexed. Forgotten observations are not indexed, and a forgotten neighbour
# gives no context.
# store.documents.context_excerpt in SQL
_HEAD_AND_TAIL = (
    f"substr(p.content, 1, {CONTEXT_HEAD}) || {ELISION!r} || substr(p.content, -{CONTEXT_TAIL})"
)
# The ``context`` column of a row whose neighbour is ``p`` (NULL-safe).
CONTEXT_SQL = f"""CASE WHEN p.rowid IS NULL OR p.redacted = 1 THEN ''
            WHEN length(p.content) <= {CONTEXT_HEAD + CONTEXT_TAIL} THEN p.content
            ELSE {_HEAD_AND_TAIL}
       END"""
_VIEW_SQL = """
CREATE VIEW observation_docs AS
SELECT x.rowid AS rowid,
       o.content || char(10) || x.parts AS body,
       {context} AS context,
       {intent} AS intent,
       x.scope AS scope
FROM observation_context x
JOIN observations o ON o.rowid = x.rowid
LEFT JOIN observations p ON p.rowid = x.prev_rowid
WHERE o.redacted = 0
"""
# The view as migration 9 created it (context and intent without their segments) ...
VIEW_SQL_V9 = _VIEW_SQL.format(context=CONTEXT_SQL, intent="x.intent")
# ... and as migration 13 made it.
VIEW_SQL = _VIEW_SQL.format(
    context=f"kindling_with_segments({CONTEXT_SQL})", intent="kindling_with_segments(x.intent)"
)

# Context rows for observations ``rowid >= ?``: the neighbour is the observation of the same
# session just before it by (time, insertion), as on PostgreSQL: among equal times the last
# inserted before it (steps written in one millisecond chose the first, so what a step's context
# held depended on how fast the machine wrote), and a step written late, with an earlier time,
# is the neighbour of the step after it (``index_from``). It walks the
# (session_id, ts DESC) index from ``o.ts`` down and sorts only the rows of the first time it
# meets. The intent is that of the capsule the observation was first linked to.
NEIGHBOUR_SQL = """CASE WHEN o.session_id IS NULL THEN NULL ELSE (
         SELECT p.rowid FROM observations p
         WHERE p.session_id = o.session_id AND p.ts <= o.ts
           AND (p.ts < o.ts OR p.rowid < o.rowid)
         ORDER BY p.ts DESC, p.rowid DESC LIMIT 1) END"""
# The steps written before ``rowid >= ?`` whose neighbour is now one of those rows: for each new
# row of a session, the step right after it by (time, insertion), if written before it.
SUCCESSORS_SQL = """
SELECT DISTINCT s FROM (
  SELECT (SELECT n.rowid FROM observations n
          WHERE n.session_id = o.session_id AND n.ts >= o.ts
            AND (n.ts > o.ts OR n.rowid > o.rowid)
          ORDER BY n.ts, n.rowid LIMIT 1) AS s
  FROM observations o WHERE o.rowid >= ? AND o.session_id IS NOT NULL)
WHERE s < ? ORDER BY s
"""
FILL_CONTEXT_SQL = f"""
INSERT INTO observation_context (rowid, prev_rowid, intent, parts, scope)
SELECT o.rowid,
       {NEIGHBOUR_SQL},
       COALESCE((SELECT c.intent FROM capsule_observations co
                 JOIN capsules c ON c.id = co.capsule_id
                 WHERE co.observation_id = o.id ORDER BY co.rowid LIMIT 1), ''),
       kindling_parts(o.content),
       kindling_scope(o.session_id, o.repo_id, o.agent_id, o.user_id)
FROM observations o
WHERE o.rowid >= ?
ORDER BY o.rowid
"""

_COLUMNS = "rowid, body, context, intent, scope"
_INSERT = f"INSERT INTO observations_fts ({_COLUMNS}) VALUES (?, ?, ?, ?, ?)"
_DELETE = (
    f"INSERT INTO observations_fts (observations_fts, {_COLUMNS}) VALUES ('delete', ?, ?, ?, ?, ?)"
)


def _docs(conn: sqlite3.Connection, where: str, params: Sequence[int]) -> list[tuple[object, ...]]:
    # Read first, then write with VALUES: SQLite runs ``INSERT INTO <fts5> SELECT ...`` some
    # twenty times slower per row (measured 470 us against 17 us at 100k observations).
    return conn.execute(f"SELECT {_COLUMNS} FROM observation_docs WHERE {where}", params).fetchall()


def index_from(conn: sqlite3.Connection, first_rowid: int) -> None:
    """Index the observations appended from ``first_rowid`` on (every row from there is new:
    the caller holds the write lock since it inserted them), and the earlier steps whose
    neighbour one of them now is (a step written late). Set-based for a whole batch."""
    conn.execute(FILL_CONTEXT_SQL, (first_rowid,))
    conn.executemany(_INSERT, _docs(conn, "rowid >= ?", (first_rowid,)))
    late = [int(r[0]) for r in conn.execute(SUCCESSORS_SQL, (first_rowid, first_rowid))]
    if late:
        relink(conn, late)


def build_all(conn: sqlite3.Connection) -> None:
    """Build the index of a whole database (the migration that introduces it)."""
    register_functions(conn)
    conn.execute(FILL_CONTEXT_SQL, (0,))
    conn.execute("INSERT INTO observations_fts (observations_fts) VALUES ('rebuild')")


def unindex(conn: sqlite3.Connection, rowids: Sequence[int]) -> None:
    """Remove rows from the index with the values they were indexed with. Call before
    changing anything a row's document is built from."""
    for chunk in iter_chunks(rowids):
        marks = ",".join("?" * len(chunk))
        conn.executemany(_DELETE, _docs(conn, f"rowid IN ({marks})", chunk))


def index(conn: sqlite3.Connection, rowids: Sequence[int]) -> None:
    """Index rows (again) from their current values; forgotten rows are skipped."""
    for chunk in iter_chunks(rowids):
        marks = ",".join("?" * len(chunk))
        conn.executemany(_INSERT, _docs(conn, f"rowid IN ({marks})", chunk))


@contextmanager
def reindexing(conn: sqlite3.Connection, rowids: Sequence[int]) -> Iterator[None]:
    """Change what the documents of ``rowids`` are built from inside this block: they leave
    the index with their old values before it and come back with their new ones after it."""
    unindex(conn, rowids)
    yield
    index(conn, rowids)


def relink(conn: sqlite3.Connection, rowids: Sequence[int] | None) -> None:
    """Link ``rowids`` (None: every step) to the neighbour ``NEIGHBOUR_SQL`` gives them now;
    those whose neighbour changes leave the index with their old context and come back."""

    def moved(where: str, params: Sequence[int] = ()) -> list[tuple[int, object]]:
        query = (
            f"SELECT rowid, n FROM (SELECT x.rowid AS rowid, x.prev_rowid AS prev,"
            f" {NEIGHBOUR_SQL} AS n FROM observation_context x"
            f" JOIN observations o ON o.rowid = x.rowid{where}) WHERE n IS NOT prev ORDER BY rowid"
        )
        return [(int(r[0]), r[1]) for r in conn.execute(query, params)]

    if rowids is None:
        changed = moved("")
    else:
        changed = []
        for chunk in iter_chunks(rowids):
            changed += moved(f" WHERE x.rowid IN ({','.join('?' * len(chunk))})", chunk)
    with reindexing(conn, [rowid for rowid, _ in changed]):
        conn.executemany(
            "UPDATE observation_context SET prev_rowid = ? WHERE rowid = ?",
            [(prev, rowid) for rowid, prev in changed],
        )


# Migration 13: the summary index's documents without an application function. A summary's
# segments are a column Kindling writes with its content (NULL when it has none); the view and
# the triggers join the two with built-in SQL, so any SQLite connection can write summaries.
# The documents are those migration 12 indexed (content, then a line of segments), so nothing
# is indexed again.
SUMMARY_DOC_SQL = "{row}.content || COALESCE(char(10) || {row}.segments, '')"
SUMMARY_SEGMENTS_SQL = f"""
DROP TRIGGER IF EXISTS summaries_fts_insert;
DROP TRIGGER IF EXISTS summaries_fts_update;
DROP TRIGGER IF EXISTS summaries_fts_delete;
ALTER TABLE summaries ADD COLUMN segments TEXT;
UPDATE summaries SET segments = kindling_segments(content) WHERE kindling_segmented(content);
DROP VIEW IF EXISTS summary_docs;
CREATE VIEW summary_docs AS
  SELECT rowid, {SUMMARY_DOC_SQL.format(row="summaries")} AS content FROM summaries;
CREATE TRIGGER summaries_fts_insert AFTER INSERT ON summaries BEGIN
  INSERT INTO summaries_fts(rowid, content) VALUES (NEW.rowid, {SUMMARY_DOC_SQL.format(row="NEW")});
END;
CREATE TRIGGER summaries_fts_update AFTER UPDATE OF content, segments ON summaries BEGIN
  INSERT INTO summaries_fts(summaries_fts, rowid, content)
    VALUES('delete', OLD.rowid, {SUMMARY_DOC_SQL.format(row="OLD")});
  INSERT INTO summaries_fts(rowid, content) VALUES (NEW.rowid, {SUMMARY_DOC_SQL.format(row="NEW")});
END;
CREATE TRIGGER summaries_fts_delete AFTER DELETE ON summaries BEGIN
  INSERT INTO summaries_fts(summaries_fts, rowid, content)
    VALUES('delete', OLD.rowid, {SUMMARY_DOC_SQL.format(row="OLD")});
END;
"""


def summary_segments(content: str) -> str | None:
    """The ``segments`` column of a summary with this content (``SUMMARY_SEGMENTS_SQL``)."""
    return index_segments(content) or None


# Migration 12's summary index: it reads its documents through this view (the content and its
# segments), so FTS5's rebuild and integrity-check see what the triggers indexed.
SUMMARY_INDEX_SQL = """
DROP TRIGGER IF EXISTS summaries_fts_insert;
DROP TRIGGER IF EXISTS summaries_fts_update;
DROP TRIGGER IF EXISTS summaries_fts_delete;
DROP TABLE IF EXISTS summaries_fts;
CREATE VIEW summary_docs AS SELECT rowid, kindling_summary_doc(content) AS content FROM summaries;
CREATE VIRTUAL TABLE summaries_fts USING fts5(
  content, content='summary_docs', content_rowid='rowid', tokenize='porter unicode61'
);
CREATE TRIGGER summaries_fts_insert AFTER INSERT ON summaries BEGIN
  INSERT INTO summaries_fts(rowid, content) VALUES (NEW.rowid, kindling_summary_doc(NEW.content));
END;
CREATE TRIGGER summaries_fts_update AFTER UPDATE OF content ON summaries BEGIN
  INSERT INTO summaries_fts(summaries_fts, rowid, content)
    VALUES('delete', OLD.rowid, kindling_summary_doc(OLD.content));
  INSERT INTO summaries_fts(rowid, content) VALUES (NEW.rowid, kindling_summary_doc(NEW.content));
END;
CREATE TRIGGER summaries_fts_delete AFTER DELETE ON summaries BEGIN
  INSERT INTO summaries_fts(summaries_fts, rowid, content)
    VALUES('delete', OLD.rowid, kindling_summary_doc(OLD.content));
END;
"""


def dependents(conn: sqlite3.Connection, rowid: int) -> list[int]:
    """The row itself and every row whose document includes its content (as context)."""
    rows = conn.execute(
        "SELECT rowid FROM observation_context WHERE prev_rowid = ? ORDER BY rowid", (rowid,)
    ).fetchall()
    return [rowid, *(int(r[0]) for r in rows)]

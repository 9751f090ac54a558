"""A scratch PostgreSQL schema for a benchmark's store: created, named in the URL's
``search_path``, dropped afterwards (``scratch_schema``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote


@contextmanager
def scratch_schema(db: str, schema: str) -> Iterator[str]:
    """The URL of ``db`` with ``schema`` as its search path, the schema existing meanwhile."""
    import psycopg

    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in db else "?"
    try:
        yield f"{db}{sep}options={quote(f'-csearch_path={schema}')}"
    finally:
        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")

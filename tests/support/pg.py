"""PostgreSQL for tests: is a server reachable, and a throw-away schema per test.

``KINDLING_TEST_PG`` names the server (default: the project machine's, trust auth, database
``test``). Unreachable: a failure under ``CI=true`` (CI must run these tests), else a skip.

Each test process works in a database of its own (created on first use, dropped at exit; the
server's database when it may not create one): PostgreSQL's VACUUM cannot remove row versions
that any older transaction of the same database might see, so another process's long
transaction in a shared database would make a forget report "incomplete" there (truly).
"""

from __future__ import annotations

import atexit
import functools
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote, urlsplit, urlunsplit

from tests.support.requires import require

PG_URL = os.environ.get("KINDLING_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


@functools.cache
def pg_unreachable() -> str | None:
    """None when the test server answers, else why not."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (pip install -e '.[dev]')"
    try:
        with psycopg.connect(PG_URL, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return None


def require_pg() -> None:
    require("postgres")


def new_database() -> str:
    """URL of a new, empty database on the test server (dropped when the process exits)."""
    import psycopg

    name = f"kd_t_{secrets.token_hex(6)}"
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")

    def drop() -> None:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    atexit.register(drop)
    return urlunsplit(urlsplit(PG_URL)._replace(path=f"/{name}"))


@functools.cache
def process_database() -> str:
    """This test process's own database (see the module docstring)."""
    import psycopg

    try:
        return new_database()
    except psycopg.Error:  # no CREATEDB right: share the server's database
        return PG_URL


def schema_url(schema: str) -> str:
    url = process_database()
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options={quote(f'-csearch_path={schema}')}"


@contextmanager
def pg_schema() -> Iterator[str]:
    """A fresh, uniquely named schema; yields a URL whose search_path is that schema."""
    require_pg()
    import psycopg

    name = f"kd_t_{secrets.token_hex(6)}"
    with psycopg.connect(process_database(), autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    try:
        yield schema_url(name)
    finally:
        with psycopg.connect(process_database(), autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {name} CASCADE")


ENTITY_TABLES = ("observations", "capsules", "capsule_observations", "summaries", "pins")


def table_counts(url: str, tables: tuple[str, ...] = ENTITY_TABLES) -> tuple[int, ...]:
    """Row counts of ``tables`` in the database of ``url`` (a SQLite path or postgresql URL)."""
    if url.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(url) as conn:
            return tuple(
                int(conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0])  # type: ignore[index]
                for t in tables
            )
    import sqlite3

    with sqlite3.connect(url) as conn:
        return tuple(int(conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]) for t in tables)

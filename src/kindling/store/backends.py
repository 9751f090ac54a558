"""Which backend a database name means: a ``postgresql://`` URL or a SQLite file path.

PostgreSQL is an optional extra: its package is imported only when such a URL is opened, so
the core and the hooks never load psycopg otherwise.

Must not import anything from Kindling except ``errors`` and ``store``.
"""

from __future__ import annotations

from pathlib import Path

from kindling.errors import StoreError
from kindling.store.base import Store
from kindling.store.sqlite import SqliteStore


def is_postgres_url(path: object) -> bool:
    return isinstance(path, str) and path.startswith(("postgresql://", "postgres://"))


def open_postgres(url: str) -> Store:
    """The PostgreSQL store of ``url``; psycopg is imported here, on demand."""
    try:
        from kindling.store.postgres import PostgresStore
    except ImportError:
        raise StoreError(
            "a postgresql:// database needs the PostgreSQL extra: "
            "pip install 'kindling-memory[postgres]'"
        ) from None
    return PostgresStore(url)


def open_store(path: str | Path) -> Store:
    """The store of a file path, ``:memory:`` or a ``postgresql://`` URL."""
    if is_postgres_url(path):
        return open_postgres(str(path))
    return SqliteStore(Path(path).expanduser() if str(path) != ":memory:" else path)

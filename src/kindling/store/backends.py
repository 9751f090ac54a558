"""Which backend a database name means: a ``postgresql://`` URL or a SQLite file path; its
store (``open_store``) and its file doctor (``open_doctor``).

PostgreSQL is an optional extra: its package is imported only when such a URL is opened, so
the core and the hooks never load psycopg otherwise.

Must not import anything from Kindling except ``errors``, ``config`` (``is_postgres_url``) and
``store``.
"""

from __future__ import annotations

import os

from kindling.config import is_postgres_url
from kindling.errors import StoreError
from kindling.store.base import Doctor, Store
from kindling.store.sqlite import SqliteStore
from kindling.store.sqlite.doctor import SqliteDoctor


def open_postgres(
    url: str, *, busy_timeout_s: float | None = None, read_only: bool = False
) -> Store:
    """The PostgreSQL store of ``url``; psycopg is imported here, on demand."""
    try:
        from kindling.store.postgres import PostgresStore
    except ImportError:
        raise StoreError(
            "a postgresql:// database needs the PostgreSQL extra: "
            "pip install 'kindling-memory[postgres]'"
        ) from None
    return PostgresStore(url, busy_timeout_s=busy_timeout_s, read_only=read_only)


def open_store(
    path: str | os.PathLike[str], *, busy_timeout_s: float | None = None, read_only: bool = False
) -> Store:
    """The store of a file path, ``:memory:`` or a ``postgresql://`` URL. ``busy_timeout_s``:
    how long a write waits for another writer's lock (None: the backend's default);
    ``read_only``: refuse every write (SQLite opens the file ``mode=ro``)."""
    if is_postgres_url(path):
        return open_postgres(str(path), busy_timeout_s=busy_timeout_s, read_only=read_only)
    where = os.path.expanduser(os.fspath(path)) if str(path) != ":memory:" else path
    if busy_timeout_s is None:
        return SqliteStore(where, read_only=read_only)
    return SqliteStore(where, busy_timeout_s=busy_timeout_s, read_only=read_only)


def open_doctor(path: str | os.PathLike[str]) -> Doctor:
    """The checks, index rebuild and salvage of the database at ``path`` (``kindling
    doctor``), without opening it as a store: a SQLite file's. A PostgreSQL server checks its
    own storage: ``StoreError``, in one line."""
    if is_postgres_url(path):
        raise StoreError(
            "kindling doctor checks a SQLite file; a PostgreSQL database is checked by its"
            " server (amcheck, REINDEX): point --db at a file"
        )
    return SqliteDoctor(os.path.expanduser(os.fspath(path)))

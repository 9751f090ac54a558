"""What differs between the SQL of two backends, said once: the ``Dialect`` the shared verbs
(``store.sql``) write their statements with, and the ``SqlDatabase`` they run them on.

The shared verbs write plain SQL that both SQLite (3.35+) and PostgreSQL (13+) read alike:
``?`` placeholders (a database whose driver wants ``%s`` swaps them), ``TRUE``/``FALSE`` for
flags, ``ON CONFLICT DO NOTHING``. What cannot be written alike is a ``Dialect`` field or
method: how to test a column against a list of ids (or leave the ids out), a
case-insensitive substring match, the elements of a JSON array column, a false flag. Error
mapping, connections and transactions are each backend's ``SqlDatabase``.

Must not import anything from Kindling.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

# Ids per ``IN (...)`` list where a statement's parameters are bounded (SQLite before 3.32:
# 999), and parameters per statement of a ``VALUES`` list.
ID_CHUNK = 500
MAX_PARAMS = 999


@dataclass(frozen=True, slots=True)
class Dialect:
    """The SQL spellings that differ between backends."""

    # True: a list is one array parameter, of any length (``= ANY(?)``, ``unnest(?, ?)``);
    # False: lists are spelled out (``IN (?, ?)``, ``VALUES (?, ?)``) in bounded chunks.
    array_params: bool
    # A case-insensitive substring test of ``{column}`` against one ``like_pattern`` parameter.
    contains_sql: str
    # A FROM item of the elements of the JSON array in ``{column}``, as text ``{alias}.value``.
    json_items_sql: str
    # The flag ``{column}`` is false (as each backend's indexes and triggers spell it).
    false_sql: str

    def in_ids(self, column: str, ids: Sequence[Any]) -> Iterator[tuple[str, list[Any]]]:
        """``(condition, parameters)`` pairs that together test ``column`` against ``ids``:
        one per chunk; none for no ids."""
        if not ids:
            return
        if self.array_params:
            yield f"{column} = ANY(?)", [list(ids)]
            return
        for start in range(0, len(ids), ID_CHUNK):
            chunk = list(ids[start : start + ID_CHUNK])
            yield f"{column} IN ({','.join('?' * len(chunk))})", chunk

    def not_in_ids(self, column: str, ids: Sequence[Any]) -> tuple[str, list[Any]]:
        """``(condition, parameters)`` that keep ``column`` out of ``ids`` (a few: one list
        per ``ID_CHUNK``); ``("", [])`` for no ids."""
        if not ids:
            return "", []
        if self.array_params:
            return f"{column} <> ALL(?)", [list(ids)]
        chunks = [list(ids[start : start + ID_CHUNK]) for start in range(0, len(ids), ID_CHUNK)]
        return " AND ".join(f"{column} NOT IN ({','.join('?' * len(c))})" for c in chunks), [
            value for chunk in chunks for value in chunk
        ]

    def is_false(self, column: str) -> str:
        """The flag ``column`` is false."""
        return self.false_sql.format(column=column)

    def rows_per_statement(self, width: int) -> int | None:
        """How many rows of ``width`` values one ``rows_source`` may list (None: any)."""
        return None if self.array_params else max(1, MAX_PARAMS // width)

    def rows_source(
        self, rows: Sequence[Sequence[Any]], types: Sequence[str], alias: str
    ) -> tuple[str, list[Any]]:
        """``(FROM item, parameters)`` listing ``rows`` (at most ``rows_per_statement``) as
        ``alias.column1``, ``alias.column2``, ... (the SQL ``types`` of the columns)."""
        if self.array_params:
            arrays = ", ".join(f"CAST(? AS {sql_type}[])" for sql_type in types)
            names = ", ".join(f"column{n}" for n in range(1, len(types) + 1))
            return f"unnest({arrays}) AS {alias}({names})", [
                list(c) for c in zip(*rows, strict=True)
            ]
        values = ", ".join(["(" + ", ".join("?" * len(types)) + ")"] * len(rows))
        return f"(VALUES {values}) AS {alias}", [value for row in rows for value in row]

    def contains(self, column: str) -> str:
        """``column`` contains the parameter's text (a ``like_pattern``), ignoring case."""
        return self.contains_sql.format(column=column)

    def json_items(self, column: str, alias: str) -> str:
        """A FROM item listing the elements of ``column``'s JSON array as ``alias.value``."""
        return self.json_items_sql.format(column=column, alias=alias)


class SqlDatabase(Protocol):
    """One backend's database as the shared verbs use it: statements with ``?`` marks."""

    dialect: Dialect

    def close(self) -> None: ...

    def schema_version(self) -> int: ...

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Every row of one query."""
        ...

    def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement in a write transaction (the caller's, or its own); rows changed."""
        ...

    def write_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """One statement per row of parameters, in one write transaction."""
        ...

    def insert_rows(
        self, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]
    ) -> None:
        """Insert ``rows`` (values in ``columns`` order) into ``table``, the backend's fastest
        way, in one write transaction."""
        ...

    def transaction(self) -> AbstractContextManager[None]:
        """One write transaction; nested calls join the outer one."""
        ...

    def lock_rows(self, table: str, ids: Sequence[str]) -> None:
        """Hold the rows ``ids`` of ``table`` until the transaction ends (a backend whose
        write transaction locks the whole database does nothing)."""
        ...

    def forgetting(self, *tables: str) -> None:
        """This transaction overwrites forgotten text in ``tables``: once it commits, the
        backend removes what it kept of the old text (SQLite: FTS segments and the WAL;
        PostgreSQL: old row versions)."""
        ...


def read_by_ids(
    db: SqlDatabase, select: str, column: str, ids: Sequence[Any]
) -> Iterator[Sequence[Any]]:
    """The rows of ``{select} WHERE <column is one of ids>``, chunk after chunk."""
    for condition, chunk in db.dialect.in_ids(column, ids):
        yield from db.read(f"{select} WHERE {condition}", chunk)


class UsesDatabase:
    """A verb group: it reaches its store's database through ``db`` (read-only here, so that
    a backend's store may hold a ``SqlDatabase`` with more methods of its own)."""

    if TYPE_CHECKING:

        @property
        def db(self) -> SqlDatabase: ...

"""``Migration``: one ordered, named schema step, the shape every backend's migration list
(``store.sqlite.migrations``, ``store.postgres.migrations``) is written in. The steps
themselves are each backend's DDL, never shared.

Must not import anything from Kindling.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

C = TypeVar("C")


@dataclass(frozen=True)  # no slots: a subscripted generic sets __orig_class__ on its instances
class Migration(Generic[C]):
    """One ordered, named schema step; ``then`` does what SQL alone cannot, after ``sql``, in
    the same transaction, on the backend's connection ``C``."""

    version: int
    name: str
    sql: str
    then: Callable[[C], None] | None = None


def vector_tables_sql(binary_type: str) -> str:
    """The tables of the optional semantic signal (``kindling.semantic``; SQLite migration 14,
    PostgreSQL migration 10): one vector per row and model, emptied with the text
    (``store/vectors.py``) by the foreign key on delete, and by each backend's triggers on
    forgetting or on any change of the text. ``binary_type``: the backend's bytes column."""
    return "".join(
        f"""
CREATE TABLE IF NOT EXISTS {table}_vectors (
  {key} TEXT PRIMARY KEY REFERENCES {parent}(id) ON DELETE CASCADE,
  model TEXT NOT NULL,
  vector {binary_type} NOT NULL
);"""
        for table, key, parent in (
            ("observation", "observation_id", "observations"),
            ("summary", "summary_id", "summaries"),
        )
    )

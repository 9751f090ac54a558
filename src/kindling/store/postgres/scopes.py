"""The scope filter of PostgreSQL statements: AND over the requested dimensions, with ``%s``
placeholders (``store.rows.scope_where`` is SQLite's). A leaf, so that every PostgreSQL verb
module and the migrations can import it without a cycle.

Must not import anything from Kindling except ``model``.
"""

from __future__ import annotations

from typing import Any

from kindling.model import Scope


def scope_where(scope: Scope, alias: str, *, indexed: bool = True) -> tuple[str, list[Any]]:
    """AND over the given dimensions, exact match (``store.rows.scope_where`` with ``%s``);
    ``indexed=False`` writes it so that the planner does not use the scope's b-tree."""
    items = scope.items()
    op = "=" if indexed else "IS NOT DISTINCT FROM"
    sql = " AND ".join(f"{alias}.{name} {op} %s" for name, _ in items)
    return sql or "TRUE", [value for _, value in items]

"""The semantic signal's backfill as a ``Kindling`` verb: what ``kindling semantic index`` calls.

The extra is imported only when the verb runs, never on the hooks' path.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kindling.engine.base import EngineBase
from kindling.model import JsonObject

if TYPE_CHECKING:
    from kindling.semantic.indexer import IndexProgress


class SemanticVerbs(EngineBase):
    """Embed what has no vector yet (newest first, resumable, CPU-bounded)."""

    def semantic_index(
        self,
        *,
        model: str | None = None,
        limit: int | None = None,
        cpu: float = 1.0,
        batch: int = 16,
        replace: bool = False,
        progress: Callable[[IndexProgress], None] | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> JsonObject:
        """Backfill this store's vectors of ``model`` (default: ``KINDLING_SEMANTIC_MODEL``,
        else the model of the store's vectors, else the default one), ``batch`` rows a
        transaction; ``stop()`` is asked before each batch. Vectors of another model are
        replaced only with ``replace``. Returns ``{"index": progress, "semantic": coverage}``
        as ``kindling semantic index --json`` prints it. Raises ``SemanticError`` naming what
        is missing (extra, model, vectors) or the model the store's vectors are of."""
        from kindling.semantic import api

        done = api.index(
            self.store,
            model=model,
            limit=limit,
            cpu=cpu,
            batch=batch,
            replace=replace,
            progress=progress,
            stop=stop,
        )
        return {"index": done.to_dict(), "semantic": api.status(self.store, model).to_dict()}

"""Find one entity of any type by id, with the entities it links to: ``Kindling.describe``
(``engine.lookup``), under its old name for callers of ``describe(kd, id)``.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from kindling.engine import Kindling
from kindling.model.reports import Described, EntityType


def describe(kd: Kindling, entity_id: str) -> Described:
    """``kd.describe(entity_id)``."""
    return kd.describe(entity_id)


__all__ = ["Described", "EntityType", "describe"]

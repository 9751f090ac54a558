"""Find one entity of any type by id, with the entities it links to: ``Kindling.describe``
(``engine.lookup``), under its old name for callers of ``describe(kd, id)``.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from kindling.engine import Kindling
from kindling.engine.lookup import everything
from kindling.model import Visible
from kindling.model.reports import Described, EntityType


def describe(kd: Kindling, entity_id: str, *, visible: Visible = everything) -> Described:
    """``kd.describe(entity_id, visible=visible)``."""
    return kd.describe(entity_id, visible=visible)


__all__ = ["Described", "EntityType", "describe", "everything"]

"""Kindling's domain values: frozen dataclasses with closed sets for kinds and statuses.

``entities`` (scope, observations, capsules, summaries, pins), ``results`` (what ``retrieve()``
answers), ``memories`` (the chat memories' structured fields), ``disclosure`` (what
``timeline()`` and ``get_items()`` answer) and ``status`` (what ``status()`` answers); every name
is importable from ``kindling.model``, the last four on first use. ``to_dict()`` gives the JSON
of the retrieval contract (seed 000).

Must not import anything from Kindling except ``errors``.
"""

from kindling.model.entities import (
    CAPSULE_STATUSES,
    CAPSULE_TYPES,
    OBSERVATION_KINDS,
    REDACTED,
    SCOPE_FIELDS,
    TARGET_TYPES,
    AnyEntity,
    Capsule,
    CapsuleStatus,
    CapsuleType,
    Entity,
    JsonObject,
    NewObservation,
    Observation,
    ObservationKind,
    Pin,
    QueryMode,
    Scope,
    Summary,
    TargetType,
    Visible,
    entity_type,
)

# The results, chat-memory and disclosure values load on first use: a hook that only opens the
# store and appends pays for the entities alone (each dataclass costs its creation at import).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.model.disclosure import (
        ITEM_TYPES,
        Item,
        Items,
        ItemType,
        Timeline,
        cut_marker,
    )
    from kindling.model.memories import (
        SUMMARY_STATUSES,
        ChatMemory,
        ChatMemoryFields,
        ChatMemoryMatch,
        SummaryDetails,
        SummaryStatus,
    )
    from kindling.model.results import (
        RELEVANCE_THRESHOLD,
        CandidateResult,
        Explanation,
        PinResult,
        RetrieveProvenance,
        RetrieveResult,
    )
    from kindling.model.status import LocalStatus, ServerStatus

_LAZY = {
    **dict.fromkeys(
        ("ITEM_TYPES", "Item", "Items", "ItemType", "Timeline", "cut_marker"),
        "kindling.model.disclosure",
    ),
    **dict.fromkeys(
        ("SUMMARY_STATUSES", "ChatMemory", "ChatMemoryFields", "ChatMemoryMatch",
         "SummaryDetails", "SummaryStatus"),
        "kindling.model.memories",
    ),
    **dict.fromkeys(
        ("CandidateResult", "Explanation", "PinResult", "RELEVANCE_THRESHOLD",
         "RetrieveProvenance", "RetrieveResult"),
        "kindling.model.results",
    ),
    **dict.fromkeys(("LocalStatus", "ServerStatus"), "kindling.model.status"),
}  # fmt: skip


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value  # later lookups skip this function
        return value
    raise AttributeError(f"module 'kindling.model' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "CAPSULE_STATUSES",
    "CAPSULE_TYPES",
    "ITEM_TYPES",
    "OBSERVATION_KINDS",
    "REDACTED",
    "RELEVANCE_THRESHOLD",
    "SCOPE_FIELDS",
    "SUMMARY_STATUSES",
    "TARGET_TYPES",
    "AnyEntity",
    "CandidateResult",
    "Capsule",
    "CapsuleStatus",
    "CapsuleType",
    "ChatMemory",
    "ChatMemoryFields",
    "ChatMemoryMatch",
    "Entity",
    "Explanation",
    "Item",
    "ItemType",
    "Items",
    "JsonObject",
    "LocalStatus",
    "NewObservation",
    "Observation",
    "ObservationKind",
    "Pin",
    "PinResult",
    "QueryMode",
    "RetrieveProvenance",
    "RetrieveResult",
    "Scope",
    "ServerStatus",
    "Summary",
    "SummaryDetails",
    "SummaryStatus",
    "TargetType",
    "Timeline",
    "Visible",
    "cut_marker",
    "entity_type",
]

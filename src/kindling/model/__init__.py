"""Kindling's domain values: frozen dataclasses with closed sets for kinds and statuses.

``entities`` (scope, observations, capsules, summaries, pins), ``results`` (what ``retrieve()``
answers) and ``memories`` (the chat memories' structured fields); every name is importable
from ``kindling.model``. ``to_dict()`` gives the JSON of the retrieval contract (seed 000).

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
from kindling.model.memories import (
    SUMMARY_STATUSES,
    Memory,
    MemoryFields,
    MemoryMatch,
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

__all__ = [
    "CAPSULE_STATUSES",
    "CAPSULE_TYPES",
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
    "Entity",
    "Explanation",
    "JsonObject",
    "Memory",
    "MemoryFields",
    "MemoryMatch",
    "NewObservation",
    "Observation",
    "ObservationKind",
    "Pin",
    "PinResult",
    "QueryMode",
    "RetrieveProvenance",
    "RetrieveResult",
    "Scope",
    "Summary",
    "SummaryDetails",
    "SummaryStatus",
    "TargetType",
    "Visible",
    "entity_type",
]

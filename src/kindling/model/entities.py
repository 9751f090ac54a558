"""The entities: scope, observations, capsules, summaries and pins, with their closed sets.

Python names are snake_case; ``to_dict()`` gives the JSON shape of the retrieval contract (seed
000), camelCase on the wire, with the same field names as the TypeScript Kindling. Timestamps are
epoch milliseconds (``0`` is a valid time). Parsing of external JSON happens once, at the
boundary (``from_dict``); inside, typed values are passed around.

Must not import anything from Kindling except ``errors``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, get_args

from kindling.errors import InvalidInputError

ObservationKind: TypeAlias = Literal[
    "tool_call",
    "command",
    "file_diff",
    "error",
    "message",
    "node_start",
    "node_end",
    "node_output",
    "node_error",
]
CapsuleType: TypeAlias = Literal["session", "pocketflow_node"]
CapsuleStatus: TypeAlias = Literal["open", "closed"]
TargetType: TypeAlias = Literal["observation", "summary"]
QueryMode: TypeAlias = Literal["terms", "fts5", "recency"]
QUERY_MODES: tuple[QueryMode, ...] = get_args(QueryMode)

OBSERVATION_KINDS: tuple[ObservationKind, ...] = get_args(ObservationKind)
CAPSULE_TYPES: tuple[CapsuleType, ...] = get_args(CapsuleType)
CAPSULE_STATUSES: tuple[CapsuleStatus, ...] = get_args(CapsuleStatus)
TARGET_TYPES: tuple[TargetType, ...] = get_args(TargetType)

JsonObject: TypeAlias = dict[str, Any]

# What a forgotten observation's content (and a forgotten summary's text) reads (seed 000).
REDACTED = "[redacted]"

# Python attribute name -> wire (JSON) name for the four scope dimensions.
SCOPE_FIELDS: tuple[tuple[str, str], ...] = (
    ("session_id", "sessionId"),
    ("repo_id", "repoId"),
    ("agent_id", "agentId"),
    ("user_id", "userId"),
)


@dataclass(frozen=True, slots=True)
class Scope:
    """Isolation dimensions. As a filter: AND over the given ones, exact match, None = any."""

    session_id: str | None = None
    repo_id: str | None = None
    agent_id: str | None = None
    user_id: str | None = None

    def __post_init__(self) -> None:
        for name, _ in SCOPE_FIELDS:
            value = getattr(self, name)
            if value is None:
                continue
            if not isinstance(value, str):
                raise InvalidInputError(
                    f"scope {name} must be a string, got {type(value).__name__}"
                )
            if not value.strip():
                raise InvalidInputError(f"scope {name} is blank; pass None to leave it unset")
            if "\x00" in value:
                raise InvalidInputError(f"scope {name} contains a NUL character")

    def items(self) -> list[tuple[str, str]]:
        """The given dimensions as (python name, value), in a fixed order."""
        return [(n, v) for n, _ in SCOPE_FIELDS if (v := getattr(self, n)) is not None]

    def is_empty(self) -> bool:
        return not self.items()

    def to_dict(self) -> dict[str, str]:
        return {w: v for n, w in SCOPE_FIELDS if (v := getattr(self, n)) is not None}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Scope:
        """Read a wire scope (camelCase keys; snake_case accepted too). Unknown keys fail."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise InvalidInputError('scope must be a JSON object such as {"repoId": "/repo"}')
        known = {w: n for n, w in SCOPE_FIELDS} | {n: n for n, _ in SCOPE_FIELDS}
        unknown = sorted(k for k in data if k not in known)
        if unknown:
            raise InvalidInputError(
                f"unknown scope key(s) {unknown}; use sessionId, repoId, agentId, userId"
            )
        return cls(**{known[k]: v for k, v in data.items() if v is not None})


@dataclass(frozen=True, slots=True)
class Observation:
    """One thing that happened: a tool call, command, diff, error, message or workflow event."""

    id: str
    kind: ObservationKind
    content: str
    provenance: JsonObject
    ts: int
    scope: Scope
    redacted: bool = False

    def to_dict(self) -> JsonObject:
        return {
            "id": self.id,
            "kind": self.kind,
            "content": self.content,
            "provenance": self.provenance,
            "ts": self.ts,
            "scopeIds": self.scope.to_dict(),
            "redacted": self.redacted,
        }


@dataclass(frozen=True, slots=True)
class NewObservation:
    """An observation to record with ``Kindling.append_many``: the arguments of
    ``append_observation``, unvalidated until appended."""

    kind: ObservationKind
    content: str
    scope: Scope | None = None
    provenance: Mapping[str, Any] | None = None
    ts: int | None = None
    capsule_id: str | None = None
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Capsule:
    """A bounded unit of work (a session, a workflow node) grouping observations."""

    id: str
    type: CapsuleType
    intent: str
    status: CapsuleStatus
    opened_at: int
    closed_at: int | None
    scope: Scope
    observation_ids: tuple[str, ...] = ()
    summary_id: str | None = None

    def to_dict(self) -> JsonObject:
        return {
            "id": self.id,
            "type": self.type,
            "intent": self.intent,
            "status": self.status,
            "openedAt": self.opened_at,
            "closedAt": self.closed_at,
            "scopeIds": self.scope.to_dict(),
            "observationIds": list(self.observation_ids),
            "summaryId": self.summary_id,
        }


@dataclass(frozen=True, slots=True)
class Summary:
    """The condensed account of one capsule; at most one per capsule."""

    id: str
    capsule_id: str
    content: str
    confidence: float
    created_at: int
    evidence_refs: tuple[str, ...] = ()

    def to_dict(self) -> JsonObject:
        return {
            "id": self.id,
            "capsuleId": self.capsule_id,
            "content": self.content,
            "confidence": self.confidence,
            "createdAt": self.created_at,
            "evidenceRefs": list(self.evidence_refs),
        }


@dataclass(frozen=True, slots=True)
class Pin:
    """A user's mark that an observation or summary matters; optionally expires."""

    id: str
    target_type: TargetType
    target_id: str
    reason: str | None
    created_at: int
    expires_at: int | None
    scope: Scope

    def to_dict(self) -> JsonObject:
        return {
            "id": self.id,
            "targetType": self.target_type,
            "targetId": self.target_id,
            "reason": self.reason,
            "createdAt": self.created_at,
            "expiresAt": self.expires_at,
            "scopeIds": self.scope.to_dict(),
        }


Entity: TypeAlias = Observation | Summary


# Any stored thing named by an id, and a caller's rule for which of them it may see or change
# (the server passes its access rule to lookups and forgets).
AnyEntity: TypeAlias = Observation | Capsule | Summary | Pin
Visible: TypeAlias = Callable[[AnyEntity], bool]


def entity_type(entity: Entity) -> TargetType:
    return "observation" if isinstance(entity, Observation) else "summary"

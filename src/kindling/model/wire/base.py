"""The wire's helpers, and the entities read back from their ``to_dict()`` JSON.

Must not import anything from Kindling except ``model`` and ``errors``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from kindling.errors import InvalidInputError
from kindling.model.checks import (
    MAX_EVIDENCE_REFS,
    cap_content,
    distinct_ids,
    require_choice,
    require_confidence,
    require_id,
    require_provenance,
    require_text,
    require_ts,
)
from kindling.model.entities import (
    CAPSULE_STATUSES,
    CAPSULE_TYPES,
    OBSERVATION_KINDS,
    REDACTED,
    TARGET_TYPES,
    Capsule,
    Entity,
    JsonObject,
    NewObservation,
    Observation,
    Pin,
    Scope,
    Summary,
)

T = TypeVar("T")
Data = Mapping[str, Any]


def get(obj: Data, key: str, where: str, *, optional: bool = False) -> Any:
    """``obj[key]``; a missing (or null) required key is an ``InvalidInputError``."""
    if not isinstance(obj, Mapping):
        raise InvalidInputError(f"{where} must be a JSON object")
    if key not in obj or obj[key] is None:
        if optional:
            return None
        raise InvalidInputError(f"{where}: missing field {key!r}")
    return obj[key]


def listed(obj: Data, key: str, where: str) -> list[Any]:
    """A list field (absent or null: empty)."""
    value = get(obj, key, where, optional=True) or []
    if not isinstance(value, list):
        raise InvalidInputError(f"{where}: {key} must be a list")
    return value


def ids(obj: Data, key: str, where: str) -> tuple[str, ...]:
    return tuple(require_id(i, key) for i in listed(obj, key, where))


def many(values: Sequence[Any], read: Callable[[Data, str], T], where: str) -> tuple[T, ...]:
    return tuple(read(v, f"{where}[{i}]") for i, v in enumerate(values))


def int_of(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(f"{name} must be a whole number")
    return value


def counts_of(value: Any, name: str) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise InvalidInputError(f"{name} must be a JSON object of counts")
    return {str(k): int_of(v, name) for k, v in value.items()}


# ---------------------------------------------------------------------------- entities


def observation(o: Data, w: str = "observation") -> Observation:
    redacted = get(o, "redacted", w, optional=True) or False
    if not isinstance(redacted, bool):
        raise InvalidInputError(f"{w}: redacted must be true or false")
    # A redacted observation never carries its old content, whatever the file says.
    content = (
        REDACTED if redacted else cap_content(require_text(get(o, "content", w), "content"))[0]
    )
    return Observation(
        id=require_id(get(o, "id", w)),
        kind=require_choice(get(o, "kind", w), OBSERVATION_KINDS, "observation kind"),
        content=content,
        provenance=require_provenance(get(o, "provenance", w, optional=True)),
        ts=require_ts(get(o, "ts", w)),
        scope=Scope.from_dict(get(o, "scopeIds", w, optional=True)),
        redacted=redacted,
    )


def capsule(c: Data, w: str = "capsule") -> Capsule:
    closed = get(c, "closedAt", w, optional=True)
    summary_id = get(c, "summaryId", w, optional=True)
    return Capsule(
        id=require_id(get(c, "id", w)),
        type=require_choice(get(c, "type", w), CAPSULE_TYPES, "capsule type"),
        intent=require_text(get(c, "intent", w), "intent"),
        status=require_choice(get(c, "status", w), CAPSULE_STATUSES, "capsule status"),
        opened_at=require_ts(get(c, "openedAt", w), "openedAt"),
        closed_at=None if closed is None else require_ts(closed, "closedAt"),
        scope=Scope.from_dict(get(c, "scopeIds", w, optional=True)),
        observation_ids=distinct_ids(
            listed(c, "observationIds", w), f"{w}: observationIds", "observationIds"
        ),
        summary_id=None if summary_id is None else require_id(summary_id, "summaryId"),
    )


def summary(s: Data, w: str = "summary") -> Summary:
    return Summary(
        id=require_id(get(s, "id", w)),
        capsule_id=require_id(get(s, "capsuleId", w), "capsuleId"),
        content=require_text(get(s, "content", w), "summary content"),
        confidence=require_confidence(get(s, "confidence", w)),
        created_at=require_ts(get(s, "createdAt", w), "createdAt"),
        evidence_refs=distinct_ids(
            listed(s, "evidenceRefs", w), f"{w}: evidenceRefs", "evidenceRefs", MAX_EVIDENCE_REFS
        ),
    )


def pin(p: Data, w: str = "pin") -> Pin:
    reason = get(p, "reason", w, optional=True)
    expires = get(p, "expiresAt", w, optional=True)
    return Pin(
        id=require_id(get(p, "id", w)),
        target_type=require_choice(get(p, "targetType", w), TARGET_TYPES, "pin target type"),
        target_id=require_id(get(p, "targetId", w), "targetId"),
        reason=None if reason is None else require_text(reason, "reason"),
        created_at=require_ts(get(p, "createdAt", w), "createdAt"),
        expires_at=None if expires is None else require_ts(expires, "expiresAt"),
        scope=Scope.from_dict(get(p, "scopeIds", w, optional=True)),
    )


def entity(target_type: Any, data: Data, w: str = "entity") -> Entity:
    """An observation or a summary, by its ``targetType``."""
    kind = require_choice(target_type, TARGET_TYPES, "target type")
    return observation(data, w) if kind == "observation" else summary(data, w)


def new_observation_to_dict(new: NewObservation) -> JsonObject:
    """``append_many``'s items on the wire: ``append_observation``'s body."""
    out: JsonObject = {"kind": new.kind, "content": new.content}
    if new.scope is not None:
        out["scope"] = new.scope.to_dict()
    if new.provenance is not None:
        out["provenance"] = dict(new.provenance)
    for key, value in (("ts", new.ts), ("capsule_id", new.capsule_id), ("id", new.id)):
        if value is not None:
            out[key] = value
    return out


def new_observation(d: Data, w: str = "observation") -> NewObservation:
    """The reverse of ``new_observation_to_dict`` (values unchecked: ``append_many`` checks)."""
    if not isinstance(d, Mapping):
        raise InvalidInputError(f"{w} must be a JSON object")
    known = {"kind", "content", "scope", "provenance", "ts", "capsule_id", "id"}
    unknown = sorted(set(d) - known - {"user_id", "userId"})
    if unknown:
        raise InvalidInputError(f"{w}: unknown field(s) {unknown}; allowed: {sorted(known)}")
    scope = d.get("scope")
    return NewObservation(
        kind=get(d, "kind", w),
        content=get(d, "content", w),
        scope=None if scope is None else Scope.from_dict(scope),
        provenance=d.get("provenance"),
        ts=d.get("ts"),
        capsule_id=d.get("capsule_id"),
        id=d.get("id"),
    )

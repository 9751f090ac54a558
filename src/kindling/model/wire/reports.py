"""The reports (forget, import, describe, stats, tokens) and the chat memories, read back
from the wire; the memories' ``to_dict`` is here too (their values have none).

Must not import anything from Kindling except ``model`` and ``errors``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kindling.errors import InvalidInputError
from kindling.model.checks import require_id, require_ts
from kindling.model.entities import JsonObject
from kindling.model.wire.base import (
    Data,
    capsule,
    counts_of,
    entity,
    get,
    ids,
    int_of,
    listed,
    many,
    observation,
    pin,
    summary,
)

if TYPE_CHECKING:
    from kindling.model.memories import (
        ChatMemory,
        ChatMemoryFields,
        ChatMemoryMatch,
        SummaryDetails,
    )
    from kindling.model.reports import (
        ApiToken,
        Described,
        EntityType,
        ForgetReport,
        ImportReport,
        RepoActivity,
        StoreStats,
    )


# ---------------------------------------------------------------------------- reports


def forget_report(d: Data, w: str = "forget") -> ForgetReport:
    from kindling.model.reports import ForgetReport

    return ForgetReport(
        id=d.get("id"),
        observations=tuple(str(i) for i in listed(d, "observations", w)),
        summaries=tuple(str(i) for i in listed(d, "summaries", w)),
        pins=tuple(str(i) for i in listed(d, "pins", w)),
        capsules=tuple(str(i) for i in listed(d, "capsules", w)),
        complete=bool(get(d, "complete", w)),
        holders=tuple(str(h) for h in listed(d, "holders", w)),
        dry_run=bool(d.get("dryRun")),
        remains=str(d.get("remains") or ""),
    )


def import_report(d: Data, w: str = "import") -> ImportReport:
    from kindling.model.reports import ImportReport

    return ImportReport(
        added=counts_of(get(d, "added", w), "added"),
        existing=counts_of(get(d, "existing", w), "existing"),
        links_added=int_of(get(d, "linksAdded", w), "linksAdded"),
        skipped=tuple(str(s) for s in listed(d, "skipped", w)),
        dry_run=bool(get(d, "dryRun", w)),
    )


def described(d: Data, w: str = "entity") -> Described:
    from kindling.model.reports import Described

    links = get(d, "links", w)
    # The links tell the type: a capsule's own "type" (session...) hides "capsule".
    kind: EntityType = (
        "capsule"
        if "observations" in links
        else "pin"
        if "target" in links
        else "summary"
        if "evidence" in links
        else "observation"
    )
    body = {k: v for k, v in d.items() if k not in ("links", "sameIdAlso")}
    if kind != "capsule":
        body.pop("type", None)
    readers: dict[str, Callable[[Data, str], Any]] = {
        "observation": observation,
        "capsule": capsule,
        "summary": summary,
        "pin": pin,
    }
    whole = readers[kind](body, w)
    evidence = "evidence" if kind == "summary" else "observations"
    linked_summary, target = links.get("summary"), links.get("target")
    return Described(
        type=kind,
        entity=whole,
        capsules=(),  # only their ids travel: ``capsule_ids`` (the client fetches them)
        observations=many(listed(links, evidence, w), observation, evidence),
        summary=None if linked_summary is None else summary(linked_summary, "summary"),
        pins=many(listed(links, "pins", w), pin, "pins"),
        target=None if target is None else entity(whole.target_type, target, "target"),
        also=tuple(listed(d, "sameIdAlso", w)),
    )


def capsule_ids(d: Data, w: str = "entity") -> tuple[str, ...]:
    """The ids of the capsules a described observation or summary links to."""
    return ids(get(d, "links", w), "capsules", w)


def store_stats(d: Data, w: str = "stats") -> StoreStats:
    from kindling.model.reports import StoreStats

    return StoreStats(
        observations_by_kind=counts_of(get(d, "observationsByKind", w), "observationsByKind"),
        redacted_observations=int_of(get(d, "redactedObservations", w), "redactedObservations"),
        capsules_by_status=counts_of(get(d, "capsulesByStatus", w), "capsulesByStatus"),
        summaries=int_of(get(d, "summaries", w), "summaries"),
        pins=int_of(get(d, "pins", w), "pins"),
        schema_version=int_of(get(d, "schemaVersion", w), "schemaVersion"),
    )


def repo_activity(d: Data, w: str = "repo") -> RepoActivity:
    from kindling.model.reports import RepoActivity

    return RepoActivity(
        repo_id=require_id(get(d, "repoId", w), "repoId"),
        observations=int_of(get(d, "observations", w), "observations"),
        last_ts=require_ts(get(d, "lastTs", w), "lastTs"),
    )


def api_token(d: Data, w: str = "token") -> ApiToken:
    from kindling.model.reports import ApiToken

    revoked = d.get("revokedAt")
    return ApiToken(
        id=require_id(get(d, "id", w)),
        user_id=str(get(d, "user", w)),
        team=d.get("team"),
        created_at=require_ts(get(d, "createdAt", w), "createdAt"),
        revoked_at=None if revoked is None else require_ts(revoked, "revokedAt"),
    )


# ---------------------------------------------------------------------------- chat memories

_LISTS = ("decisions", "rationale", "open_questions", "next_steps", "references")
_CAMEL = {
    "topic_id": "topicId",
    "plan_id": "planId",
    "session_id": "sessionId",
    "source_created_at": "sourceCreatedAt",
    "open_questions": "openQuestions",
    "next_steps": "nextSteps",
    "summary_id": "summaryId",
    "created_at": "createdAt",
    "updated_at": "updatedAt",
}
_FIELDS = ("topic", "status", "context", "topic_id", "plan_id", "session_id", "source_created_at")


def fields_to_dict(value: ChatMemoryFields | SummaryDetails) -> JsonObject:
    """A memory's structured fields (and, for details, their ids and times) in camelCase."""
    names = [*_FIELDS, *_LISTS]
    if hasattr(value, "summary_id"):  # details: the stored fields with their keys
        names = ["summary_id", "created_at", "updated_at", *names]
    out: JsonObject = {}
    for name in names:
        v = getattr(value, name)
        out[_CAMEL.get(name, name)] = list(v) if name in _LISTS else v
    return out


def _field_values(d: Data, w: str, names: Sequence[str]) -> dict[str, Any]:
    if not isinstance(d, Mapping):
        raise InvalidInputError(f"{w} must be a JSON object")
    known = {_CAMEL.get(n, n) for n in names}
    unknown = sorted(str(k) for k in d if k not in known)
    if unknown:
        raise InvalidInputError(f"{w}: unknown field(s) {unknown}; allowed: {sorted(known)}")
    out: dict[str, Any] = {}
    for name in names:
        value = d.get(_CAMEL.get(name, name))
        if name in _LISTS:
            out[name] = tuple(str(v) for v in (value or []))
        elif value is not None:
            out[name] = value
    return out


def memory_fields(d: Data, w: str = "fields") -> ChatMemoryFields:
    """The structured fields a caller gives ``add_memory`` (checked there)."""
    from kindling.model.memories import ChatMemoryFields

    return ChatMemoryFields(**_field_values(d, w, [*_FIELDS, *_LISTS]))


def summary_details(d: Data, w: str = "details") -> SummaryDetails:
    from kindling.model.memories import SummaryDetails

    names = ["summary_id", "created_at", "updated_at", *_FIELDS, *_LISTS]
    return SummaryDetails(**_field_values(d, w, names))


def memory_to_dict(memory: ChatMemory) -> JsonObject:
    return {
        "workspace": memory.workspace,
        "summary": memory.summary.to_dict(),
        "details": None if memory.details is None else fields_to_dict(memory.details),
        "supersededIds": list(memory.superseded_ids),
    }


def memory(d: Data, w: str = "memory") -> ChatMemory:
    from kindling.model.memories import ChatMemory

    details = d.get("details")
    return ChatMemory(
        workspace=str(get(d, "workspace", w)),
        summary=summary(get(d, "summary", w), w),
        details=None if details is None else summary_details(details),
        superseded_ids=ids(d, "supersededIds", w),
    )


def match_to_dict(match: ChatMemoryMatch) -> JsonObject:
    return {"memory": memory_to_dict(match.memory), "relevance": match.relevance}


def memory_match(d: Data, w: str = "match") -> ChatMemoryMatch:
    from kindling.model.memories import ChatMemoryMatch

    return ChatMemoryMatch(memory(get(d, "memory", w)), float(get(d, "relevance", w)))

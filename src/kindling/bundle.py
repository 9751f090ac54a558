"""Export and import bundles: a portable JSON copy of a store, in the TypeScript Kindling's format.

A bundle is ``{"bundleVersion": "1.0", "exportedAt": ms, "dataset": {"version": "1.0",
"exportedAt": ms, "scope": {...}, "observations": [...], "capsules": [...], "summaries": [...],
"pins": [...]}}`` with entities in their wire (``to_dict``) shapes, each list oldest first with
ties broken by id, so that the same store always gives the same bundle apart from the export
time. Import parses the whole bundle into typed values before writing anything, then adds what
is missing in one transaction: importing a bundle twice adds nothing, and a failed import writes
nothing.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, TypeVar

from kindling.capture.sanitize import (
    cap_content,
    require_confidence,
    require_id,
    require_provenance,
    require_text,
    require_ts,
    wall_clock_ms,
)
from kindling.engine import Kindling
from kindling.errors import InvalidInputError, KindlingError
from kindling.model import (
    CAPSULE_STATUSES,
    CAPSULE_TYPES,
    OBSERVATION_KINDS,
    REDACTED,
    TARGET_TYPES,
    Capsule,
    JsonObject,
    Observation,
    Pin,
    Scope,
    Summary,
    Visible,
)

BUNDLE_VERSION = "1.0"
DATASET_VERSION = "1.0"
ENTITY_TYPES = ("observations", "capsules", "summaries", "pins")

Progress = Callable[[int], None]
T = TypeVar("T")
MAX_BUNDLE_BYTES = 1 << 30  # what import reads at most: a bundle, not /dev/zero


def _no_progress(_: int) -> None:
    return None


# ---------------------------------------------------------------------------------- export


def export_bundle(
    kd: Kindling,
    *,
    scope: Scope | None = None,
    include_redacted: bool = False,
    exported_at: int | None = None,
    progress: Progress = _no_progress,
) -> JsonObject:
    """The bundle of everything in ``scope`` (redacted observations only if asked)."""
    where = scope or Scope()
    data = kd.store.export_entities(where, include_redacted=include_redacted)
    when = exported_at if exported_at is not None else wall_clock_ms()
    lists: dict[str, list[JsonObject]] = {}
    for name, items in (
        ("observations", data.observations),
        ("capsules", data.capsules),
        ("summaries", data.summaries),
        ("pins", data.pins),
    ):
        out = []
        for item in items:
            out.append(item.to_dict())
            progress(1)
        lists[name] = out
    return _document(when, where, lists)


def _document(when: int, scope: Scope, lists: Mapping[str, list[JsonObject]]) -> JsonObject:
    """The bundle's JSON around its entity lists (one shape for export and ``Bundle``)."""
    return {
        "bundleVersion": BUNDLE_VERSION,
        "exportedAt": when,
        "dataset": {
            "version": DATASET_VERSION,
            "exportedAt": when,
            "scope": scope.to_dict(),
            **lists,
        },
    }


def dumps(bundle: Mapping[str, Any]) -> str:
    """Canonical text of a bundle: two-space indent, UTF-8, a final newline."""
    return json.dumps(bundle, ensure_ascii=False, indent=2) + "\n"


# ---------------------------------------------------------------------------------- parse


@dataclass(frozen=True, slots=True)
class Bundle:
    """A parsed, validated bundle."""

    exported_at: int
    scope: Scope
    observations: tuple[Observation, ...]
    capsules: tuple[Capsule, ...]
    summaries: tuple[Summary, ...]
    pins: tuple[Pin, ...]

    def size(self) -> int:
        return len(self.observations) + len(self.capsules) + len(self.summaries) + len(self.pins)

    def to_dict(self) -> JsonObject:
        """The bundle's JSON again (what ``parse_bundle`` reads back to an equal value)."""
        lists = {
            "observations": [o.to_dict() for o in self.observations],
            "capsules": [c.to_dict() for c in self.capsules],
            "summaries": [s.to_dict() for s in self.summaries],
            "pins": [p.to_dict() for p in self.pins],
        }
        return _document(self.exported_at, self.scope, lists)


def loads(text: str) -> Bundle:
    """Parse bundle text; any problem is an ``InvalidInputError`` that says where it is."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InvalidInputError(f"the bundle is not valid JSON ({exc})") from None
    except RecursionError:
        raise InvalidInputError("the bundle is nested too deeply to be a Kindling bundle") from None
    return parse_bundle(data)


def _get(obj: Mapping[str, Any], key: str, where: str, *, optional: bool = False) -> Any:
    if key not in obj or obj[key] is None:
        if optional:
            return None
        raise InvalidInputError(f"{where}: missing field {key!r}")
    return obj[key]


def _choice(value: Any, allowed: Sequence[str], name: str) -> Any:
    if value not in allowed:
        raise InvalidInputError(f"invalid {name} {value!r}; use one of: {', '.join(allowed)}")
    return value


def parse_observation(o: Mapping[str, Any], w: str) -> Observation:
    redacted = _get(o, "redacted", w, optional=True) or False
    if not isinstance(redacted, bool):
        raise InvalidInputError(f"{w}: redacted must be true or false")
    # A redacted observation never carries its old content, whatever the file says.
    content = (
        REDACTED if redacted else cap_content(require_text(_get(o, "content", w), "content"))[0]
    )
    return Observation(
        id=require_id(_get(o, "id", w)),
        kind=_choice(_get(o, "kind", w), OBSERVATION_KINDS, "observation kind"),
        content=content,
        provenance=require_provenance(_get(o, "provenance", w, optional=True)),
        ts=require_ts(_get(o, "ts", w)),
        scope=Scope.from_dict(_get(o, "scopeIds", w, optional=True)),
        redacted=redacted,
    )


def parse_capsule(c: Mapping[str, Any], w: str) -> Capsule:
    closed = _get(c, "closedAt", w, optional=True)
    ids = _get(c, "observationIds", w, optional=True) or []
    if not isinstance(ids, list):
        raise InvalidInputError(f"{w}: observationIds must be a list of ids")
    return Capsule(
        id=require_id(_get(c, "id", w)),
        type=_choice(_get(c, "type", w), CAPSULE_TYPES, "capsule type"),
        intent=require_text(_get(c, "intent", w), "intent"),
        status=_choice(_get(c, "status", w), CAPSULE_STATUSES, "capsule status"),
        opened_at=require_ts(_get(c, "openedAt", w), "openedAt"),
        closed_at=None if closed is None else require_ts(closed, "closedAt"),
        scope=Scope.from_dict(_get(c, "scopeIds", w, optional=True)),
        observation_ids=tuple(dict.fromkeys(require_id(i, "observation id") for i in ids)),
    )


def parse_summary(s: Mapping[str, Any], w: str) -> Summary:
    refs = _get(s, "evidenceRefs", w, optional=True) or []
    if not isinstance(refs, list):
        raise InvalidInputError(f"{w}: evidenceRefs must be a list of ids")
    return Summary(
        id=require_id(_get(s, "id", w)),
        capsule_id=require_id(_get(s, "capsuleId", w), "capsuleId"),
        content=require_text(_get(s, "content", w), "summary content"),
        confidence=require_confidence(_get(s, "confidence", w)),
        created_at=require_ts(_get(s, "createdAt", w), "createdAt"),
        evidence_refs=tuple(require_id(r, "evidence ref") for r in refs),
    )


def parse_pin(p: Mapping[str, Any], w: str) -> Pin:
    reason = _get(p, "reason", w, optional=True)
    expires = _get(p, "expiresAt", w, optional=True)
    return Pin(
        id=require_id(_get(p, "id", w)),
        target_type=_choice(_get(p, "targetType", w), TARGET_TYPES, "pin target type"),
        target_id=require_id(_get(p, "targetId", w), "targetId"),
        reason=None if reason is None else require_text(reason, "reason"),
        created_at=require_ts(_get(p, "createdAt", w), "createdAt"),
        expires_at=None if expires is None else require_ts(expires, "expiresAt"),
        scope=Scope.from_dict(_get(p, "scopeIds", w, optional=True)),
    )


def _items(
    dataset: Mapping[str, Any], name: str, parse: Callable[[Mapping[str, Any], str], T]
) -> tuple[T, ...]:
    raw = dataset.get(name)
    if not isinstance(raw, list):
        raise InvalidInputError(f"dataset.{name} must be a list")
    out: list[T] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        where = f"dataset.{name}[{i}]"
        if not isinstance(item, Mapping):
            raise InvalidInputError(f"{where} must be a JSON object")
        try:
            value = parse(item, where)
        except KindlingError as exc:
            message = exc.message if exc.message.startswith(where) else f"{where}: {exc.message}"
            raise InvalidInputError(message) from None
        ident = str(item["id"])
        if ident in seen:
            raise InvalidInputError(f"{where}: duplicate id {ident!r}")
        seen.add(ident)
        out.append(value)
    return tuple(out)


def parse_bundle(data: object) -> Bundle:
    """Validate a decoded bundle (the TypeScript Kindling's ``bundleVersion`` 1.0 format)."""
    if not isinstance(data, Mapping):
        raise InvalidInputError("the bundle must be a JSON object with bundleVersion and dataset")
    version = data.get("bundleVersion")
    if version != BUNDLE_VERSION:
        raise InvalidInputError(
            f"unsupported bundleVersion {version!r}; this Kindling reads {BUNDLE_VERSION!r}"
        )
    dataset = data.get("dataset")
    if not isinstance(dataset, Mapping):
        raise InvalidInputError("the bundle has no dataset object")
    if dataset.get("version", DATASET_VERSION) != DATASET_VERSION:
        raise InvalidInputError(
            f"unsupported dataset.version {dataset.get('version')!r}; expected {DATASET_VERSION!r}"
        )
    exported = data.get("exportedAt", 0)
    return Bundle(
        exported_at=require_ts(exported, "exportedAt"),
        scope=Scope.from_dict(dataset.get("scope")),
        observations=_items(dataset, "observations", parse_observation),
        capsules=_items(dataset, "capsules", parse_capsule),
        summaries=_items(dataset, "summaries", parse_summary),
        pins=_items(dataset, "pins", parse_pin),
    )


# ---------------------------------------------------------------------------------- import


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What an import added and what it found already there, per entity type."""

    added: dict[str, int]
    existing: dict[str, int]
    links_added: int
    # Entries that could not be applied without overwriting or inventing data.
    skipped: tuple[str, ...] = field(default=())
    dry_run: bool = False

    def to_dict(self) -> JsonObject:
        return {
            "added": self.added,
            "existing": self.existing,
            "linksAdded": self.links_added,
            "skipped": list(self.skipped),
            "dryRun": self.dry_run,
        }


MISSING_CAPSULE = "summary {s.id} belongs to capsule {s.capsule_id}, which is neither in the bundle nor in the database"  # noqa: E501
IMPORT_CHUNK = 1000  # observations per insert statement batch (and per progress step)


def import_bundle(
    kd: Kindling,
    bundle: Bundle,
    *,
    dry_run: bool = False,
    progress: Progress = _no_progress,
    visible: Visible | None = None,
) -> ImportReport:
    """Add the bundle's entities that this store lacks, in one transaction.

    Entities are matched by id; an existing one is left as it is (never overwritten). A
    capsule's observations are linked in the bundle's order; links to observations neither in
    the bundle nor in the store are skipped and reported. With ``dry_run`` nothing is written.
    ``visible`` (a server's access rule): a store observation it rejects is never linked.
    """
    known: Visible = visible or (lambda _: True)
    store = kd.store
    added = dict.fromkeys(ENTITY_TYPES, 0)
    existing = dict.fromkeys(ENTITY_TYPES, 0)
    skipped: list[str] = []
    links = 0
    have_obs = set(store.get_observations([o.id for o in bundle.observations]))
    have_caps = {c.id for c in bundle.capsules if store.get_capsule(c.id) is not None}
    have_sums = set(store.get_summaries([s.id for s in bundle.summaries]))
    have_pins = {p.id for p in bundle.pins if store.get_pin(p.id) is not None}
    bundle_obs = {o.id for o in bundle.observations}
    bundle_caps = {c.id for c in bundle.capsules}
    linked = _linked_pairs(kd, bundle)
    summarised: set[str] = set()
    with nullcontext() if dry_run else store.transaction():
        fresh = [(obs, None) for obs in bundle.observations if obs.id not in have_obs]
        existing["observations"] = len(bundle.observations) - len(fresh)
        added["observations"] = len(fresh)
        for start in range(0, len(bundle.observations), IMPORT_CHUNK):
            chunk = fresh[start : start + IMPORT_CHUNK]
            if chunk and not dry_run:
                store.insert_observations(chunk)
            progress(len(bundle.observations[start : start + IMPORT_CHUNK]))
        for cap in bundle.capsules:
            if cap.id in have_caps:
                existing["capsules"] += 1
            else:
                added["capsules"] += 1
                if not dry_run:
                    store.insert_capsule(cap)
            for obs_id in cap.observation_ids:
                if obs_id not in bundle_obs and not any(
                    map(known, store.get_observations([obs_id]).values())
                ):
                    skipped.append(f"capsule {cap.id} lists unknown observation {obs_id}")
                elif (cap.id, obs_id) not in linked and (
                    dry_run or store.link_observation(cap.id, obs_id)
                ):
                    links += 1
            progress(1)
        for summary in bundle.summaries:
            if summary.id in have_sums:
                existing["summaries"] += 1
            elif (
                summary.capsule_id not in bundle_caps
                and store.get_capsule(summary.capsule_id) is None
            ):
                raise InvalidInputError(MISSING_CAPSULE.format(s=summary))
            elif summary.capsule_id in summarised or (
                store.summary_for_capsule(summary.capsule_id) is not None
            ):
                skipped.append(
                    f"summary {summary.id}: capsule {summary.capsule_id} already has a summary"
                )
            else:
                summarised.add(summary.capsule_id)
                added["summaries"] += 1
                if not dry_run:
                    store.upsert_summary(summary)
            progress(1)
        for pin in bundle.pins:
            if pin.id in have_pins:
                existing["pins"] += 1
            else:
                added["pins"] += 1
                if not dry_run:
                    store.insert_pin(pin)
            progress(1)
    return ImportReport(added, existing, links, tuple(skipped), dry_run)


def _linked_pairs(kd: Kindling, bundle: Bundle) -> set[tuple[str, str]]:
    """(capsule, observation) pairs already linked, so re-imports count no new links."""
    pairs: set[tuple[str, str]] = set()
    for cap in bundle.capsules:
        found = kd.store.get_capsule(cap.id)
        if found is not None:
            pairs.update((cap.id, o) for o in found.observation_ids)
    return pairs

"""Bundles: a portable JSON copy of a store, in the TypeScript Kindling's format.

A bundle is ``{"bundleVersion": "1.0", "exportedAt": ms, "dataset": {"version": "1.0",
"exportedAt": ms, "scope": {...}, "observations": [...], "capsules": [...], "summaries": [...],
"pins": [...]}}`` with entities in their wire (``to_dict``) shapes, each list oldest first with
ties broken by id, so that the same store always gives the same bundle apart from the export
time. ``Bundle`` is a parsed, validated one; ``Kindling.export_bundle`` writes one and
``Kindling.import_bundle`` adds what a store lacks.

Must not import anything from Kindling except ``model`` and ``errors``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from kindling.errors import InvalidInputError, KindlingError
from kindling.model import wire
from kindling.model.checks import require_ts
from kindling.model.entities import Capsule, JsonObject, Observation, Pin, Scope, Summary

BUNDLE_VERSION = "1.0"
DATASET_VERSION = "1.0"
ENTITY_TYPES = ("observations", "capsules", "summaries", "pins")
MAX_BUNDLE_BYTES = 1 << 30  # what import reads at most: a bundle, not /dev/zero
MISSING_CAPSULE = "summary {s.id} belongs to capsule {s.capsule_id}, which is neither in the bundle nor in the database"  # noqa: E501
T = TypeVar("T")


def document(when: int, scope: Scope, lists: Mapping[str, list[JsonObject]]) -> JsonObject:
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
        return document(self.exported_at, self.scope, lists)


def loads(text: str) -> Bundle:
    """Parse bundle text; any problem is an ``InvalidInputError`` that says where it is."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InvalidInputError(f"the bundle is not valid JSON ({exc})") from None
    except RecursionError:
        raise InvalidInputError("the bundle is nested too deeply to be a Kindling bundle") from None
    return parse_bundle(data)


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
        observations=_items(dataset, "observations", wire.observation),
        capsules=_items(dataset, "capsules", _bundle_capsule),
        summaries=_items(dataset, "summaries", wire.summary),
        pins=_items(dataset, "pins", wire.pin),
    )


def _bundle_capsule(c: Mapping[str, Any], where: str) -> Capsule:
    """A bundle's capsule: its summary comes with the summaries, not by id."""

    return replace(wire.capsule(c, where), summary_id=None)

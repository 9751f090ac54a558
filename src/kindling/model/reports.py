"""What the whole-store verbs answer: a forget's and an import's report, one id described,
the store's counts and its repositories. ``to_dict()`` is their wire form; ``model.wire`` reads
it back.

Must not import anything from Kindling except ``model`` and ``errors``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from kindling.model.entities import Capsule, JsonObject, Observation, Pin, Summary

AnyEntity: TypeAlias = Observation | Capsule | Summary | Pin
EntityType: TypeAlias = Literal["observation", "capsule", "summary", "pin"]

EXPORTS_KEEP = (
    "exports, bundles and backups written before this forget still hold the text: "
    "delete them or export again"
)


@dataclass(frozen=True, slots=True)
class ForgetReport:
    """What a forget changed, and whether the old bytes have left the files.

    ``id`` is the entity asked for (None for a text match); ``complete`` is True when the
    database file and WAL no longer hold the forgotten text (on PostgreSQL: when VACUUM has
    removed the old row versions); ``holders`` names the processes (or PostgreSQL snapshots)
    that kept them when it was not; ``remains`` says what may still hold copies even when
    complete (PostgreSQL's freed pages, WAL and backups; empty for SQLite); ``exports`` that
    copies written out before (``kindling export`` bundles, backups) keep the text."""

    id: str | None
    observations: tuple[str, ...] = ()
    summaries: tuple[str, ...] = ()
    pins: tuple[str, ...] = ()
    capsules: tuple[str, ...] = ()
    complete: bool = True
    holders: tuple[str, ...] = ()
    dry_run: bool = False
    remains: str = ""

    @property
    def total(self) -> int:
        return len(self.observations) + len(self.summaries) + len(self.pins) + len(self.capsules)

    def counts(self) -> str:
        parts = (
            (len(self.observations), "observation"),
            (len(self.summaries), "summary"),
            (len(self.pins), "pin reason"),
            (len(self.capsules), "capsule intent"),
        )
        shown = [f"{n} {name}{'' if n == 1 else 's'}" for n, name in parts if n]
        return ", ".join(shown).replace("summarys", "summaries") or "nothing"

    @property
    def exports(self) -> str:
        """What a forget cannot reach: copies written out of the database before it."""
        return "" if self.dry_run or not self.total else EXPORTS_KEEP

    @property
    def message(self) -> str:
        """One line for people: what was done and, if unfinished, how to finish; then what
        it cannot reach (``exports``)."""
        if self.dry_run:
            return f"would forget {self.counts()}"
        done = self._done()
        return f"{done}. {self.exports[0].upper()}{self.exports[1:]}" if self.exports else done

    def _done(self) -> str:
        done = f"forgot {self.counts()}"
        if self.complete and self.remains:
            return f"{done}; VACUUM removed the old row versions, but {self.remains}"
        if self.complete:
            return f"{done}; the text is gone from the database files"
        who = ", ".join(self.holders) if self.holders else "another connection"
        return (
            f"{done} from the tables and the index, but old copies are still in the database"
            f" files: {who} holds a read snapshot. Close it, then run `kindling forget --finish`"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "observations": list(self.observations),
            "summaries": list(self.summaries),
            "pins": list(self.pins),
            "capsules": list(self.capsules),
            "complete": self.complete,
            "holders": list(self.holders),
            "dryRun": self.dry_run,
            "remains": self.remains,
            "exports": self.exports,
            "message": self.message,
        }


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


@dataclass(frozen=True, slots=True)
class Described:
    """One entity and its neighbours (``Kindling.describe``); absent links are empty tuples
    or None."""

    type: EntityType
    entity: AnyEntity
    capsules: tuple[Capsule, ...] = ()
    observations: tuple[Observation, ...] = ()
    summary: Summary | None = None
    pins: tuple[Pin, ...] = ()
    target: Observation | Summary | None = None
    also: tuple[EntityType, ...] = ()

    def to_dict(self) -> JsonObject:
        links: JsonObject = {}
        if self.type in ("observation", "summary"):
            links["capsules"] = [c.id for c in self.capsules]
            links["pins"] = [p.to_dict() for p in self.pins]
        if self.type == "summary":
            links["evidence"] = [o.to_dict() for o in self.observations]
        if self.type == "capsule":
            links["observations"] = [o.to_dict() for o in self.observations]
            links["summary"] = self.summary.to_dict() if self.summary else None
        if self.type == "pin":
            links["target"] = self.target.to_dict() if self.target else None
        out: JsonObject = {"type": self.type, **self.entity.to_dict(), "links": links}
        if self.also:
            out["sameIdAlso"] = list(self.also)
        return out


@dataclass(frozen=True, slots=True)
class RepoActivity:
    """One repository: how many observations it holds and the newest one's time."""

    repo_id: str
    observations: int
    last_ts: int

    def to_dict(self) -> dict[str, str | int]:
        return {"repoId": self.repo_id, "observations": self.observations, "lastTs": self.last_ts}


@dataclass(frozen=True, slots=True)
class StoreStats:
    """Whole-store counts (``Kindling.stats``)."""

    observations_by_kind: dict[str, int]
    redacted_observations: int
    capsules_by_status: dict[str, int]
    summaries: int
    pins: int
    schema_version: int

    def to_dict(self) -> JsonObject:
        return {
            "observationsByKind": dict(self.observations_by_kind),
            "redactedObservations": self.redacted_observations,
            "capsulesByStatus": dict(self.capsules_by_status),
            "summaries": self.summaries,
            "pins": self.pins,
            "schemaVersion": self.schema_version,
        }


@dataclass(frozen=True, slots=True)
class ApiToken:
    """An API token's record (never the token itself: the store keeps its SHA-256)."""

    id: str
    user_id: str
    team: str | None
    created_at: int
    revoked_at: int | None

    def to_dict(self) -> JsonObject:
        return {
            "id": self.id,
            "user": self.user_id,
            "team": self.team,
            "createdAt": self.created_at,
            "revokedAt": self.revoked_at,
        }

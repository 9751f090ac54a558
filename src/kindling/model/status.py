"""What ``status()`` answers, typed: a local database's facts (``LocalStatus``) or a server's
(``ServerStatus``). A caller tells them apart with ``isinstance``, never by looking for a key;
``to_json()`` is the JSON ``kindling status --json`` prints (each shape unchanged since it was a
plain dict).

Must not import anything from Kindling except ``model``.
"""

from __future__ import annotations

from dataclasses import dataclass

from kindling.model.entities import Capsule, JsonObject
from kindling.model.reports import StoreStats


@dataclass(frozen=True, slots=True)
class LocalStatus:
    """A local database (``Kindling.status``): where it is, its size, its counts, its newest
    open capsules and its semantic signal."""

    database: str  # its real path, ':memory:', or a server database's URL without credentials
    size_bytes: int  # the file and its WAL (0 for PostgreSQL and ':memory:')
    stats: StoreStats
    open_capsules: tuple[Capsule, ...]
    semantic: JsonObject  # semantic.api.SemanticStatus.to_dict()

    def to_json(self) -> JsonObject:
        s = self.stats
        return {
            "database": self.database,
            "sizeBytes": self.size_bytes,
            "schemaVersion": s.schema_version,
            "observations": {
                "total": sum(s.observations_by_kind.values()),
                "byKind": dict(sorted(s.observations_by_kind.items())),
                "redacted": s.redacted_observations,
            },
            "capsules": {
                "total": sum(s.capsules_by_status.values()),
                "byStatus": dict(sorted(s.capsules_by_status.items())),
            },
            "summaries": s.summaries,
            "pins": s.pins,
            "openCapsules": [c.to_dict() for c in self.open_capsules],
            "semantic": dict(self.semantic),
        }


@dataclass(frozen=True, slots=True)
class ServerStatus:
    """A ``kindling serve`` seen through a token (``RemoteKindling.status``): the server's
    facts and the token user's open capsules; no counts (the database is shared, and its
    totals are not one user's to see)."""

    server: str  # the server's URL
    version: str  # the server's Kindling version
    backend: str  # its store: sqlite or postgresql
    schema_version: int
    user: str  # the token's user
    team: str | None  # None for a personal token
    repos: tuple[str, ...]  # the repositories the token's team may read
    open_capsules: tuple[Capsule, ...]

    def to_json(self) -> JsonObject:
        return {
            "server": self.server,
            "version": self.version,
            "backend": self.backend,
            "schemaVersion": self.schema_version,
            "user": self.user,
            "team": self.team,
            "repos": list(self.repos),
            "openCapsules": [c.to_dict() for c in self.open_capsules],
        }

"""The read verbs of ``RemoteKindling``: listings, lookups by id, status, export and import.

Each verb has the name and keywords of the local one (``Kindling.list_observations``,
``get_pin``, ``describe``, ``export_bundle``...) and returns the same typed value, read from
the server's JSON by ``model.wire``. Scopes travel as the query parameters
``session``/``repo``/``agent``: the server decides the user from the token, so a scope's
``user_id`` is not sent. An answer that does not parse is an ``HttpError``.

Must not be imported by the core; imports only the core and ``client.transport``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, TypeVar

from kindling.client.transport import RemoteClient
from kindling.errors import HttpError, InvalidInputError, KindlingError
from kindling.memory import Progress, no_progress
from kindling.model import (
    Capsule,
    Entity,
    JsonObject,
    Observation,
    ObservationKind,
    Pin,
    Scope,
    Summary,
    TargetType,
    wire,
)
from kindling.model.bundle import Bundle
from kindling.model.checks import require_choice
from kindling.model.disclosure import Items, Timeline
from kindling.model.entities import CapsuleStatus
from kindling.model.reports import Described, ImportReport, RepoActivity
from kindling.model.status import ServerStatus
from kindling.secrets.privacy import scrub_capsule, scrub_observation, scrub_pin, scrub_summary

T = TypeVar("T")


@contextmanager
def parsing(what: str) -> Iterator[None]:
    """A server answer that is not the shape we read is the server's fault, said in one line."""
    try:
        yield
    except (KeyError, TypeError, AttributeError, ValueError, InvalidInputError) as exc:
        if isinstance(exc, KindlingError) and not isinstance(exc, InvalidInputError):
            raise
        raise HttpError(f"the server's {what} answer is not what Kindling sends ({exc})") from None


def query_of(scope: Scope | None, **extra: object) -> dict[str, str]:
    """A scope and extra values as query parameters (absent ones left out)."""
    where = Scope() if scope is None else scope
    values = {"session": where.session_id, "repo": where.repo_id, "agent": where.agent_id, **extra}
    return {k: str(v) for k, v in values.items() if v is not None}


class RemoteReads:
    """Mixed into ``RemoteKindling``; needs its ``client``."""

    client: RemoteClient

    def _list(
        self, name: str, parse: Callable[[Mapping[str, Any], str], T], query: dict[str, str]
    ) -> list[T]:
        answer = self.client.call(name, **query)
        with parsing(name):
            return [parse(item, name) for item in answer]

    def _one(self, name: str, entity_id: str, parse: Callable[[Mapping[str, Any], str], T]) -> T:
        answer = self.client.call(name, entity_id=entity_id)
        with parsing(name):
            return parse(answer, name)

    # ------------------------------------------------------------------ listings

    def list_observations(
        self,
        *,
        kind: ObservationKind | None = None,
        scope: Scope | None = None,
        capsule_id: str | None = None,
        limit: int = 50,
        before: tuple[int, str] | None = None,
    ) -> list[Observation]:
        cursor = None if before is None else f"{before[0]}:{before[1]}"
        query = query_of(scope, kind=kind, capsule=capsule_id, limit=limit, before=cursor)
        return self._list("list_observations", wire.observation, query)

    def list_repos(self, *, scope: Scope | None = None, limit: int = 50) -> list[RepoActivity]:
        return self._list("list_repos", wire.repo_activity, query_of(scope, limit=limit))

    def list_capsules(
        self, *, status: CapsuleStatus | None = None, scope: Scope | None = None, limit: int = 50
    ) -> list[Capsule]:
        query = query_of(scope, status=status, limit=limit)
        return self._list("list_capsules", wire.capsule, query)

    def list_summaries(self, *, scope: Scope | None = None, limit: int = 50) -> list[Summary]:
        return self._list("list_summaries", wire.summary, query_of(scope, limit=limit))

    def list_pins(
        self, *, scope: Scope | None = None, active_at: int | None = None, limit: int = 50
    ) -> list[Pin]:
        query = query_of(scope, active_at=active_at, limit=limit)
        return self._list("list_pins", wire.pin, query)

    # ------------------------------------------------------------------ by id

    def get_observation(self, observation_id: str) -> Observation:
        return self._one("get_observation", observation_id, wire.observation)

    def get_capsule(self, capsule_id: str) -> Capsule:
        return self._one("get_capsule", capsule_id, wire.capsule)

    def get_summary(self, summary_id: str) -> Summary:
        return self._one("get_summary", summary_id, wire.summary)

    def get_pin(self, pin_id: str) -> Pin:
        return self._one("get_pin", pin_id, wire.pin)

    def get(self, entity_id: str, target_type: TargetType) -> Entity:
        kind = require_choice(target_type, ("observation", "summary"), "target type")
        if kind == "observation":
            return self.get_observation(entity_id)
        return self.get_summary(entity_id)

    def describe(self, entity_id: str) -> Described:
        """``Kindling.describe`` on the server (``GET /v1/entities/{id}``); the capsules an
        observation or summary links to come by id, and are fetched."""
        data = self.client.call("describe", entity_id=entity_id)
        with parsing("entity"):
            found = wire.described(data)
            capsule_ids = wire.capsule_ids(data) if found.type in ("observation", "summary") else ()
        return replace(found, capsules=tuple(self.get_capsule(i) for i in capsule_ids))

    # ------------------------------------------------------------------ opening a hit

    def timeline(self, anchor_id: str, *, before: int = 5, after: int = 5) -> Timeline:
        """``Kindling.timeline`` on the server (``GET /v1/timeline/{id}``)."""
        for name, value in (("before", before), ("after", after)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidInputError(f"{name} must be a whole number from 0")
        answer = self.client.call(
            "timeline", entity_id=anchor_id, before=str(before), after=str(after)
        )
        with parsing("timeline"):
            return wire.timeline(answer)

    def get_items(self, ids: Sequence[str], *, token_budget: int | None = None) -> Items:
        """``Kindling.get_items`` on the server (``POST /v1/items``)."""
        body: dict[str, Any] = {"ids": ids if isinstance(ids, str) else list(ids)}
        if token_budget is not None:
            body["token_budget"] = token_budget
        answer = self.client.call("get_items", body)
        with parsing("items"):
            return wire.items(answer)

    # ------------------------------------------------------------------ the whole store

    def status(self) -> ServerStatus:
        """``GET /v1/status``: the server's facts and the token user's open capsules (no
        counts: the database is shared, and one team must not learn how much another stores).
        """
        answer = self.client.call("status")
        with parsing("status"):
            team = answer["team"]
            return ServerStatus(
                server=self.client.url,
                version=str(answer["version"]),
                backend=str(answer["backend"]),
                schema_version=int(answer["schemaVersion"]),
                user=str(answer["user"]),
                team=None if team is None else str(team),
                repos=tuple(str(r) for r in answer["repos"]),
                open_capsules=tuple(wire.capsule(c) for c in answer["openCapsules"]),
            )

    def export_bundle(
        self,
        *,
        scope: Scope | None = None,
        include_redacted: bool = False,
        exported_at: int | None = None,
        progress: Progress = no_progress,
    ) -> JsonObject:
        """``GET /v1/export``: the server's bundle of what the token may read in ``scope``."""
        query = query_of(
            scope,
            include_redacted="true" if include_redacted else None,
            exported_at=exported_at,
        )
        answer = self.client.call("export_bundle", **query)
        with parsing("export"):
            if not isinstance(answer, dict) or "dataset" not in answer:
                raise TypeError("no dataset")
            return answer

    def import_bundle(
        self, bundle: Bundle, *, dry_run: bool = False, progress: Progress = no_progress
    ) -> ImportReport:
        """``POST /v1/import`` of a parsed bundle, its text scrubbed before it is sent."""
        clean = replace(
            bundle,
            observations=tuple(scrub_observation(o) for o in bundle.observations),
            capsules=tuple(scrub_capsule(c) for c in bundle.capsules),
            summaries=tuple(scrub_summary(s) for s in bundle.summaries),
            pins=tuple(scrub_pin(p) for p in bundle.pins),
        )
        answer = self.client.call(
            "import_bundle", clean.to_dict(), dry_run="true" if dry_run else "false"
        )
        progress(bundle.size())
        with parsing("import"):
            return wire.import_report(answer)

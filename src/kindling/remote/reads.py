"""The read verbs of ``RemoteKindling``: listings, lookups by id, status, export and import.

Each verb has the name and keywords of the local one (``Kindling.list_observations``,
``get_pin``, ``lookup.describe``, ``bundle.export_bundle``...) and returns the same typed value,
parsed from the server's JSON with the bundle's parsers. Scopes travel as the query parameters
``session``/``repo``/``agent``: the server decides the user from the token, so a scope's
``user_id`` is not sent. An answer that does not parse is a ``RemoteError``.

Must not be imported by the core; imports only the core and ``remote.client``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from kindling.bundle import (
    Bundle,
    ImportReport,
    parse_capsule,
    parse_observation,
    parse_pin,
    parse_summary,
)
from kindling.capture.privacy import scrub_observation, scrub_text
from kindling.errors import InvalidInputError
from kindling.lookup import Described, EntityType
from kindling.model import (
    AnyEntity,
    Capsule,
    Entity,
    Item,
    Items,
    JsonObject,
    Observation,
    Pin,
    Scope,
    Summary,
    Timeline,
)
from kindling.remote.client import RemoteClient, RemoteError, path_id

T = TypeVar("T")


@contextmanager
def parsing(what: str) -> Iterator[None]:
    """A server answer that is not the shape we read is the server's fault, said in one line."""
    try:
        yield
    except (KeyError, TypeError, AttributeError, InvalidInputError) as exc:
        raise RemoteError(
            f"the server's {what} answer is not what Kindling sends ({exc})"
        ) from None


def query_of(scope: Scope | None, **extra: object) -> dict[str, str]:
    """A scope and extra values as query parameters (absent ones left out)."""
    where = Scope() if scope is None else scope
    values = {"session": where.session_id, "repo": where.repo_id, "agent": where.agent_id, **extra}
    return {k: str(v) for k, v in values.items() if v is not None}


def capsule_of(data: Mapping[str, Any], where: str) -> Capsule:
    """A capsule as the server sends it: the bundle's fields and its ``summaryId`` (which a
    bundle leaves to its summaries)."""
    summary_id = data.get("summaryId")
    capsule = parse_capsule(data, where)
    return capsule if summary_id is None else replace(capsule, summary_id=str(summary_id))


def entity_of(target_type: str, data: Mapping[str, Any]) -> Entity:
    if target_type == "observation":
        return parse_observation(data, "observation")
    return parse_summary(data, "summary")


@dataclass(frozen=True, slots=True)
class ServerStatus:
    """What ``kindling status`` can say of a server. No counts: the database is shared, and
    one team must not learn how much another stores."""

    url: str
    version: str
    backend: str
    schema_version: int
    user: str
    team: str | None
    repos: tuple[str, ...]
    open_capsules: tuple[Capsule, ...]


class RemoteReads:
    """Mixed into ``RemoteKindling``; needs its ``client``."""

    client: RemoteClient

    def _list(
        self, path: str, parse: Callable[[Mapping[str, Any], str], T], query: dict[str, str]
    ) -> list[T]:
        answer = self.client.call("GET", path, **query)
        with parsing(path):
            return [parse(item, path) for item in answer]

    def _one(self, kind: str, entity_id: str, parse: Callable[[Mapping[str, Any], str], T]) -> T:
        answer = self.client.call("GET", f"/v1/{kind}/{path_id(entity_id)}")
        with parsing(kind):
            return parse(answer, kind)

    # ------------------------------------------------------------------ listings

    def list_observations(
        self,
        *,
        kind: str | None = None,
        scope: Scope | None = None,
        limit: int = 50,
        before: tuple[int, str] | None = None,
    ) -> list[Observation]:
        cursor = None if before is None else f"{before[0]}:{before[1]}"
        query = query_of(scope, kind=kind, limit=limit, before=cursor)
        return self._list("/v1/observations", parse_observation, query)

    def list_capsules(
        self, *, status: str | None = None, scope: Scope | None = None, limit: int = 50
    ) -> list[Capsule]:
        return self._list("/v1/capsules", capsule_of, query_of(scope, status=status, limit=limit))

    def list_summaries(self, *, scope: Scope | None = None, limit: int = 50) -> list[Summary]:
        return self._list("/v1/summaries", parse_summary, query_of(scope, limit=limit))

    def list_pins(
        self, *, scope: Scope | None = None, active_at: int | None = None, limit: int = 50
    ) -> list[Pin]:
        query = query_of(scope, active_at=active_at, limit=limit)
        return self._list("/v1/pins", parse_pin, query)

    # ------------------------------------------------------------------ by id

    def get_observation(self, observation_id: str) -> Observation:
        return self._one("observations", observation_id, parse_observation)

    def get_capsule(self, capsule_id: str) -> Capsule:
        return self._one("capsules", capsule_id, capsule_of)

    def get_summary(self, summary_id: str) -> Summary:
        return self._one("summaries", summary_id, parse_summary)

    def get_pin(self, pin_id: str) -> Pin:
        return self._one("pins", pin_id, parse_pin)

    def get(self, entity_id: str, target_type: str) -> Entity:
        if target_type == "observation":
            return self.get_observation(entity_id)
        return self.get_summary(entity_id)

    def describe(self, entity_id: str) -> Described:
        """``lookup.describe`` on the server (``GET /v1/entities/{id}``), typed again; the
        capsules an observation or summary links to come by id, as ``kindling show`` needs."""
        data = self.client.call("GET", f"/v1/entities/{path_id(entity_id)}")
        with parsing("entity"):
            links = data["links"]
            # The links tell the type: a capsule's own "type" (session...) hides "capsule".
            body = {k: v for k, v in data.items() if k not in ("links", "sameIdAlso")}
            entity: AnyEntity
            kind: EntityType
            if "observations" in links:
                kind, entity = "capsule", capsule_of(body, "capsule")
            elif "target" in links:
                kind, entity = "pin", parse_pin(body, "pin")
            elif "evidence" in links:
                kind, entity = "summary", parse_summary(body, "summary")
            else:
                kind, entity = "observation", parse_observation(body, "observation")
            summary, target = links.get("summary"), links.get("target")
            observations = links.get("observations", links.get("evidence", []))
            return Described(
                type=kind,
                entity=entity,
                capsules=tuple(self.get_capsule(i) for i in links.get("capsules", [])),
                observations=tuple(parse_observation(o, "observation") for o in observations),
                summary=None if summary is None else parse_summary(summary, "summary"),
                pins=tuple(parse_pin(p, "pin") for p in links.get("pins", [])),
                target=None
                if target is None or not isinstance(entity, Pin)
                else entity_of(entity.target_type, target),
                also=tuple(data.get("sameIdAlso", [])),
            )

    # ------------------------------------------------------------------ opening a hit

    def timeline(self, anchor_id: str, *, before: int = 5, after: int = 5) -> Timeline:
        """``Kindling.timeline`` on the server (``GET /v1/timeline/{id}``)."""
        for name, value in (("before", before), ("after", after)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidInputError(f"{name} must be a whole number from 0")
        answer = self.client.call(
            "GET", f"/v1/timeline/{path_id(anchor_id)}", before=str(before), after=str(after)
        )
        with parsing("timeline"):
            return Timeline(
                anchor=entity_of(answer["anchorType"], answer["anchor"]),
                session_id=answer["sessionId"],
                before=tuple(parse_observation(o, "before") for o in answer["before"]),
                after=tuple(parse_observation(o, "after") for o in answer["after"]),
                more_before=bool(answer["moreBefore"]),
                more_after=bool(answer["moreAfter"]),
            )

    def get_items(self, ids: Sequence[str], *, token_budget: int | None = None) -> Items:
        """``Kindling.get_items`` on the server (``POST /v1/items``)."""
        body: dict[str, Any] = {"ids": ids if isinstance(ids, str) else list(ids)}
        if token_budget is not None:
            body["token_budget"] = token_budget
        answer = self.client.call("POST", "/v1/items", body)
        parsers: dict[str, Callable[[Mapping[str, Any], str], Any]] = {
            "observation": parse_observation,
            "summary": parse_summary,
            "capsule": capsule_of,
        }
        with parsing("items"):
            return Items(
                items=tuple(
                    Item(
                        i["type"],
                        parsers[i["type"]](i["entity"], "item"),
                        int(i["totalChars"]),
                        int(i["cutChars"]),
                    )
                    for i in answer["items"]
                ),
                missing=tuple(str(m) for m in answer["missing"]),
                token_budget=answer["tokenBudget"],
                tokens_used=int(answer["tokensUsed"]),
            )

    # ------------------------------------------------------------------ the whole store

    def server_status(self) -> ServerStatus:
        """``GET /v1/status``: the server's facts and the token user's open capsules."""
        answer = self.client.call("GET", "/v1/status")
        with parsing("status"):
            return ServerStatus(
                url=self.client.url,
                version=str(answer["version"]),
                backend=str(answer["backend"]),
                schema_version=int(answer["schemaVersion"]),
                user=str(answer["user"]),
                team=None if answer["team"] is None else str(answer["team"]),
                repos=tuple(str(r) for r in answer["repos"]),
                open_capsules=tuple(capsule_of(c, "capsule") for c in answer["openCapsules"]),
            )

    def export_bundle(
        self, *, scope: Scope | None = None, include_redacted: bool = False
    ) -> JsonObject:
        """``GET /v1/export``: the server's bundle of what the token may read in ``scope``."""
        query = query_of(scope, include_redacted="true" if include_redacted else None)
        answer = self.client.call("GET", "/v1/export", **query)
        with parsing("export"):
            if not isinstance(answer, dict) or "dataset" not in answer:
                raise TypeError("no dataset")
            return answer

    def import_bundle(self, bundle: Bundle, *, dry_run: bool = False) -> ImportReport:
        """``POST /v1/import`` of a parsed bundle, its text scrubbed before it is sent."""
        clean = replace(
            bundle,
            observations=tuple(scrub_observation(o) for o in bundle.observations),
            capsules=tuple(replace(c, intent=scrub_text(c.intent)) for c in bundle.capsules),
            summaries=tuple(replace(s, content=scrub_text(s.content)) for s in bundle.summaries),
            pins=tuple(
                replace(p, reason=None if p.reason is None else scrub_text(p.reason))
                for p in bundle.pins
            ),
        )
        answer = self.client.call(
            "POST", "/v1/import", clean.to_dict(), dry_run="true" if dry_run else "false"
        )
        with parsing("import"):
            return ImportReport(
                added=dict(answer["added"]),
                existing=dict(answer["existing"]),
                links_added=int(answer["linksAdded"]),
                skipped=tuple(answer["skipped"]),
                dry_run=bool(answer["dryRun"]),
            )

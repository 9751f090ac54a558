"""The routes of ``kindling serve``, written once.

Three readers, no other list of routes: the server's application serves each route with the
handler it names (``http.app.create_app``), the OpenAPI document describes each
(``http.openapi``), and the remote client calls each by its name (``client.transport``).
A route says:

- ``name``: unique; the client's name for it and the OpenAPI ``operationId``;
- ``method`` and ``path``: ``{id}`` is one path segment, the handler's first argument after
  the caller (and the route's ``bound`` arguments);
- ``handler``: the server's handler (a method of ``http.api.Api``), called with the caller,
  ``bound``, the path id, the query parameters (when ``query`` names any) and the body (when
  ``body`` names its schema), in that order;
- ``body`` and ``response``: schema names (``http.openapi`` holds the schemas); a ``[]``
  suffix is a list of them;
- ``auth``: whether a bearer token is needed;
- ``timeout``: how long the body may take to arrive: ``none`` (no body is read), ``body``
  (the server's ``--read-timeout``, a one-entity body limit) or ``bulk`` (ten times that, a
  whole-store body limit: batches and bundles). Every body is read under one of these.

Must not import anything from Kindling.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Method = Literal["GET", "POST", "DELETE"]
Timeout = Literal["none", "body", "bulk"]

IN_SCOPE = ("session", "repo", "agent", "limit")  # a listing's scope and size


@dataclass(frozen=True, slots=True)
class Route:
    """One route of the HTTP API (see the module docstring)."""

    name: str
    method: Method
    path: str
    summary: str
    response: str
    body: str | None = None
    query: tuple[str, ...] = ()
    status: int = 200
    handler: str = ""  # default: ``name``
    bound: tuple[str, ...] = ()
    auth: bool = True
    bulk: bool = False

    @property
    def handler_name(self) -> str:
        return self.handler or self.name

    @property
    def timeout(self) -> Timeout:
        if self.body is None:
            return "none"
        return "bulk" if self.bulk else "body"

    @property
    def takes_id(self) -> bool:
        return "{id}" in self.path


def _get(kind: str, singular: str, type_name: str) -> Route:
    return Route(
        f"get_{singular}",
        "GET",
        f"/v1/{kind}/{{id}}",
        f"One {singular}",
        type_name,
        handler="get_entity",
        bound=(kind,),
    )


ROUTES: tuple[Route, ...] = (
    Route(
        "append_observation", "POST", "/v1/observations", "Append an observation",
        "Observation", body="observation", status=201,
    ),
    Route(
        "list_observations", "GET", "/v1/observations",
        "Newest observations in scope; before=<ts>:<id> (the last shown) pages on",
        "Observation[]", query=(*IN_SCOPE, "kind", "capsule", "before"),
    ),
    _get("observations", "observation", "Observation"),
    Route(
        "append_many", "POST", "/v1/observations/batch",
        "Append many observations in one transaction", "Observation[]", body="batch",
        status=201, bulk=True,
    ),
    Route(
        "list_repos", "GET", "/v1/repos", "Repositories in scope, most recently active first",
        "RepoActivity[]", query=IN_SCOPE,
    ),
    Route(
        "add_memory", "POST", "/v1/memories", "Store a chat memory of a workspace", "Memory",
        body="memory", status=201,
    ),
    Route(
        "search_memories", "POST", "/v1/memories/search",
        "The chat memories of a workspace matching a query", "MemoryMatch[]", body="memories",
    ),
    Route(
        "finish_forget", "POST", "/v1/forget/finish",
        "Empty the WAL of what forget left in it", "ForgetReport", body="finish",
    ),
    Route(
        "open_capsule", "POST", "/v1/capsules", "Open a capsule", "Capsule", body="capsule",
        status=201,
    ),
    Route(
        "list_capsules", "GET", "/v1/capsules", "Newest capsules in scope", "Capsule[]",
        query=(*IN_SCOPE, "status"),
    ),
    _get("capsules", "capsule", "Capsule"),
    Route(
        "close_capsule", "POST", "/v1/capsules/{id}/close",
        "Close a capsule (optionally with its summary)", "Capsule", body="close",
    ),
    Route(
        "add_summary", "POST", "/v1/summaries", "Set a capsule's summary", "Summary",
        body="summary", status=201,
    ),
    Route(
        "list_summaries", "GET", "/v1/summaries", "Newest summaries in scope", "Summary[]",
        query=IN_SCOPE,
    ),
    _get("summaries", "summary", "Summary"),
    Route(
        "pin", "POST", "/v1/pins", "Pin an observation or summary", "Pin", body="pin",
        status=201,
    ),
    Route(
        "list_pins", "GET", "/v1/pins", "Newest pins in scope", "Pin[]",
        query=(*IN_SCOPE, "active_at"),
    ),
    _get("pins", "pin", "Pin"),
    Route("unpin", "DELETE", "/v1/pins/{id}", "Remove a pin", "Deleted"),
    Route(
        "describe", "GET", "/v1/entities/{id}",
        "Any entity by id, with its links (`kindling show --json`)", "Described",
    ),
    Route(
        "timeline", "GET", "/v1/timeline/{id}",
        "The steps before and after an observation or summary in its session", "Timeline",
        query=("before", "after"),
    ),
    Route(
        "get_items", "POST", "/v1/items",
        "Whole observations, summaries, capsules by id, to a budget", "Items", body="items",
    ),
    Route(
        "forget", "POST", "/v1/forget",
        "Forget an observation, summary or pin by id, or every copy of a text (match) among"
        " what the token may touch; dry_run only reports", "ForgetReport", body="forget",
    ),
    Route(
        "retrieve", "POST", "/v1/retrieve",
        "Pins, current summary and ranked candidates (seed 000)", "RetrieveResult",
        body="retrieve",
    ),
    Route("status", "GET", "/v1/status", "Server, backend and token facts", "ServerStatus"),
    Route(
        "export_bundle", "GET", "/v1/export", "Export a bundle", "Bundle",
        query=("session", "repo", "agent", "include_redacted", "exported_at"), handler="export",
    ),
    Route(
        "import_bundle", "POST", "/v1/import", "Import a bundle (idempotent)", "ImportReport",
        body="bundle", query=("dry_run",), handler="import_", bulk=True,
    ),
    Route("openapi", "GET", "/openapi.json", "This document", "OpenApi", auth=False),
)  # fmt: skip

BY_NAME: dict[str, Route] = {r.name: r for r in ROUTES}


def route(name: str) -> Route:
    """The route called ``name`` (a name not in the table is a bug: ``KeyError``)."""
    return BY_NAME[name]


def find(method: str, path: str) -> tuple[Route, str | None] | None:
    """The route a request's method and (unquoted) path fall on, with its path id; None
    when none does. For requests written down before they are sent (``client.outbox``)."""
    for spec in ROUTES:
        if spec.method != method:
            continue
        if not spec.takes_id:
            if path == spec.path:
                return spec, None
            continue
        head, _, tail = spec.path.partition("{id}")
        if len(path) <= len(head) + len(tail) or not path.startswith(head):
            continue
        middle = path[len(head) : len(path) - len(tail)]
        if path.endswith(tail) and "/" not in middle:
            return spec, middle
    return None

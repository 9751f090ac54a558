"""The OpenAPI 3.1 document of ``kindling serve`` (served at ``/openapi.json``).

Written by hand, beside the routes in ``app``; a test checks that both list the same paths
and methods. Bodies use the library's keyword names; entities their ``to_dict`` JSON shapes.

Must not import the CLI or other adapters.
"""

from __future__ import annotations

from typing import Any

from kindling import __version__

_SCOPE: dict[str, Any] = {
    "type": "object",
    "description": "Wire scope; userId is ignored (the token's user is used).",
    "properties": {k: {"type": "string"} for k in ("sessionId", "repoId", "agentId")},
}


def _obj(required: list[str], **props: Any) -> dict[str, Any]:
    return {"type": "object", "required": required, "properties": props}


_S = {"type": "string"}
_I = {"type": "integer"}
_N = {"type": "number"}
_B = {"type": "boolean"}
_L = {"type": "array", "items": _S}

_BODIES: dict[str, dict[str, Any]] = {
    "observation": _obj(
        ["kind", "content"], kind=_S, content=_S, scope=_SCOPE, provenance={"type": "object"},
        ts=_I, capsule_id=_S, id=_S,
    ),
    "capsule": _obj(["intent"], intent=_S, scope=_SCOPE, type=_S, id=_S, opened_at=_I),
    "close": _obj([], summary=_S, confidence=_N, evidence_refs=_L, closed_at=_I),
    "summary": _obj(
        ["capsule_id", "content"], capsule_id=_S, content=_S, confidence=_N, evidence_refs=_L,
        created_at=_I,
    ),
    "pin": _obj(
        ["target_type", "target_id"], target_type=_S, target_id=_S, reason=_S, expires_at=_I,
        ttl_ms=_I, scope=_SCOPE, created_at=_I,
    ),
    "batch": _obj(["observations"], observations={"type": "array", "items": {"type": "object"}}),
    "memory": _obj(
        ["workspace", "content"], workspace=_S, content=_S, fields={"type": "object"},
        created_at=_I,
    ),
    "memories": _obj(["workspace", "query"], workspace=_S, query=_S, limit=_I),
    "finish": _obj([], wait_ms=_I),
    "forget": _obj([], id=_S, observation_id=_S, match=_S, dry_run=_B),
    "retrieve": _obj(
        [], query=_S, scope=_SCOPE, token_budget=_I, max_candidates=_I, include_redacted=_B,
        intent=_S, now=_I,
    ),
    "items": _obj(["ids"], ids=_L, token_budget=_I),
    "bundle": {"type": "object", "description": "An export bundle (bundleVersion 1.0)."},
}  # fmt: skip

_ERRORS = {
    "400": "invalid_input",
    "401": "unauthorized",
    "403": "forbidden",
    "404": "not_found",
    "408": "request_timeout",
    "409": "conflict",
    "413": "too_large",
    "503": "store",
}


def _op(summary: str, body: str | None = None, ok: str = "200", **extra: Any) -> dict[str, Any]:
    op: dict[str, Any] = {
        "summary": summary,
        "responses": {
            ok: {"description": "success", "content": {"application/json": {"schema": {}}}},
            **{
                status: {
                    "description": code,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}
                    },
                }
                for status, code in _ERRORS.items()
            },
        },
        **extra,
    }
    if body is not None:
        op["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": _BODIES[body]}},
        }
    return op


def _query(*names: str) -> list[dict[str, Any]]:
    return [{"name": n, "in": "query", "required": False, "schema": _S} for n in names]


_ID = [{"name": "id", "in": "path", "required": True, "schema": _S}]
_IN = ("session", "repo", "agent", "limit")  # a listing's scope and size


def openapi_document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {"title": "Kindling team memory", "version": __version__},
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {
                "Error": _obj(["error"], error=_obj(["code", "message"], code=_S, message=_S))
            },
        },
        "security": [{"bearer": []}],
        "paths": {
            "/v1/observations": {
                "post": _op("Append an observation", "observation", "201"),
                "get": _op(
                    "Newest observations in scope; before=<ts>:<id> (the last shown) pages on",
                    parameters=_query(*_IN, "kind", "capsule", "before"),
                ),
            },
            "/v1/observations/{id}": {"get": _op("One observation", parameters=_ID)},
            "/v1/observations/batch": {
                "post": _op("Append many observations in one transaction", "batch", "201")
            },
            "/v1/repos": {
                "get": _op(
                    "Repositories in scope, most recently active first", parameters=_query(*_IN)
                )
            },
            "/v1/memories": {"post": _op("Store a chat memory of a workspace", "memory", "201")},
            "/v1/memories/search": {
                "post": _op("The chat memories of a workspace matching a query", "memories")
            },
            "/v1/forget/finish": {"post": _op("Empty the WAL of what forget left in it", "finish")},
            "/v1/capsules": {
                "post": _op("Open a capsule", "capsule", "201"),
                "get": _op("Newest capsules in scope", parameters=_query(*_IN, "status")),
            },
            "/v1/capsules/{id}": {"get": _op("One capsule", parameters=_ID)},
            "/v1/capsules/{id}/close": {
                "post": _op(
                    "Close a capsule (optionally with its summary)", "close", parameters=_ID
                )
            },
            "/v1/summaries": {
                "post": _op("Set a capsule's summary", "summary", "201"),
                "get": _op("Newest summaries in scope", parameters=_query(*_IN)),
            },
            "/v1/summaries/{id}": {"get": _op("One summary", parameters=_ID)},
            "/v1/pins": {
                "post": _op("Pin an observation or summary", "pin", "201"),
                "get": _op("Newest pins in scope", parameters=_query(*_IN, "active_at")),
            },
            "/v1/pins/{id}": {
                "get": _op("One pin", parameters=_ID),
                "delete": _op("Remove a pin", parameters=_ID),
            },
            "/v1/entities/{id}": {
                "get": _op(
                    "Any entity by id, with its links (`kindling show --json`)", parameters=_ID
                )
            },
            "/v1/timeline/{id}": {
                "get": _op(
                    "The steps before and after an observation or summary in its session",
                    parameters=[*_ID, *_query("before", "after")],
                )
            },
            "/v1/items": {
                "post": _op("Whole observations, summaries, capsules by id, to a budget", "items")
            },
            "/v1/forget": {
                "post": _op(
                    "Forget an observation, summary or pin by id, or every copy of a text"
                    " (match) among what the token may touch; dry_run only reports",
                    "forget",
                )
            },
            "/v1/retrieve": {
                "post": _op("Pins, current summary and ranked candidates (seed 000)", "retrieve")
            },
            "/v1/status": {"get": _op("Server, backend and token facts")},
            "/v1/export": {
                "get": _op(
                    "Export a bundle",
                    parameters=_query(
                        "session", "repo", "agent", "include_redacted", "exported_at"
                    ),
                )
            },
            "/v1/import": {
                "post": _op("Import a bundle (idempotent)", "bundle", parameters=_query("dry_run"))
            },
            "/openapi.json": {"get": _op("This document", security=[])},
        },
    }

"""The OpenAPI 3.1 document of ``kindling serve`` (served at ``/openapi.json``).

Made from the route table (``model.wire.routes``, which the app serves and the client calls):
each route's operation, its parameters, its body's schema (here, by the name the route gives)
and its answer's. The error answers come from the error classes (``errors``). Bodies use the
library's keyword names; entities their ``to_dict`` JSON shapes.

Must not import the CLI or other adapters.
"""

from __future__ import annotations

from typing import Any

from kindling import __version__
from kindling.errors import KindlingError, ServerUnreachableError, wire_classes
from kindling.model.wire.routes import ROUTES, Route

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

# The schemas the route table's ``response`` names; each is a value's ``to_dict`` JSON.
_RESPONSES: dict[str, str] = {
    "Observation": "Observation.to_dict()",
    "Capsule": "Capsule.to_dict()",
    "Summary": "Summary.to_dict()",
    "Pin": "Pin.to_dict()",
    "RepoActivity": "RepoActivity.to_dict()",
    "Memory": "A chat memory (wire.memory_to_dict)",
    "MemoryMatch": "A chat memory and its score (wire.match_to_dict)",
    "ForgetReport": "ForgetReport.to_dict() (holders left out)",
    "Deleted": "{deleted: <pin id>}",
    "Described": "Described.to_dict() (kindling show --json)",
    "Timeline": "Timeline.to_dict()",
    "Items": "Items.to_dict()",
    "RetrieveResult": "RetrieveResult.to_dict() (seed 000)",
    "ServerStatus": "version, backend, schemaVersion, user, team, repos, openCapsules",
    "Bundle": "An export bundle (bundleVersion 1.0)",
    "ImportReport": "ImportReport.to_dict()",
    "OpenApi": "This OpenAPI 3.1 document",
}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _response(name: str) -> dict[str, Any]:
    if name.endswith("[]"):
        return {"type": "array", "items": _ref(name[:-2])}
    return _ref(name)


def _errors() -> dict[str, Any]:
    """Each error status, with its codes (``errors``: what the client only raises aside)."""
    by_status: dict[int, list[str]] = {}
    for code, cls in wire_classes().items():
        if cls not in (KindlingError, ServerUnreachableError):
            by_status.setdefault(cls.http_status, []).append(code)
    return {
        str(status): {
            "description": ", ".join(sorted(codes)),
            "content": {"application/json": {"schema": _ref("Error")}},
        }
        for status, codes in sorted(by_status.items())
    }


def _op(route: Route) -> dict[str, Any]:
    ok = {
        "description": "success",
        "content": {"application/json": {"schema": _response(route.response)}},
    }
    op: dict[str, Any] = {
        "operationId": route.name,
        "summary": route.summary,
        "responses": {str(route.status): ok, **_errors()},
    }
    parameters = [
        *([{"name": "id", "in": "path", "required": True, "schema": _S}] if route.takes_id else []),
        *({"name": n, "in": "query", "required": False, "schema": _S} for n in route.query),
    ]
    if parameters:
        op["parameters"] = parameters
    if route.body is not None:
        op["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": _BODIES[route.body]}},
        }
    if not route.auth:
        op["security"] = []
    return op


def openapi_document() -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    for route in ROUTES:
        paths.setdefault(route.path, {})[route.method.lower()] = _op(route)
    schemas = {name: {"type": "object", "description": d} for name, d in _RESPONSES.items()}
    schemas["Error"] = _obj(["error"], error=_obj(["code", "message"], code=_S, message=_S))
    return {
        "openapi": "3.1.0",
        "info": {"title": "Kindling team memory", "version": __version__},
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": schemas,
        },
        "security": [{"bearer": []}],
        "paths": paths,
    }

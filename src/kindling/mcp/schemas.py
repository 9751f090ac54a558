"""The MCP tools' output schemas, ages, and argument errors in plain words. Pure.

Every tool that returns structured content declares its shape here (``OUTPUT_SCHEMAS``), and a
test checks each real result against it. Ages use the same rounding as the CLI
(``kindling.timefmt``). ``plain_error`` turns pydantic's validation errors into one sentence an
agent can act on: the argument, what was wrong, what is allowed; never pydantic's own text, its
error codes or its documentation URLs.

Must not import the MCP SDK (the schemas are plain JSON Schema), nor be imported by the core.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kindling.timefmt import relative

_STR: dict[str, Any] = {"type": "string"}
_INT: dict[str, Any] = {"type": "integer"}
_BOOL: dict[str, Any] = {"type": "boolean"}
_STRS: dict[str, Any] = {"type": "array", "items": _STR}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` or null, as ``anyOf``: a type array (``["string", "null"]``) is valid JSON
    Schema, but the MCP Inspector's strict mode warns on it and some clients mishandle it."""
    return {"anyOf": [schema, {"type": "null"}]}


_OPT_STR = _nullable(_STR)


def _object(required: dict[str, Any], optional: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {**required, **(optional or {})},
        "required": list(required),
        "additionalProperties": False,
    }


_BRIEF = {"id": _STR, "kind": _STR, "age": _STR}
_WHERE = {"session": _STR, "path": _STR}
_PIN = _object({**_BRIEF, "pinId": _STR, "reason": _OPT_STR, "snippet": _STR}, _WHERE)
_RESULT = _object(
    {**_BRIEF, "score": {"type": "number"}, "snippet": _STR},
    {**_WHERE, "explanation": {"type": "object"}},
)
_SUMMARY = _object({**_BRIEF, "snippet": _STR})
_COUNTS = {"type": "object", "additionalProperties": _INT}
# timeline: the steps around a hit, like recent's items; the hit itself marked
_STEP = _object(
    {**_BRIEF, "snippet": _STR}, {"path": _STR, "anchor": {"type": "boolean", "const": True}}
)
# get: whole items; the fields after the common ones depend on the type
_ITEM = _object(
    {
        **_BRIEF,
        "type": {"enum": ["observation", "summary", "capsule"]},
        "content": _STR,
        "totalChars": _INT,
        "cutChars": _INT,
    },
    {
        **_WHERE,
        "provenance": {"type": "object"},
        "redacted": _BOOL,
        "capsuleId": _STR,
        "confidence": {"type": "number"},
        "evidenceRefs": _STRS,
        "status": _STR,
        "observationIds": _STRS,
        "summaryId": _STR,
    },
)

OUTPUT_SCHEMAS: dict[str, dict[str, Any]] = {
    "retrieve": _object(
        {
            "pins": {"type": "array", "items": _PIN},
            "currentSummary": _nullable(_SUMMARY),
            "results": {"type": "array", "items": _RESULT},
            "more": _BOOL,
        }
    ),
    "remember": _object({"id": _STR, "kind": _STR, "pinId": _OPT_STR}),
    "pin": _object(
        {
            "pinId": _STR,
            "targetType": _STR,
            "targetId": _STR,
            "reason": _OPT_STR,
            "expiresAt": _nullable(_INT),
        }
    ),
    "unpin": _object({"unpinned": _STR}),
    "forget": _object(
        {
            "id": _OPT_STR,
            "observations": _STRS,
            "summaries": _STRS,
            "pins": _STRS,
            "capsules": _STRS,
            "complete": _BOOL,
            "holders": _STRS,
            "dryRun": _BOOL,
            "remains": _STR,
            "exports": _STR,
            "message": _STR,
        }
    ),
    "recent": _object(
        {"observations": {"type": "array", "items": _object({**_BRIEF, "snippet": _STR}, _WHERE)}}
    ),
    "timeline": _object(
        {
            "anchor": _STR,
            "steps": {"type": "array", "items": _STEP},
            "moreBefore": _BOOL,
            "moreAfter": _BOOL,
        },
        {"session": _STR},
    ),
    "get": _object(
        {
            "items": {"type": "array", "items": _ITEM},
            "missing": _STRS,
            "tokensUsed": _INT,
            "truncated": _BOOL,
            "cut": _STRS,
        }
    ),
    # Locally the database and its counts; in remote mode the server and the token's facts
    # (no counts: the server's database is shared between teams).
    "status": _object(
        {
            "defaultRepo": _STR,
            "version": _STR,
            "schemaVersion": _INT,
        },
        {
            "openCapsulesInDefaultRepo": _INT,  # remotely only where the token may read
            "db": _STR,
            "observationsByKind": _COUNTS,
            "redactedObservations": _INT,
            "capsulesByStatus": _COUNTS,
            "summaries": _INT,
            "pins": _INT,
            "server": _STR,
            "serverVersion": _STR,
            "backend": _STR,
            "user": _STR,
            "team": _OPT_STR,
            "repos": _STRS,
        },
    ),
}


def age(ms: int, now: int) -> str:
    return relative(ms, now)


def _allowed(ctx: Mapping[str, Any]) -> str:
    expected = str(ctx.get("expected", ""))
    return expected.replace("'", '"') if expected else "one of the listed values"


_MESSAGES = {
    "missing": "{name} is required",
    "int_type": "{name} must be a whole number",
    "int_parsing": "{name} must be a whole number",
    "int_from_float": "{name} must be a whole number",
    "float_type": "{name} must be a number",
    "float_parsing": "{name} must be a number",
    "bool_type": "{name} must be true or false",
    "bool_parsing": "{name} must be true or false",
    "string_type": "{name} must be a string",
    "greater_than_equal": "{name} must be at least {ge}",
    "greater_than": "{name} must be more than {gt}",
    "less_than_equal": "{name} must be at most {le}",
    "less_than": "{name} must be less than {lt}",
    "string_too_long": "{name} must be at most {max_length} characters",
    "string_too_short": "{name} must be at least {min_length} characters",
    "list_type": "{name} must be a list",
    "too_short": "{name} must have at least {min_length} item(s)",
    "too_long": "{name} must have at most {max_length} items",
}


def plain_error(errors: Sequence[Mapping[str, Any]], known: Mapping[str, Any]) -> str:
    """One sentence for the first problem pydantic found in a tool's arguments."""
    if not errors:
        return "The arguments are not valid."
    err = errors[0]
    loc = [str(part) for part in err.get("loc", ())]
    name = loc[0] if loc else "an argument"
    if loc and loc[0] not in known:
        name = "an argument"
    kind = str(err.get("type", ""))
    ctx = dict(err.get("ctx") or {})
    if kind in ("literal_error", "enum"):
        sentence = f"{name} must be one of: {_allowed(ctx)}"
    elif kind in _MESSAGES:
        try:
            sentence = _MESSAGES[kind].format(name=name, **ctx)
        except (KeyError, IndexError):
            sentence = f"{name} is not a valid value"
    else:
        sentence = f"{name} is not a valid value"
    return sentence + "."

"""The parameters of the endpoints: a body's keys checked, scopes, numbers and cursors of a
query string.

Must not import the CLI or other adapters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kindling.errors import InvalidInputError
from kindling.http.auth import Principal, read_scope
from kindling.model import Scope

IGNORED = frozenset({"user_id", "userId"})
# retrieve's query: a question, not a document (an 800 KB query took 3.3 s); the remote hook
# cuts a prompt to this (hooks.remote.MAX_QUERY_CHARS)
MAX_QUERY_CHARS = 10_000
# GET /v1/{kind}/{id}: the engine's getter of each kind, and the kind's name in messages
GETTERS = {
    "observations": ("get_observation", "observation"),
    "capsules": ("get_capsule", "capsule"),
    "summaries": ("get_summary", "summary"),
    "pins": ("get_pin", "pin"),
}


def fields(
    body: Mapping[str, Any], allowed: set[str], required: frozenset[str] | set[str] = frozenset()
) -> dict[str, Any]:
    """The body's keys, checked: unknown keys and missing required ones are 400s."""
    unknown = sorted(set(body) - allowed - IGNORED)
    if unknown:
        raise InvalidInputError(f"unknown field(s) {unknown}; allowed: {sorted(allowed)}")
    missing = sorted(required - set(body))
    if missing:
        raise InvalidInputError(f"missing field(s) {missing}")
    return {k: v for k, v in body.items() if k in allowed}


def scope_of(value: Any) -> Scope:
    if isinstance(value, Mapping):
        value = {k: v for k, v in value.items() if k not in IGNORED}
    return Scope.from_dict(value)


def query_scope(who: Principal, args: Mapping[str, str]) -> Scope:
    """The read scope of the query parameters ``session``, ``repo``, ``agent`` (never a user:
    ``read_scope`` decides it)."""
    return read_scope(
        who,
        Scope(session_id=args.get("session"), repo_id=args.get("repo"), agent_id=args.get("agent")),
    )


def whole_number(args: Mapping[str, str], name: str) -> int | None:
    """A query parameter that must be digits (at most 18: any more is out of every range);
    the library checks its range."""
    value = args.get(name)
    if value is None:
        return None
    if not (value.isascii() and value.isdigit() and len(value) <= 18):
        raise InvalidInputError(f"{name} must be a whole number, got {value[:40]!r}")
    return int(value)


def cursor_of(value: str | None) -> tuple[int, str] | None:
    """``before=<ts>:<id>``, the last observation of the page shown (keyset pagination)."""
    if value is None:
        return None
    ts, sep, last_id = value.partition(":")
    if not sep or not (ts.isascii() and ts.isdigit() and len(ts) <= 18) or not last_id:
        raise InvalidInputError(f"before must be <ts>:<id>, got {value[:40]!r}")
    return int(ts), last_id


def limit_of(args: Mapping[str, str]) -> int:
    limit = whole_number(args, "limit")
    return 50 if limit is None else limit

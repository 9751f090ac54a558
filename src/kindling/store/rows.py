"""Row mapping and small SQL helpers shared by every backend (no connection, no driver here):
statements are written with ``?`` marks (``store.sql.dialect``).

Must not import anything from Kindling except ``model``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from typing import Any

from kindling.model import SCOPE_FIELDS, Capsule, Observation, Pin, Scope, Summary

OBS_COLUMNS = "o.id, o.kind, o.content, o.provenance, o.ts, o.redacted, " + ", ".join(
    f"o.{c}" for c, _ in SCOPE_FIELDS
)
CAPSULE_COLUMNS = "c.id, c.type, c.intent, c.status, c.opened_at, c.closed_at, " + ", ".join(
    f"c.{col}" for col, _ in SCOPE_FIELDS
)
CAPSULE_REF_COLUMNS = "c.id, c.status, " + ", ".join(f"c.{col}" for col, _ in SCOPE_FIELDS)
PIN_COLUMNS = "p.id, p.target_type, p.target_id, p.reason, p.created_at, p.expires_at, " + (
    ", ".join(f"p.{col}" for col, _ in SCOPE_FIELDS)
)
SUMMARY_COLUMNS = "s.id, s.capsule_id, s.content, s.confidence, s.created_at, s.evidence_refs"


@functools.lru_cache(maxsize=1024)  # every row of a session has the same scope
def scope_json(scope: Scope) -> str:
    return json.dumps(scope.to_dict(), separators=(",", ":"), sort_keys=True)


def scope_values(scope: Scope) -> tuple[str | None, ...]:
    return tuple(getattr(scope, name) for name, _ in SCOPE_FIELDS)


def scope_where(scope: Scope, alias: str, *, indexed: bool = True) -> tuple[str, list[Any]]:
    """AND over the given dimensions, exact match, as SQL on the denormalised columns;
    ``indexed=False`` writes it so that PostgreSQL's planner does not use the scope's b-tree
    (``IS NOT DISTINCT FROM``, the same test on these non-null values)."""
    items = scope.items()
    op = "=" if indexed else "IS NOT DISTINCT FROM"
    # A session is the narrowest dimension: with it, the others are written so that no index
    # serves them (`` || ''``, the same test on these text values), or SQLite may walk a whole
    # repository's index to find one session's rows (20 ms against 1 at a million rows).
    narrow = indexed and scope.session_id is not None
    sql = " AND ".join(
        f"{alias}.{name} || '' {op} ?"
        if narrow and name != "session_id"
        else f"{alias}.{name} {op} ?"
        for name, _ in items
    )
    return sql or "TRUE", [value for _, value in items]


def row_scope(row: Sequence[Any], start: int) -> Scope:
    return _scope(*row[start : start + 4])


@functools.lru_cache(maxsize=4096)
def _scope(*values: str | None) -> Scope:
    """One ``Scope`` per distinct stored scope (a search reads hundreds of rows from a few
    sessions; a ``Scope`` is immutable and checks its values when made)."""
    return Scope(*(v if v else None for v in values))


def _json_obj(text: str | None) -> dict[str, Any]:
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {"raw": text}
    return value if isinstance(value, dict) else {"value": value}


def json_list(text: str | None) -> tuple[str, ...]:
    try:
        value = json.loads(text or "[]")
    except ValueError:
        return ()
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def observation_row(row: Sequence[Any]) -> Observation:
    return Observation(
        id=row[0],
        kind=row[1],
        content=row[2],
        provenance=_json_obj(row[3]),
        ts=row[4],
        redacted=bool(row[5]),
        scope=row_scope(row, 6),
    )


def capsule_row(row: Sequence[Any], observation_ids: Sequence[str]) -> Capsule:
    """A ``CAPSULE_COLUMNS`` row, then its summary id, with its observation ids."""
    return Capsule(
        id=row[0],
        type=row[1],
        intent=row[2],
        status=row[3],
        opened_at=row[4],
        closed_at=row[5],
        scope=row_scope(row, 6),
        observation_ids=tuple(observation_ids),
        summary_id=row[10],
    )


def summary_row(row: Sequence[Any]) -> Summary:
    return Summary(
        id=row[0],
        capsule_id=row[1],
        content=row[2],
        confidence=float(row[3]),
        created_at=row[4],
        evidence_refs=json_list(row[5]),
    )


def pin_row(row: Sequence[Any]) -> Pin:
    return Pin(
        id=row[0],
        target_type=row[1],
        target_id=row[2],
        reason=row[3],
        created_at=row[4],
        expires_at=row[5],
        scope=row_scope(row, 6),
    )


def observation_values(obs: Observation) -> tuple[Any, ...]:
    """The ``observations`` row of ``obs``, in insert column order (id, kind, content,
    provenance, ts, scope_ids, redacted, session_id, repo_id, agent_id, user_id)."""
    return (
        obs.id,
        obs.kind,
        obs.content,
        json.dumps(obs.provenance, sort_keys=True, ensure_ascii=False),
        obs.ts,
        scope_json(obs.scope),
        int(obs.redacted),
        *scope_values(obs.scope),
    )

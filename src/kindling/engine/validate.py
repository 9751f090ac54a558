"""Checks the engine runs before a write: a new observation made storable, evidence refs, a
pin's expiry. Each raises ``InvalidInputError`` (or ``NotFoundError``) naming the bad value.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from kindling.errors import InvalidInputError, NotFoundError
from kindling.model import OBSERVATION_KINDS, NewObservation, ObservationKind, Scope
from kindling.model.checks import MAX_EVIDENCE_REFS, distinct_ids
from kindling.model.sanitize import (
    MAX_TS,
    cap_content,
    new_id,
    require_choice,
    require_id,
    require_provenance,
    require_scope,
    require_text,
    require_ts,
)
from kindling.secrets.privacy import scrub_content
from kindling.store.base import Store


class ReadyObservation(NamedTuple):
    """A ``NewObservation`` checked, scrubbed (when asked) and cut to size; ``scope`` is None
    when the caller gave none (the capsule's applies)."""

    kind: ObservationKind
    content: str
    provenance: dict[str, Any]
    ts: int
    id: str
    scope: Scope | None
    found: dict[str, str]  # values masked -> kind (in memory only: session_secrets hashes them)


def prepare_observation(
    new: NewObservation, *, scrub: bool, clock: Callable[[], int]
) -> ReadyObservation:
    """Check every field of ``new``; scrub secrets before the size cap, so a cut never keeps
    half a secret."""
    okind: ObservationKind = require_choice(new.kind, OBSERVATION_KINDS, "observation kind")
    text = require_text(new.content, "content")
    prov = require_provenance(new.provenance)
    found: dict[str, str] = {}
    if scrub:
        text, prov = scrub_content(text, prov, found)
    text, original_bytes = cap_content(text)
    if original_bytes is not None:
        prov["contentTruncatedFromBytes"] = original_bytes
    return ReadyObservation(
        okind,
        text,
        prov,
        require_ts(new.ts) if new.ts is not None else clock(),
        require_id(new.id) if new.id is not None else new_id(),
        None if new.scope is None else require_scope(new.scope),
        found,
    )


def evidence_refs(store: Store, refs: Sequence[str] | None) -> tuple[str, ...]:
    """``refs`` as distinct observation ids, in order; every one must exist."""
    if refs is None:
        return ()
    if isinstance(refs, str) or not isinstance(refs, Sequence):
        raise InvalidInputError("evidence_refs must be a list of observation ids")
    ids = distinct_ids(refs, "evidence_refs", "evidence ref", MAX_EVIDENCE_REFS)
    missing = sorted(set(ids) - store.observation_ids(ids))
    if missing:
        raise NotFoundError(f"evidence refs name unknown observations: {', '.join(missing)}")
    return ids


def pin_expiry(now: int, expires_at: int | None, ttl_ms: int | None) -> int | None:
    """When a pin made at ``now`` expires: ``expires_at``, ``now + ttl_ms``, or never."""
    if expires_at is not None and ttl_ms is not None:
        raise InvalidInputError("give expires_at or ttl_ms, not both")
    if ttl_ms is not None:
        if isinstance(ttl_ms, bool) or not isinstance(ttl_ms, int) or ttl_ms <= 0:
            raise InvalidInputError("ttl_ms must be a positive number of milliseconds")
        if now + ttl_ms > MAX_TS:
            raise InvalidInputError(
                f"ttl_ms reaches past the year 9999; use at most {MAX_TS - now} ms"
            )
        return now + ttl_ms
    if expires_at is not None:
        require_ts(expires_at, "expires_at")
    return expires_at


def clean_text(text: str, what: str, clean: Callable[[str], str]) -> str:
    """A required text field, scrubbed by ``clean`` and then capped to the content limit."""
    capped, _ = cap_content(clean(require_text(text, what)))
    return capped

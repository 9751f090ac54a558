"""The capture verbs of ``Kindling``: capsules, observations, summaries and pins.

Every verb checks and scrubs its values before one transaction writes (``engine.validate``), so
no entry point (library, CLI, bridge, hooks, MCP) can skip the checks.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import kindling.engine.validate as validate
from kindling.engine.reads import ReadVerbs
from kindling.errors import ConflictError, InvalidInputError, NotFoundError
from kindling.model import (
    CAPSULE_TYPES,
    TARGET_TYPES,
    Capsule,
    CapsuleType,
    Entity,
    NewObservation,
    Observation,
    ObservationKind,
    Pin,
    Scope,
    Summary,
    TargetType,
)
from kindling.model.sanitize import (
    new_id,
    require_choice,
    require_confidence,
    require_id,
    require_scope,
    require_ts,
)
from kindling.secrets.privacy import mask_remembered
from kindling.store.base import CapsuleRef


class CaptureVerbs(ReadVerbs):
    """Writes; each is one transaction (``Kindling.batch()`` makes many one)."""

    def open_capsule(
        self,
        *,
        intent: str,
        scope: Scope | None = None,
        type: CapsuleType = "session",
        id: str | None = None,
        opened_at: int | None = None,
    ) -> Capsule:
        """Open a capsule. A user's session may have only one open session capsule at a time
        (a session is one user's: another user's session of the same id is another session)."""
        ctype: CapsuleType = require_choice(type, CAPSULE_TYPES, "capsule type")
        text = validate.clean_text(intent, "intent", self.clean)
        where = require_scope(scope)
        capsule = Capsule(
            id=require_id(id) if id is not None else new_id(),
            type=ctype,
            intent=text,
            status="open",
            opened_at=require_ts(opened_at, "opened_at") if opened_at is not None else self.clock(),
            closed_at=None,
            scope=where,
        )
        with self.store.transaction():
            if ctype == "session" and where.session_id is not None:
                existing = self.store.find_open_session_capsule(where.session_id, where.user_id)
                if existing is not None:
                    raise ConflictError(
                        f"session {where.session_id!r} already has open capsule {existing.id}; "
                        "close it first or append to it"
                    )
            self.store.insert_capsule(capsule)
        return capsule

    def append_observation(
        self,
        *,
        kind: ObservationKind,
        content: str,
        scope: Scope | None = None,
        provenance: Mapping[str, Any] | None = None,
        ts: int | None = None,
        capsule_id: str | None = None,
        id: str | None = None,
    ) -> Observation:
        """Record an observation. Without ``scope`` it takes its capsule's scope; without
        ``capsule_id`` it joins the open session capsule of its session, if there is one."""
        new = NewObservation(kind, content, scope, provenance, ts, capsule_id, id)
        return self.append_many([new])[0]

    def append_many(self, observations: Iterable[NewObservation]) -> list[Observation]:
        """Record many observations in one transaction, each checked and scrubbed exactly as
        ``append_observation`` does; one bad item writes nothing (the error names its index)."""
        items = list(observations)
        ready = []
        for index, new in enumerate(items):
            try:
                ready.append(
                    validate.prepare_observation(new, scrub=self.scrubs_secrets, clock=self.clock)
                )
            except InvalidInputError as exc:
                raise InvalidInputError(
                    f"observation {index}: {exc}" if len(items) > 1 else str(exc)
                ) from exc
        rows: list[tuple[Observation, str | None]] = []
        unknown: set[str] = set()  # sessions with nothing remembered when this call asked
        with self.store.transaction():
            targets: dict[tuple[str | None, str | None], CapsuleRef | None] = {}
            for new, item in zip(items, ready, strict=True):
                key = (new.capsule_id, item.scope.session_id if item.scope else None)
                if key not in targets:
                    targets[key] = self._attach_target(new.capsule_id, item.scope)
                capsule = targets[key]
                where = (
                    item.scope
                    if item.scope is not None
                    else (capsule.scope if capsule else Scope())
                )
                content, provenance = item.content, item.provenance
                session = where.session_id
                if self.scrubs_secrets and session is not None:
                    # A value masked earlier in this session is masked here too.
                    memory = self.session_secrets
                    memory.remember(session, item.found)
                    if item.found or session not in unknown:
                        if memory.knows(session):  # a file check: once a call per session
                            content, provenance = mask_remembered(
                                memory, session, content, provenance
                            )
                        else:
                            unknown.add(session)
                obs = Observation(item.id, item.kind, content, provenance, item.ts, where)
                rows.append((obs, capsule.id if capsule else None))
            self.store.insert_observations(rows)  # scrubbed in validate
        return [obs for obs, _ in rows]

    def _capsule_ref(self, capsule_id: str) -> CapsuleRef:
        """The capsule's id, status and scope, without its list of observations."""
        capsule = self.store.capsule_ref(require_id(capsule_id, "capsule_id"))
        if capsule is None:
            raise NotFoundError(f"no capsule with id {capsule_id!r}")
        return capsule

    def _attach_target(self, capsule_id: str | None, scope: Scope | None) -> CapsuleRef | None:
        if capsule_id is not None:
            capsule = self._capsule_ref(capsule_id)
            if capsule.status != "open":
                raise ConflictError(f"capsule {capsule_id} is closed; open a new capsule")
            return capsule
        where = require_scope(scope)
        if where.session_id is None:
            return None
        return self.store.find_open_session_capsule(where.session_id, where.user_id)

    def add_summary(
        self,
        capsule_id: str,
        *,
        content: str,
        confidence: float = 0.5,
        evidence_refs: Sequence[str] | None = None,
        created_at: int | None = None,
    ) -> Summary:
        """Set the summary of a capsule (one per capsule: a second call replaces the first)."""
        capsule = self._capsule_ref(capsule_id)
        text = validate.clean_text(content, "summary content", self.clean)
        conf = require_confidence(confidence)
        refs = validate.evidence_refs(self.store, evidence_refs)
        summary = Summary(
            id=new_id(),
            capsule_id=capsule.id,
            content=text,
            confidence=conf,
            created_at=require_ts(created_at, "created_at")
            if created_at is not None
            else self.clock(),
            evidence_refs=refs,
        )
        return self.store.upsert_summary(summary)

    def close_capsule(
        self,
        capsule_id: str,
        *,
        summary: str | None = None,
        confidence: float | None = None,
        evidence_refs: Sequence[str] | None = None,
        closed_at: int | None = None,
    ) -> Capsule:
        """Close an open capsule, optionally setting its summary in the same transaction."""
        capsule = self._capsule_ref(capsule_id)
        if capsule.status == "closed":
            raise ConflictError(f"capsule {capsule_id} is already closed")
        if summary is None and (confidence is not None or evidence_refs is not None):
            raise InvalidInputError("confidence and evidence_refs need a summary text")
        when = require_ts(closed_at, "closed_at") if closed_at is not None else self.clock()
        with self.store.transaction():
            if summary is not None:
                self.add_summary(
                    capsule.id,
                    content=summary,
                    confidence=0.5 if confidence is None else confidence,
                    evidence_refs=evidence_refs,
                    created_at=when,
                )
            self.store.set_capsule_closed(capsule.id, when)
        return self.get_capsule(capsule.id)

    def pin(
        self,
        target_type: TargetType,
        target_id: str,
        *,
        reason: str | None = None,
        expires_at: int | None = None,
        ttl_ms: int | None = None,
        scope: Scope | None = None,
        created_at: int | None = None,
    ) -> Pin:
        """Pin an observation or summary. Its scope defaults to the target's scope; a
        ``ttl_ms`` counts from ``created_at`` (default: now)."""
        ttype: TargetType = require_choice(target_type, TARGET_TYPES, "pin target type")
        target = self.get(require_id(target_id, "target_id"), ttype)
        now = require_ts(created_at, "created_at") if created_at is not None else self.clock()
        expiry = validate.pin_expiry(now, expires_at, ttl_ms)
        pin = Pin(
            id=new_id(),
            target_type=ttype,
            target_id=target.id,
            reason=None if reason is None else validate.clean_text(reason, "reason", self.clean),
            created_at=now,
            expires_at=expiry,
            scope=require_scope(scope) if scope is not None else self._scope_of(target),
        )
        self.store.insert_pin(pin)
        return pin

    def _scope_of(self, target: Entity) -> Scope:
        if isinstance(target, Observation):
            return target.scope
        return self.get_capsule(target.capsule_id).scope

    def unpin(self, pin_id: str) -> None:
        if not self.store.delete_pin(require_id(pin_id, "pin_id")):
            raise NotFoundError(f"no pin with id {pin_id!r}; list pins with list_pins()")

"""The capture verbs of a principal's view (``engine.view``): each write checks what it names
(a capsule the principal owns, evidence and pin targets it sees) and is stamped with the
principal's identity, in a repository it may write (``AccessChecks``).

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from kindling.engine.access import AccessChecks
from kindling.errors import NotFoundError
from kindling.model import (
    Capsule,
    CapsuleType,
    NewObservation,
    Observation,
    ObservationKind,
    Pin,
    Scope,
    Summary,
    TargetType,
)
from kindling.model.access import found


class CaptureView(AccessChecks):
    """``open_capsule``, ``append_observation``, ``append_many``, ``add_summary``,
    ``close_capsule``, ``pin`` and ``unpin`` under the principal's rule."""

    def open_capsule(
        self,
        *,
        intent: str,
        scope: Scope | None = None,
        type: CapsuleType = "session",
        id: str | None = None,
        opened_at: int | None = None,
    ) -> Capsule:
        # a session is its user's: only the principal's own open capsule of it is a 409
        return self._kd.open_capsule(
            intent=intent, scope=self._write_scope(scope), type=type, id=id, opened_at=opened_at
        )

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
        if capsule_id is not None:
            self._capsule_owned(capsule_id)
        if scope is not None or capsule_id is None:
            # stamped with the principal: a session joins that user's open capsule only
            scope = self._write_scope(scope)
        return self._kd.append_observation(
            kind=kind,
            content=content,
            scope=scope,
            provenance=provenance,
            ts=ts,
            capsule_id=capsule_id,
            id=id,
        )

    def append_many(self, observations: Iterable[NewObservation]) -> list[Observation]:
        """Every item checked as ``append_observation`` checks one, then one transaction."""
        checked = []
        for new in observations:
            if new.capsule_id is not None:
                self._capsule_owned(new.capsule_id)
            if new.scope is not None or new.capsule_id is None:
                new = replace(new, scope=self._write_scope(new.scope))
            checked.append(new)
        return self._kd.append_many(checked)

    def add_summary(
        self,
        capsule_id: str,
        *,
        content: str,
        confidence: float = 0.5,
        evidence_refs: Sequence[str] | None = None,
        created_at: int | None = None,
    ) -> Summary:
        capsule = self._capsule_owned(capsule_id)
        self._evidence_visible(evidence_refs)
        return self._kd.add_summary(
            capsule,
            content=content,
            confidence=confidence,
            evidence_refs=evidence_refs,
            created_at=created_at,
        )

    def close_capsule(
        self,
        capsule_id: str,
        *,
        summary: str | None = None,
        confidence: float | None = None,
        evidence_refs: Sequence[str] | None = None,
        closed_at: int | None = None,
    ) -> Capsule:
        self._evidence_visible(evidence_refs)
        capsule = self._capsule_owned(capsule_id)
        return self._kd.close_capsule(
            capsule,
            summary=summary,
            confidence=confidence,
            evidence_refs=evidence_refs,
            closed_at=closed_at,
        )

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
        target = self._target_scope(target_type, target_id)
        return self._kd.pin(
            target_type,
            target_id,
            reason=reason,
            expires_at=expires_at,
            ttl_ms=ttl_ms,
            scope=self._write_scope(target if scope is None else scope),
            created_at=created_at,
        )

    def unpin(self, pin_id: str) -> None:
        pin = found(self._kd.get_pin, pin_id)
        if pin is None or not self.sees(pin):
            raise NotFoundError(f"no pin with id {pin_id!r}")
        self._kd.unpin(pin.id)

"""The checks of a principal's view (``engine.view``) that ask the store what an id is and
whose: capsules a write goes into, evidence, pin targets, the entities of a bundle.

Every write goes through ``write_scope`` (one rule: the principal's identity, in a repository
it may write); an entity named by id must be one the principal may touch (``sees``), else it
is as unknown as a missing id, in the same words.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from kindling.errors import ConflictError, ForbiddenError, InvalidInputError, NotFoundError
from kindling.model import AnyEntity, Observation, Pin, Scope, Summary
from kindling.model.access import (
    TAKEN,
    Principal,
    distinct_refs,
    found,
    may_touch,
    owns,
    write_scope,
)
from kindling.model.bundle import MISSING_CAPSULE, Bundle

if TYPE_CHECKING:
    from kindling.engine.kindling import Kindling


class AccessChecks:
    """The rule of one principal over one engine (the base of ``MemoryView``)."""

    def __init__(self, kd: Kindling, principal: Principal) -> None:
        self._kd, self.principal = kd, principal

    def sees(self, entity: AnyEntity) -> bool:
        """May the principal touch this entity (``team.may_touch`` of its scope)? What it may
        not is, to it, as unknown as an id nobody has."""
        return may_touch(self.principal, self._scope_of(entity))

    def _scope_of(self, entity: AnyEntity) -> Scope:
        """Whose an entity is: its scope; a summary's is its capsule's."""
        if isinstance(entity, Summary):
            ref = found(self._kd.get_capsule, entity.capsule_id)
            return Scope() if ref is None else ref.scope
        return entity.scope

    def _write_scope(self, scope: Scope | None) -> Scope:
        """The one rule of every write (``team.write_scope``): the principal's identity, in a
        repository it may write."""
        return write_scope(self.principal, scope or Scope(), self._kd.team.repo_is_granted)

    def _capsule_owned(self, capsule_id: Any) -> str:
        """A capsule a write goes into (append, close, summary): the principal's own, in a
        repository it may still write (``_write_scope``)."""
        who = self.principal
        ref = found(self._kd.get_capsule, capsule_id)
        if ref is None or not may_touch(who, ref.scope):
            raise NotFoundError(f"no capsule with id {capsule_id!r}")
        if not owns(who, ref.scope):
            raise ForbiddenError(f"capsule {capsule_id} belongs to another user")
        self._write_scope(ref.scope)
        return ref.id

    def _observations(self, ids: Iterable[Any]) -> dict[str, Observation]:
        """The observations stored under ``ids`` (strings), in one read."""
        return self._kd.get_observations([i for i in ids if isinstance(i, str)])

    def _evidence_visible(self, refs: Any) -> None:
        """Evidence may cite only observations the principal sees: one it may not see is as
        unknown as a missing one, in the library's words (else citing would confirm another
        team's id)."""
        if not isinstance(refs, list | tuple) or not set(map(type, refs)) <= {str}:
            return  # the library refuses it
        refs = distinct_refs(refs)
        known = self._observations(refs)
        unknown = sorted({r for r in refs if r not in known or not self.sees(known[r])})
        if unknown:
            raise NotFoundError(f"evidence refs name unknown observations: {', '.join(unknown)}")

    def _target_scope(self, target_type: Any, target_id: Any) -> Scope:
        kd = self._kd
        entity = (
            found(lambda i: kd.get(i, target_type), target_id)
            if target_type in ("observation", "summary")
            else None
        )
        scope = None if entity is None else self._scope_of(entity)
        if scope is None or not may_touch(self.principal, scope):
            raise NotFoundError(f"no {target_type} with id {target_id!r}")
        return scope

    def _import_checks(self, bundle: Bundle) -> None:
        """What a bundle may reach, dry run or not: an id still held by an entity the
        principal may not touch (only a concurrent create makes one) is the store's
        duplicate-id conflict, never counted as ``existing``; a capsule already there gains
        links only if it is the principal's own; a summary's capsule and its evidence outside
        the bundle must be entities it may touch, else they are as unknown as a missing id
        (capsule links and pin targets: ``import_bundle``)."""
        kd, who, visible = self._kd, self.principal, self.sees
        taken: list[AnyEntity] = [
            *self._observations(o.id for o in bundle.observations).values(),
            *(s for s in (found(kd.get_summary, s.id) for s in bundle.summaries) if s),
            *(p for p in (found(kd.get_pin, p.id) for p in bundle.pins) if p),
        ]
        for capsule in bundle.capsules:
            there = found(kd.get_capsule, capsule.id)
            if there is not None:
                taken.append(there)
                if visible(there) and not owns(who, there.scope):
                    raise ForbiddenError(f"capsule {capsule.id} belongs to another user")
        if not all(visible(entity) for entity in taken):
            raise ConflictError(TAKEN)
        own_caps = {c.id for c in bundle.capsules}
        own_obs = {o.id for o in bundle.observations}
        cited = self._observations(
            dict.fromkeys(r for s in bundle.summaries for r in s.evidence_refs if r not in own_obs)
        )  # every summary's outside evidence in one read
        for summary in bundle.summaries:  # no summary onto someone else's capsule
            if summary.capsule_id not in own_caps:
                ref = found(kd.get_capsule, summary.capsule_id)
                if ref is None or not may_touch(who, ref.scope):
                    raise InvalidInputError(MISSING_CAPSULE.format(s=summary))  # as if unknown
                if not owns(who, ref.scope):
                    raise ForbiddenError(f"capsule {summary.capsule_id} belongs to another user")
            unknown = sorted(
                r
                for r in summary.evidence_refs
                if r not in own_obs and (r not in cited or not visible(cited[r]))
            )
            if unknown:
                raise NotFoundError(
                    f"evidence refs name unknown observations: {', '.join(unknown)}"
                )

    def _pin_target_known(self, bundle: Bundle, pin: Pin) -> bool:
        """A bundle pin's target: in the bundle, or an entity the principal may touch (a pin
        on anything else is skipped, the same whether its target is another team's or
        missing)."""
        if pin.target_type == "observation":
            if any(o.id == pin.target_id for o in bundle.observations):
                return True
            target: AnyEntity | None = found(self._kd.get_observation, pin.target_id)
        else:
            if any(s.id == pin.target_id for s in bundle.summaries):
                return True
            target = found(self._kd.get_summary, pin.target_id)
        return target is not None and self.sees(target)

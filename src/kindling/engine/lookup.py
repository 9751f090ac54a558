"""``Kindling.describe``: one entity of any type by id, with the entities it links to.

It answers "what is this id?" for observations, capsules, summaries and pins, and gathers its
links: an observation's capsules and pins, a capsule's observations and summary, a summary's
capsule, evidence and pins, a pin's target. Ids are unique per table, not across tables; when
one id names several entities the first in that order is shown and the others are reported.
A view (``Kindling.view_for``) narrows what is shown to what its principal may see: an entity
its rule rejects is neither shown, nor linked, nor reported.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from kindling.engine.base import everything
from kindling.engine.reads import ReadVerbs
from kindling.errors import NotFoundError
from kindling.model import AnyEntity, Capsule, Observation, Summary, Visible
from kindling.model.reports import Described, EntityType


class LookupVerbs(ReadVerbs):
    """``describe``."""

    def describe(self, entity_id: str) -> Described:
        """The entity named ``entity_id`` with its links; ``NotFoundError`` if nothing has it."""
        return self._describe(entity_id, everything)

    def _describe(self, entity_id: str, visible: Visible) -> Described:
        """``describe`` among the entities ``visible`` accepts (a view's rule)."""
        found = self._find(entity_id, visible)
        if not found:
            raise NotFoundError(
                f"no observation, capsule, summary or pin has id {entity_id!r}; "
                "find ids with `kindling list` or `kindling search`"
            )
        kind, entity = found[0]
        also = tuple(t for t, _ in found[1:])
        store = self.store
        if isinstance(entity, Observation):
            caps = tuple(
                c
                for i in store.capsules_of(entity.id)
                if (c := store.get_capsule(i)) and visible(c)
            )
            pins = tuple(filter(visible, store.pins_for_target("observation", entity.id)))
            return Described(kind, entity, capsules=caps, pins=pins, also=also)
        if isinstance(entity, Capsule):
            obs = store.get_observations(entity.observation_ids)
            ordered = tuple(obs[i] for i in entity.observation_ids if i in obs and visible(obs[i]))
            summary = store.summary_for_capsule(entity.id)
            summary = summary if summary is not None and visible(summary) else None
            return Described(kind, entity, observations=ordered, summary=summary, also=also)
        if isinstance(entity, Summary):
            cap = store.get_capsule(entity.capsule_id)
            evidence = store.get_observations(entity.evidence_refs)
            return Described(
                kind,
                entity,
                capsules=(cap,) if cap and visible(cap) else (),
                observations=tuple(
                    evidence[i]
                    for i in entity.evidence_refs
                    if i in evidence and visible(evidence[i])
                ),
                pins=tuple(filter(visible, store.pins_for_target("summary", entity.id))),
                also=also,
            )
        target: Observation | Summary | None = (
            store.get_observations([entity.target_id]).get(entity.target_id)
            if entity.target_type == "observation"
            else store.get_summary(entity.target_id)
        )
        return Described(
            kind, entity, target=target if target and visible(target) else None, also=also
        )

    def _find(self, entity_id: str, visible: Visible) -> list[tuple[EntityType, AnyEntity]]:
        store = self.store
        found: list[tuple[EntityType, AnyEntity]] = []
        if obs := store.get_observations([entity_id]).get(entity_id):
            found.append(("observation", obs))
        if cap := store.get_capsule(entity_id):
            found.append(("capsule", cap))
        if summary := store.get_summary(entity_id):
            found.append(("summary", summary))
        if pin := store.get_pin(entity_id):
            found.append(("pin", pin))
        return [(t, e) for t, e in found if visible(e)]

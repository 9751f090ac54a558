"""Progressive disclosure: after ``retrieve()`` finds a hit, ``timeline()`` shows the steps
around it in its session and ``get_items()`` the whole items by id, under a token budget.

A view (``Kindling.view_for``) applies its principal's rule: what it rejects is neither shown
nor reported, so another team's id reads as unknown. The budget counts the kept texts with the
engine's tokenizer; a text that does not fit is cut at the longest prefix that does and ends
with ``model.disclosure.cut_marker``, so the reader knows what is missing and how to get it.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from kindling.engine.base import everything
from kindling.engine.reads import ReadVerbs
from kindling.errors import InvalidInputError, NotFoundError
from kindling.model import Capsule, Observation, Scope, Summary, Visible

if TYPE_CHECKING:  # the answers' values load with the first call (hooks never make one)
    from kindling.model.disclosure import Items, ItemType, Timeline

MAX_STEPS = 50  # each side of a timeline: a window, not the whole session (that is `list`)
MAX_ITEMS = 100  # ids in one get_items call


def _count(value: object, name: str, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise InvalidInputError(f"{name} must be a whole number from 0 to {most}")
    return value


def _text(entity: Observation | Summary | Capsule) -> str:
    return entity.intent if isinstance(entity, Capsule) else entity.content


def _with_text(
    entity: Observation | Summary | Capsule, text: str
) -> Observation | Summary | Capsule:
    if isinstance(entity, Capsule):
        return replace(entity, intent=text)
    return replace(entity, content=text)


class DisclosureVerbs(ReadVerbs):
    """``timeline`` and ``get_items``."""

    def timeline(
        self,
        anchor_id: str,
        *,
        before: int = 5,
        after: int = 5,
    ) -> Timeline:
        """The ``before`` steps (observations) before ``anchor_id`` in its session and the
        ``after`` steps after it, oldest first. The anchor is an observation, or a summary (a
        retrieve hit), placed at its creation time in its capsule's session."""
        return self._timeline(anchor_id, before, after, everything)

    def _timeline(self, anchor_id: str, before: int, after: int, visible: Visible) -> Timeline:
        """``timeline`` among the entities ``visible`` accepts (a view's rule)."""
        from kindling.model.disclosure import Timeline

        if not isinstance(anchor_id, str) or not anchor_id:
            raise InvalidInputError("the anchor id must be a non-empty string")
        before, after = _count(before, "before", MAX_STEPS), _count(after, "after", MAX_STEPS)
        store = self.store
        anchor: Observation | Summary | None
        obs = store.get_observations([anchor_id]).get(anchor_id)
        if obs is not None and visible(obs):
            anchor, scope, ts, pivot = obs, obs.scope, obs.ts, obs.id
        else:
            anchor = store.get_summary(anchor_id)
            capsule = None if anchor is None else store.get_capsule(anchor.capsule_id)
            if anchor is None or capsule is None or not visible(anchor):
                raise NotFoundError(
                    f"no observation or summary has id {anchor_id!r}; a timeline opens around"
                    " a search result's id"
                )
            scope, ts, pivot = capsule.scope, anchor.created_at, None
        where = Scope(session_id=scope.session_id) if scope.session_id else scope
        earlier, later = store.session_steps(
            where, ts=ts, obs_id=pivot, before=before + 1, after=after + 1
        )
        earlier = [o for o in earlier if visible(o)]
        later = [o for o in later if visible(o)]
        return Timeline(
            anchor=anchor,
            session_id=scope.session_id,
            before=tuple(earlier[-before:] if before else ()),
            after=tuple(later[:after]),
            more_before=len(earlier) > before,
            more_after=len(later) > after,
        )

    def get_items(
        self,
        ids: Sequence[str],
        *,
        token_budget: int | None = None,
    ) -> Items:
        """The observations, summaries and capsules named by ``ids``, whole, in the order
        asked (each id once), their texts cut where the running total passes
        ``token_budget``; ids that name nothing are reported in ``missing``. Ids are unique
        per table: one that names several is the observation, else the summary."""
        return self._get_items(ids, token_budget, everything)

    def _get_items(self, ids: Sequence[str], token_budget: int | None, visible: Visible) -> Items:
        """``get_items`` among the entities ``visible`` accepts (a view's rule)."""
        from kindling.model.disclosure import Item, Items, cut_marker

        if isinstance(ids, str) or not isinstance(ids, Sequence):
            raise InvalidInputError("ids must be a list of ids")
        if not ids or len(ids) > MAX_ITEMS:
            raise InvalidInputError(f"give from 1 to {MAX_ITEMS} ids")
        if not all(isinstance(i, str) and i for i in ids):
            raise InvalidInputError("every id must be a non-empty string")
        if token_budget is not None:
            token_budget = _count(token_budget, "token_budget", 10**9)
        wanted = list(dict.fromkeys(ids))
        store = self.store
        observations = store.get_observations(wanted)
        summaries = store.get_summaries([i for i in wanted if i not in observations])
        found: list[tuple[ItemType, Observation | Summary | Capsule]] = []
        missing: list[str] = []
        for item_id in wanted:
            entity: Observation | Summary | Capsule | None = observations.get(item_id)
            entity = entity or summaries.get(item_id) or store.get_capsule(item_id)
            if entity is None or not visible(entity):
                missing.append(item_id)
                continue
            kind: ItemType = (
                "observation"
                if isinstance(entity, Observation)
                else "summary"
                if isinstance(entity, Summary)
                else "capsule"
            )
            found.append((kind, entity))
        items: list[Item] = []
        used = 0
        for kind, whole in found:
            text = _text(whole)
            kept = self._fit(text, None if token_budget is None else token_budget - used)
            used += self.tokenizer.count(text[:kept])
            cut = len(text) - kept
            shown = text if not cut else text[:kept] + cut_marker(cut)
            items.append(Item(kind, _with_text(whole, shown), len(text), cut))
        return Items(tuple(items), tuple(missing), token_budget, used)

    def _fit(self, text: str, room: int | None) -> int:
        """How many leading characters of ``text`` fit in ``room`` tokens (all when None)."""
        count = self.tokenizer.count
        if room is None or count(text) <= room:
            return len(text)
        low, high = 0, len(text)  # count(text[:low]) <= room < count(text[:high])
        while high - low > 1:
            middle = (low + high) // 2
            if count(text[:middle]) <= room:
                low = middle
            else:
                high = middle
        return low

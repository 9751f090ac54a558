"""What the progressive-disclosure verbs answer: a hit's ``Timeline`` and ``Items`` by id.

Retrieval finds hits and shows snippets; ``Kindling.timeline`` opens the steps around one hit in
its session, and ``Kindling.get_items`` the whole items under a token budget, saying what was
cut. ``to_dict()`` is their wire form (camelCase, entities as seed 000's ``to_dict``).

Must not import anything from Kindling except ``model`` and ``errors``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from kindling.model.entities import Capsule, JsonObject, Observation, Summary

ItemType: TypeAlias = Literal["observation", "summary", "capsule"]
ITEM_TYPES: tuple[ItemType, ...] = ("observation", "summary", "capsule")


def step_type(entity: Observation | Summary) -> Literal["observation", "summary"]:
    return "observation" if isinstance(entity, Observation) else "summary"


@dataclass(frozen=True, slots=True)
class Timeline:
    """The steps around ``anchor`` (an observation, or a summary at its creation time), oldest
    first. ``session_id`` is the session they come from; None when the anchor has none (then
    the steps share the anchor's whole scope). ``more_before``/``more_after``: the session goes
    on beyond the steps shown."""

    anchor: Observation | Summary
    session_id: str | None
    before: tuple[Observation, ...]
    after: tuple[Observation, ...]
    more_before: bool
    more_after: bool

    @property
    def steps(self) -> tuple[Observation | Summary, ...]:
        return (*self.before, self.anchor, *self.after)

    def to_dict(self) -> JsonObject:
        return {
            "anchorId": self.anchor.id,
            "anchorType": step_type(self.anchor),
            "sessionId": self.session_id,
            "before": [o.to_dict() for o in self.before],
            "anchor": self.anchor.to_dict(),
            "after": [o.to_dict() for o in self.after],
            "moreBefore": self.more_before,
            "moreAfter": self.more_after,
        }


@dataclass(frozen=True, slots=True)
class Item:
    """One whole item, its text (an observation's or summary's content, a capsule's intent)
    cut to the budget: ``cut_chars`` characters were left out of ``total_chars``, and the text
    ends with ``cut_marker(cut_chars)`` when any were."""

    type: ItemType
    entity: Observation | Summary | Capsule
    total_chars: int
    cut_chars: int = 0

    def to_dict(self) -> JsonObject:
        return {
            "type": self.type,
            "entity": self.entity.to_dict(),
            "totalChars": self.total_chars,
            "cutChars": self.cut_chars,
        }


@dataclass(frozen=True, slots=True)
class Items:
    """The items asked for, in the order asked (each id once); ``missing`` the ids that name
    nothing (visible). ``tokens_used`` counts the texts kept, markers aside."""

    items: tuple[Item, ...]
    missing: tuple[str, ...]
    token_budget: int | None
    tokens_used: int

    @property
    def truncated(self) -> bool:
        return any(i.cut_chars for i in self.items)

    def to_dict(self) -> JsonObject:
        return {
            "items": [i.to_dict() for i in self.items],
            "missing": list(self.missing),
            "tokenBudget": self.token_budget,
            "tokensUsed": self.tokens_used,
            "truncated": self.truncated,
        }


def cut_marker(cut_chars: int) -> str:
    """What ends a text cut to the budget: how much is missing and how to see it."""
    return f"…[cut {cut_chars} characters: ask with a larger budget, or for this id alone]"

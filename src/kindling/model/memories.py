"""Chat memories (seed 002): the structured fields stored beside a summary.

Must not import anything from Kindling except ``errors`` and ``model``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias, get_args

from kindling.model.entities import Summary

SummaryStatus: TypeAlias = Literal["Active", "Superseded", "DecisionRecord"]
SUMMARY_STATUSES: tuple[SummaryStatus, ...] = get_args(SummaryStatus)


@dataclass(frozen=True, slots=True)
class SummaryDetails:
    """The structured fields of a chat memory, keyed by its summary's id.

    A summary without details is a "legacy" (plain-text) memory. At most one memory per
    (workspace, topic_id) is ``Active``: adding a newer Active one supersedes the others.
    """

    summary_id: str
    topic: str
    status: SummaryStatus
    created_at: int
    updated_at: int
    context: str | None = None
    topic_id: str | None = None
    plan_id: str | None = None
    session_id: str | None = None
    source_created_at: int | None = None
    decisions: tuple[str, ...] = ()
    rationale: tuple[str, ...] = ()
    open_questions: tuple[str, ...] = ()
    next_steps: tuple[str, ...] = ()
    references: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ChatMemoryFields:
    """What a caller gives for a structured memory; the store adds ids and times."""

    topic: str
    status: SummaryStatus = "Active"
    context: str | None = None
    topic_id: str | None = None
    plan_id: str | None = None
    session_id: str | None = None
    source_created_at: int | None = None
    decisions: tuple[str, ...] = ()
    rationale: tuple[str, ...] = ()
    open_questions: tuple[str, ...] = ()
    next_steps: tuple[str, ...] = ()
    references: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ChatMemory:
    """A workspace memory: its summary, its structured details (None for a legacy memory),
    and, when it was just written, the ids of the memories that write superseded."""

    workspace: str
    summary: Summary
    details: SummaryDetails | None
    superseded_ids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ChatMemoryMatch:
    """A memory whose text matches a query, and its text relevance in [0, 1] (the same value
    as the provider's ``explanation.relevance``; independent of the other matches)."""

    memory: ChatMemory
    relevance: float

"""The chat memories of ``Kindling`` (seed 002, the bridge): a memory is the summary of its own
closed capsule, scoped to its workspace, with structured details; one Active memory per topic.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import kindling.engine.validate as validate
from kindling.engine.base import EngineBase, everything
from kindling.errors import InvalidInputError
from kindling.model import Capsule, Scope, Summary, Visible
from kindling.model.sanitize import (
    MAX_LIMIT,
    new_id,
    require_id,
    require_limit,
    require_text,
    require_ts,
)
from kindling.secrets.privacy import scrub_details

if TYPE_CHECKING:  # the chat memories' values and checks load with the first memory verb
    from kindling.model import ChatMemory, ChatMemoryFields, ChatMemoryMatch, SummaryDetails


class MemoryVerbs(EngineBase):
    """Write and search chat memories."""

    def add_memory(
        self,
        workspace: str,
        content: str,
        fields: ChatMemoryFields | None = None,
        *,
        created_at: int | None = None,
        user_id: str | None = None,
    ) -> ChatMemory:
        """Store a memory of ``workspace`` (any stable name, e.g. a canonical directory path):
        a summary of its own closed capsule scoped to ``repo_id=workspace``, with structured
        ``fields`` (None: a legacy plain-text memory). An Active memory with a ``topic_id``
        marks the other Active memories of that topic in the workspace Superseded: the newest
        write wins. One transaction. ``created_at`` (default: now) is its time; ``user_id``
        whose it is (the server stamps the token's identity)."""
        from kindling.model import ChatMemory
        from kindling.model.memory_checks import check_memory_fields, memory_intent

        where = require_text(workspace, "workspace")
        text = validate.clean_text(content, "memory content", self.clean)
        checked = check_memory_fields(fields) if fields is not None else None
        now = require_ts(created_at, "created_at") if created_at is not None else self.clock()
        who = None if user_id is None else require_id(user_id, "user_id")
        summary_id = new_id()
        details = None if checked is None else _details(summary_id, checked, now)
        if details is not None and self.scrubs_secrets:
            details = scrub_details(details)  # each text once: the intent is made of these
        capsule = Capsule(
            id=new_id(),
            type="session",
            intent=memory_intent(details.topic if details else None, text),
            status="closed",
            opened_at=now,
            closed_at=now,
            scope=Scope(
                repo_id=where, session_id=checked.session_id if checked else None, user_id=who
            ),
        )
        summary = Summary(
            id=summary_id, capsule_id=capsule.id, content=text, confidence=0.5, created_at=now
        )
        superseded: tuple[str, ...] = ()
        with self.store.transaction():
            self.store.insert_capsule(capsule)
            self.store.upsert_summary(summary)
            if details is not None:
                self.store.insert_summary_details(details)
                if details.status == "Active" and details.topic_id is not None:
                    superseded = tuple(
                        self.store.supersede_active(
                            where, details.topic_id, keep_id=summary.id, updated_at=now
                        )
                    )
        return ChatMemory(where, summary, details, superseded)

    def search_memories(
        self,
        workspace: str,
        query: str,
        *,
        limit: int = MAX_LIMIT,
    ) -> list[ChatMemoryMatch]:
        """The memories of ``workspace`` (every summary scoped to it; those without details are
        legacy) whose text matches ``query``, by text relevance alone, best first."""
        return self._search_memories(workspace, query, limit, None, everything)

    def _search_memories(
        self, workspace: str, query: str, limit: int, user_id: str | None, visible: Visible
    ) -> list[ChatMemoryMatch]:
        """``search_memories`` narrowed by a view: ``user_id`` to one user's (before
        ``limit``), ``visible`` (its rule) to those it accepts."""
        where = require_text(workspace, "workspace")
        if not isinstance(query, str):
            raise InvalidInputError("query must be a string")
        from kindling.model import ChatMemory, ChatMemoryMatch
        from kindling.retrieval.relevance import summaries_by_relevance

        found = summaries_by_relevance(
            self.store,
            query,
            Scope(repo_id=where, user_id=None if user_id is None else require_id(user_id)),
            limit=require_limit(limit),
            weights=self.weights,
        )
        found = [f for f in found if visible(f.summary)]
        details = self.store.get_summary_details([f.summary.id for f in found])
        return [
            ChatMemoryMatch(ChatMemory(where, f.summary, details.get(f.summary.id)), f.relevance)
            for f in found
        ]


def _details(summary_id: str, fields: ChatMemoryFields, now: int) -> SummaryDetails:
    """What is stored of checked ``fields``: the same values, keyed by the summary."""
    from kindling.model import SummaryDetails

    return SummaryDetails(
        summary_id=summary_id,
        topic=fields.topic,
        status=fields.status,
        created_at=now,
        updated_at=now,
        context=fields.context,
        topic_id=fields.topic_id,
        plan_id=fields.plan_id,
        session_id=fields.session_id,
        source_created_at=fields.source_created_at,
        decisions=fields.decisions,
        rationale=fields.rationale,
        open_questions=fields.open_questions,
        next_steps=fields.next_steps,
        references=fields.references,
    )

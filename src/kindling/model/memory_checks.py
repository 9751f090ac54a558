"""Validate the structured fields of a chat memory before anything is written. Pure.

Every text is cleaned like captured content (``sanitize``); blank values and blank list items
are refused rather than stored, so a stored field is either meaningful or absent.

Must not import anything from Kindling except ``model`` and ``errors``.
"""

from __future__ import annotations

from collections.abc import Sequence

from kindling.errors import InvalidInputError
from kindling.model import SUMMARY_STATUSES, ChatMemoryFields
from kindling.model.sanitize import MAX_ID_CHARS, require_text, require_ts

MAX_INTENT_CHARS = 120
MAX_LIST_ITEMS = 1000
LIST_FIELDS = ("decisions", "rationale", "open_questions", "next_steps", "references")


def _optional_text(value: object, name: str) -> str | None:
    return None if value is None else require_text(value, name).strip()


def _optional_id(value: object, name: str) -> str | None:
    if value is None:
        return None
    text = require_text(value, name).strip()
    if len(text) > MAX_ID_CHARS:
        raise InvalidInputError(f"{name} must be at most {MAX_ID_CHARS} characters")
    return text


def _items(value: object, name: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise InvalidInputError(f"{name} must be a list of strings")
    if len(value) > MAX_LIST_ITEMS:
        raise InvalidInputError(f"{name} has more than {MAX_LIST_ITEMS} items")
    return tuple(require_text(item, f"{name}[{i}]").strip() for i, item in enumerate(value))


def check_memory_fields(fields: ChatMemoryFields) -> ChatMemoryFields:
    """The same fields, cleaned and checked; raises ``InvalidInputError`` on a bad value."""
    if not isinstance(fields, ChatMemoryFields):
        raise InvalidInputError("fields must be a kindling.model.ChatMemoryFields")
    if fields.status not in SUMMARY_STATUSES:
        raise InvalidInputError(
            f"invalid status {fields.status!r}; use one of: {', '.join(SUMMARY_STATUSES)}"
        )
    return ChatMemoryFields(
        topic=require_text(fields.topic, "topic").strip(),
        status=fields.status,
        context=_optional_text(fields.context, "context"),
        topic_id=_optional_id(fields.topic_id, "topic_id"),
        plan_id=_optional_id(fields.plan_id, "plan_id"),
        session_id=_optional_id(fields.session_id, "session_id"),
        source_created_at=(
            None
            if fields.source_created_at is None
            else require_ts(fields.source_created_at, "source_created_at")
        ),
        decisions=_items(fields.decisions, "decisions"),
        rationale=_items(fields.rationale, "rationale"),
        open_questions=_items(fields.open_questions, "open_questions"),
        next_steps=_items(fields.next_steps, "next_steps"),
        references=_items(fields.references, "references"),
    )


def memory_intent(topic: str | None, content: str) -> str:
    """The capsule intent of a memory: its topic, else the first non-blank line of its text."""
    head = topic or next(line for line in content.splitlines() if line.strip())
    head = head.strip()
    return head if len(head) <= MAX_INTENT_CHARS else head[: MAX_INTENT_CHARS - 1] + "…"

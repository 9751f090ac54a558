"""The bridge's output: the summary template and the response objects of seed 002. Pure.

Key order is fixed (dicts keep insertion order), so the same inputs print the same bytes.

Must not import anything from Kindling except ``model``, ``errors`` and ``bridge``.
"""

from __future__ import annotations

from typing import Any

from kindling.bridge.contract import format_iso8601
from kindling.bridge.ranking import Scored
from kindling.errors import KindlingError
from kindling.model import ChatMemory, ChatMemoryFields, SummaryDetails

_SECTIONS = (
    ("Decisions", "decisions"),
    ("Rationale", "rationale"),
    ("Open Questions", "open_questions"),
    ("Next Steps", "next_steps"),
    ("References", "references"),
)
LIST_KEYS = tuple(key for _, key in _SECTIONS)


def _line(text: str) -> str:
    """Continuation lines of a multi-line value are indented so the template stays parseable."""
    return "\n  ".join(text.splitlines()) if text else text


def summary_text(fields: ChatMemoryFields) -> str:
    """The seed's template: "Summary: <topic>", Topic, Context, then each list as "- item"
    (an empty list as "- None", as in the seed's example)."""
    lines = [
        f"Summary: {_line(fields.topic)}",
        "",
        f"Topic: {_line(fields.topic)}",
        f"Context: {_line(fields.context) if fields.context else 'None'}",
    ]
    for title, key in _SECTIONS:
        items: tuple[str, ...] = getattr(fields, key)
        lines.append(f"{title}:")
        lines.extend(f"- {_line(item)}" for item in items or ("None",))
    return "\n".join(lines)


def _time(ms: int | None) -> str | None:
    return None if ms is None else format_iso8601(ms)


def result_object(hit: Scored) -> dict[str, Any]:
    details: SummaryDetails | None = hit.match.memory.details
    result: dict[str, Any] = {
        "id": hit.match.memory.summary.id,
        "summary_text": hit.match.memory.summary.content,
        "score": hit.score,
        "final_score": hit.score,
        "relevance_score": hit.score,
        "semantic_score": hit.text_relevance,  # seed 002 wire name
        "recency_multiplier": hit.recency,
        "status_multiplier": hit.status,
        "tokens": hit.tokens,
        "topic": details.topic if details else None,
        "topic_id": details.topic_id if details else None,
        "plan_id": details.plan_id if details else None,
        "session_id": details.session_id if details else None,
        "status": details.status if details else None,
        "source_created_at": _time(details.source_created_at) if details else None,
        "created_at": _time(details.created_at) if details else None,
        "updated_at": _time(details.updated_at) if details else None,
    }
    if details is not None:
        for key in LIST_KEYS:
            result[key] = list(getattr(details, key))
    return result


def retrieve_response(
    hits: list[Scored],
    *,
    total_results: int,
    half_life_days: float,
    include_superseded: bool,
) -> dict[str, Any]:
    return {
        "success": True,
        "results": [result_object(h) for h in hits],
        "result_count": len(hits),
        "total_results": total_results,
        "total_tokens": sum(h.tokens for h in hits),
        "half_life_days": half_life_days,
        "include_superseded": include_superseded,
    }


def ingest_response(memory: ChatMemory) -> dict[str, Any]:
    return {
        "success": True,
        "id": memory.summary.id,
        "status": memory.details.status if memory.details else None,
        "superseded": list(memory.superseded_ids),
    }


def error_response(error: KindlingError) -> dict[str, Any]:
    return {
        "success": False,
        "error": error.message,
        "code": error.code,
        "results": [],
        "total_results": 0,
        "total_tokens": 0,
    }

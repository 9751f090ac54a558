"""What ``retrieve()``, ``timeline()`` and ``get_items()`` answer, read back from the wire.

Must not import anything from Kindling except ``model`` and ``errors``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kindling.model.checks import require_choice
from kindling.model.entities import QUERY_MODES, Scope
from kindling.model.wire.base import (
    Data,
    capsule,
    entity,
    get,
    int_of,
    listed,
    many,
    observation,
    pin,
    summary,
)

if TYPE_CHECKING:
    from kindling.model.disclosure import Items, Timeline
    from kindling.model.results import Explanation, RetrieveResult


# ---------------------------------------------------------------------------- retrieve


def explanation(e: Data, w: str = "explanation") -> Explanation:
    from kindling.model.results import Explanation

    signals = get(e, "signals", w, optional=True) or {}
    return Explanation(
        relevance=float(get(e, "relevance", w)),
        bm25=None if e.get("bm25") is None else float(e["bm25"]),
        recency=float(get(e, "recency", w)),
        age_ms=int_of(get(e, "ageMs", w), "ageMs"),
        scope=float(get(e, "scope", w)),
        intent=float(get(e, "intent", w)),
        confidence=float(get(e, "confidence", w)),
        source=float(get(e, "source", w)),
        score=float(get(e, "score", w)),
        matched_terms=tuple(str(t) for t in listed(e, "matchedTerms", w)),
        why=str(get(e, "why", w)),
        context_only=bool(get(e, "contextOnly", w)),
        need=e.get("need"),
        signals={str(k): float(v) for k, v in signals.items()},
    )


def retrieve_result(data: Data, w: str = "retrieve") -> RetrieveResult:
    from kindling.model.results import (
        CandidateResult,
        PinResult,
        RetrieveProvenance,
        RetrieveResult,
    )

    p = get(data, "provenance", w)
    current = data.get("currentSummary")
    budget = p.get("tokenBudget")
    return RetrieveResult(
        pins=tuple(
            PinResult(pin(x["pin"]), entity(x["pin"]["targetType"], x["target"]))
            for x in listed(data, "pins", w)
        ),
        current_summary=None if current is None else summary(current, "currentSummary"),
        candidates=tuple(
            CandidateResult(
                entity=entity(c["targetType"], c["entity"]),
                score=float(c["score"]),
                match_context=c.get("matchContext"),
                explanation=explanation(c["explanation"]),
            )
            for c in listed(data, "candidates", w)
        ),
        provenance=RetrieveProvenance(
            query=str(get(p, "query", w, optional=True) or ""),
            scope=Scope.from_dict(p.get("scopeIds")),
            total_candidates=int_of(get(p, "totalCandidates", w), "totalCandidates"),
            returned_candidates=int_of(get(p, "returnedCandidates", w), "returnedCandidates"),
            truncated_due_to_token_budget=bool(get(p, "truncatedDueToTokenBudget", w)),
            provider_used=str(get(p, "providerUsed", w)),
            query_mode=require_choice(get(p, "queryMode", w), QUERY_MODES, "queryMode"),
            fts_query=p.get("ftsQuery"),
            token_budget=None if budget is None else int_of(budget, "tokenBudget"),
            tokens_used=int_of(get(p, "tokensUsed", w), "tokensUsed"),
            now=p.get("now"),
            dropped_terms=tuple(str(t) for t in listed(p, "droppedTerms", w)),
            phrase_fallback=tuple(str(t) for t in listed(p, "phraseFallback", w)),
        ),
    )


# ---------------------------------------------------------------------------- disclosure


def timeline(d: Data, w: str = "timeline") -> Timeline:
    from kindling.model.disclosure import Timeline

    return Timeline(
        anchor=entity(get(d, "anchorType", w), get(d, "anchor", w), "anchor"),
        session_id=d.get("sessionId"),
        before=many(listed(d, "before", w), observation, "before"),
        after=many(listed(d, "after", w), observation, "after"),
        more_before=bool(get(d, "moreBefore", w)),
        more_after=bool(get(d, "moreAfter", w)),
    )


def items(d: Data, w: str = "items") -> Items:
    from kindling.model.disclosure import ITEM_TYPES, Item, Items

    readers: dict[str, Callable[[Data, str], Any]] = {
        "observation": observation,
        "summary": summary,
        "capsule": capsule,
    }
    found = []
    for i, item in enumerate(listed(d, "items", w)):
        kind = require_choice(get(item, "type", w), ITEM_TYPES, "item type")
        whole = readers[kind](get(item, "entity", w), f"{w}[{i}]")
        total, cut = int_of(item["totalChars"], "totalChars"), int_of(item["cutChars"], "cutChars")
        found.append(Item(kind, whole, total, cut))
    budget = d.get("tokenBudget")
    return Items(
        items=tuple(found),
        missing=tuple(str(m) for m in listed(d, "missing", w)),
        token_budget=None if budget is None else int_of(budget, "tokenBudget"),
        tokens_used=int_of(get(d, "tokensUsed", w), "tokensUsed"),
    )

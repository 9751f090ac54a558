"""The MCP tools that open a hit: ``timeline`` (the steps around it in its session) and
``get`` (whole items by id under a token budget). ``retrieve`` stays compact; these are the
second and third layers an agent reaches for when a snippet is not enough.

``timeline`` answers like ``recent`` (id, kind, age, path, one-line snippet), the anchor
marked; ``get`` answers the whole text, cut where the budget runs out with a marker that says
how many characters are missing (``cutChars``, and the ids in ``cut``). One ``Kindling`` call
each (``Kindling.timeline``, ``Kindling.get_items``), locally or in remote mode.

Adapter: must not be imported by the core.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Annotated, Any

from mcp.types import CallToolResult
from pydantic import Field

import kindling.mcp.render as render
from kindling.errors import KindlingError
from kindling.mcp.schemas import age
from kindling.model import Capsule, Item, Observation, Summary

if TYPE_CHECKING:
    from kindling.memory import Memory

MAX_STEPS = 50
MAX_IDS = 100
GET_BUDGET = 4000  # tokens: a few whole tool outputs, still far below a context window


def _step(entity: Observation | Summary, now: int, anchor: bool) -> dict[str, Any]:
    step = render.brief(entity, now)
    step.pop("session", None)  # the timeline's own
    step["snippet"] = render.line(entity.content)
    if anchor:
        step["anchor"] = True
    return step


def _item(item: Item, now: int) -> dict[str, Any]:
    e = item.entity
    out: dict[str, Any]
    if isinstance(e, Capsule):
        out = {"id": e.id, "type": "capsule", "kind": "capsule", "age": age(e.opened_at, now)}
        if e.scope.session_id:
            out["session"] = e.scope.session_id
        out.update(content=e.intent, status=e.status, observationIds=list(e.observation_ids))
        if e.summary_id:
            out["summaryId"] = e.summary_id
    else:
        out = {**render.brief(e, now), "type": item.type, "content": e.content}
        if isinstance(e, Observation):
            out["provenance"] = e.provenance
            if e.redacted:
                out["redacted"] = True
        else:
            out.update(
                capsuleId=e.capsule_id,
                confidence=e.confidence,
                evidenceRefs=list(e.evidence_refs),
            )
    out.update(totalChars=item.total_chars, cutChars=item.cut_chars)
    return out


class DisclosureTools:
    """Mixed into ``tools.KindlingTools``, which opens the database (``_kd``)."""

    if TYPE_CHECKING:

        def _kd(self) -> AbstractContextManager[Memory]: ...

    def timeline(
        self,
        id: Annotated[
            str, Field(description="Id of an observation or summary (a retrieve result's id).")
        ],
        before: Annotated[
            int, Field(description="Steps to show before it.", ge=0, le=MAX_STEPS)
        ] = 5,
        after: Annotated[int, Field(description="Steps to show after it.", ge=0, le=MAX_STEPS)] = 5,
    ) -> CallToolResult:
        """What happened around a hit: the steps just before and after it in its session,
        oldest first, the hit marked `anchor`. `moreBefore`/`moreAfter` say the session goes
        on. Open whole items with `get`."""
        with self._kd() as kd:
            try:
                found = kd.timeline(id, before=before, after=after)
            except KindlingError as exc:
                raise render.fail(exc) from None
            now = kd.clock()
        data: dict[str, Any] = {"anchor": found.anchor.id}
        if found.session_id:
            data["session"] = found.session_id
        data["steps"] = [_step(s, now, s is found.anchor) for s in found.steps]
        data.update(moreBefore=found.more_before, moreAfter=found.more_after)
        return render.result(data)

    def get(
        self,
        ids: Annotated[
            list[str],
            Field(
                description="Ids of observations, summaries or capsules (from retrieve, "
                "timeline or recent).",
                min_length=1,
                max_length=MAX_IDS,
            ),
        ],
        token_budget: Annotated[
            int,
            Field(description="Cap on the tokens of the texts (4 chars a token).", ge=0),
        ] = GET_BUDGET,
    ) -> CallToolResult:
        """The whole items by id, in the order given: full content, provenance, links. Texts
        past the token budget are cut with a marker; `cutChars` says how much of each is
        missing and `cut` lists those ids (get one alone, or raise token_budget). Unknown ids
        are listed in `missing`."""
        with self._kd() as kd:
            try:
                found = kd.get_items(ids, token_budget=token_budget)
            except KindlingError as exc:
                raise render.fail(exc) from None
            now = kd.clock()
        return render.result(
            {
                "items": [_item(i, now) for i in found.items],
                "missing": list(found.missing),
                "tokensUsed": found.tokens_used,
                "truncated": found.truncated,
                "cut": [i.entity.id for i in found.items if i.cut_chars],
            }
        )


__all__ = ["DisclosureTools"]

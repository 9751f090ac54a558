"""The search page: a scope's pins and current summary, then the hits with their score,
snippet and every factor of the explanation; context-only matches are marked. One
``retrieve`` call; the page ranks nothing.

Must not import the CLI or other adapters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kindling.model import Scope
from kindling.ui.markup import Markup, tag
from kindling.ui.pages import Ctx, explanation, layout, link, pin_row, scope_line, summary_block
from kindling.ui.source import Source
from kindling.ui.views import choose_repo, whole

HITS = 20  # search hits per page (``more`` adds as many)
MAX_HITS = 200


async def search(src: Source, ctx: Ctx, params: Mapping[str, str]) -> Markup:
    query = params.get("q", "")
    scope = Scope(repo_id=params.get("repo") or None, session_id=params.get("session") or None)
    count = whole(params, "n", HITS, MAX_HITS)
    form = tag(
        "form",
        {"method": "get", "action": ctx.url("/search"), "class": "searchform"},
        tag("input", {"type": "search", "name": "q", "value": query, "placeholder": "words"}),
        tag(
            "input",
            {
                "type": "text",
                "name": "repo",
                "value": scope.repo_id or "",
                "placeholder": "repository (all)",
            },
        ),
        tag(
            "input",
            {
                "type": "text",
                "name": "session",
                "value": scope.session_id or "",
                "placeholder": "session (all)",
            },
        ),
        tag("button", {"type": "submit"}, "Search"),
    )
    if not query.strip():
        return layout(ctx, "Search", form)
    if src.needs_repo and scope.repo_id is None:
        return await choose_repo(src, ctx, "/search", params)
    found = await src.run(lambda: src.search(query, scope, count))
    prov = found["provenance"]
    hits = [_hit(ctx, c) for c in found["candidates"]]
    pins = [pin_row(ctx, p["pin"]) for p in found["pins"]]
    more = (
        tag(
            "p",
            {"class": "pager"},
            link(
                ctx,
                "more results →",
                "/search",
                q=query,
                repo=scope.repo_id,
                session=scope.session_id,
                n=min(count + HITS, MAX_HITS),
            ),
        )
        if prov["totalCandidates"] > len(hits) and count < MAX_HITS
        else ""
    )
    return layout(
        ctx,
        "Search",
        form,
        tag(
            "p",
            {"class": "muted"},
            f"{prov['returnedCandidates']} of {prov['totalCandidates']} candidates · "
            f"mode {prov['queryMode']} · provider {prov['providerUsed']}",
            f" · dropped: {', '.join(prov['droppedTerms'])}" if prov["droppedTerms"] else "",
        ),
        tag("h2", None, "Pinned in scope") if pins else "",
        tag("ul", None, *pins) if pins else "",
        summary_block(ctx, found.get("currentSummary")),
        tag("h2", None, "Hits"),
        tag("ol", {"class": "hits"}, *hits) if hits else tag("p", {"class": "muted"}, "no match"),
        more,
    )


def _hit(ctx: Ctx, cand: Mapping[str, Any]) -> Markup:
    exp = cand["explanation"]
    entity = cand["entity"]
    context = (
        tag("span", {"class": "badge context"}, "context-only match")
        if exp.get("contextOnly")
        else ""
    )
    head = tag(
        "div",
        {"class": "head"},
        tag("span", {"class": "score"}, f"{cand['score']:.3f}"),
        tag("span", {"class": "kind"}, cand["targetType"]),
        context,
        link(ctx, entity["id"], "/item", id=entity["id"]),
        scope_line(ctx, entity.get("scopeIds") or {}),
    )
    snippet = cand.get("matchContext") or str(entity.get("content", ""))[:300]
    return tag(
        "li", {"class": "hit"}, head, tag("pre", {"class": "snippet"}, snippet), explanation(exp)
    )

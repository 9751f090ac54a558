"""Human rendering of a retrieval: the three tiers, each with its provenance.

Used by ``kindling search`` and ``kindling demo``. Long content is shortened to one line; with
``explain`` each candidate also shows every factor of its score (see ``docs/ranking.md``).

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

import kindling.cli.render as render
from kindling.model import CandidateResult, Entity, Observation, RetrieveResult

INDENT = "    "


def _label(entity: Entity) -> str:
    return entity.kind if isinstance(entity, Observation) else "summary"


def _ts(entity: Entity) -> int:
    return entity.ts if isinstance(entity, Observation) else entity.created_at


def _factors(c: CandidateResult) -> str:
    """Every named value of the score (``explanation.signals``), generically."""
    e = c.explanation
    head = "no text query" if e.bm25 is None else f"relevance {e.relevance:.3f}, bm25 {e.bm25:.2f}"
    if e.need is not None:
        head += f", asks for {e.need}"
    named = " · ".join(f"{name} {value:.2f}" for name, value in e.signals.items())
    return " · ".join(part for part in (head, named, f"source {e.source:.2f}") if part)


def render_result(
    result: RetrieveResult, *, now: int, explain: bool = False, show_ids: bool = True
) -> str:
    """The result as aligned, readable text (colour is dropped off a terminal by ``echo``)."""
    width = render.terminal_width()
    text_width = width - len(INDENT)
    lines: list[str] = []
    if result.pins:
        lines.append(render.heading(f"Pinned ({len(result.pins)})"))
        for p in result.pins:
            head = f"  {_label(p.target):<9} {render.relative(_ts(p.target), now):<11}"
            if show_ids:
                head += " " + render.dim(p.target.id)
            lines.append(head.rstrip())
            lines.append(INDENT + render.one_line(p.target.content, text_width))
            reason = f"reason: {p.pin.reason}" if p.pin.reason else "no reason given"
            expiry = (
                f"; expires {render.relative(p.pin.expires_at, now)}"
                if p.pin.expires_at is not None
                else ""
            )
            lines.append(INDENT + render.dim(f"pinned {render.relative(p.pin.created_at, now)}"))
            lines[-1] += render.dim(f", {reason}{expiry}")
    if result.current_summary is not None:
        s = result.current_summary
        if lines:
            lines.append("")
        lines.append(render.heading("Current work (summary of the open capsule)"))
        head = f"  confidence {s.confidence:.2f}, {render.relative(s.created_at, now)}"
        lines.append(head + (" " + render.dim(s.id) if show_ids else ""))
        lines.append(INDENT + render.one_line(s.content, text_width))
    if lines:
        lines.append("")
    prov = result.provenance
    shown = f"{prov.returned_candidates} of {prov.total_candidates}"
    lines.append(render.heading(f"Candidates ({shown})"))
    if not result.candidates:
        lines.append(INDENT + render.dim("no matches in this scope"))
    for rank, c in enumerate(result.candidates, 1):
        head = (
            f"{rank:>3}  {render.score(c.score)}  {_label(c.entity):<9} "
            f"{render.relative(_ts(c.entity), now):<11}"
        )
        lines.append((head + (" " + render.dim(c.entity.id) if show_ids else "")).rstrip())
        lines.append(INDENT + render.one_line(c.match_context or c.entity.content, text_width))
        lines.append(INDENT + render.dim(f"why: {c.explanation.why}"))
        if explain:
            lines.append(INDENT + render.dim(_factors(c)))
    tail = f"{prov.provider_used}, query mode {prov.query_mode}"
    if prov.fts_query:
        tail += f", fts {prov.fts_query}"
    if prov.token_budget is not None:
        tail += f", {prov.tokens_used}/{prov.token_budget} tokens"
        if prov.truncated_due_to_token_budget:
            tail += " (cut to budget)"
    lines.append(render.dim(tail))
    return "\n".join(lines)

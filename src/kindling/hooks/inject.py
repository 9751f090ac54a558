"""Build the context a hook injects into the agent, from one ``Kindling.retrieve()`` call
(and, at session start, the repository's latest edits and errors).

Order: active pins, the latest summary for this repository, then the candidates (for a prompt:
those whose text relevance clears ``min_relevance``; at session start: recent work). Noise is
left out and the rest is ordered edits, errors, decisions, checks, other work by the rules of
``inject_filter`` (retrieval's order within each), so the budget goes to the session's edits.
Everything is deduplicated (by id and by identical text), each item is one bounded line, and
the whole text stays within the token budget and always under Claude Code's 10,000-character
limit. When nothing qualifies the result is ``None``, and the hook prints nothing at all.

Must not import click, the CLI or the MCP server. No scoring here: scores come from
``retrieve()``; this module only selects by threshold and by kind, renders and cuts.
"""

from __future__ import annotations

from dataclasses import dataclass

from kindling.hooks.config import HookConfig
from kindling.hooks.inject_filter import one_line, render, tier
from kindling.memory import Memory
from kindling.model import RELEVANCE_THRESHOLD, Entity, Observation, ObservationKind, Scope, Summary

# Claude Code caps additionalContext at 10,000 characters; stay clearly below it.
HARD_CHAR_LIMIT = 9_000
ITEM_CHARS = 600  # one pin or summary never takes more than this
# "Recent work" at session start leaves out routine tool calls (reads, searches, fetches):
# they are most of a session's events and its noise; what they led to shows up as edits,
# commands, errors and prompts. A prompt-driven injection keeps them when they are relevant.
SESSION_START_SKIP = frozenset({"tool_call"})
# At session start edits and errors are read by kind too: a long session's last hundred events
# can be routine, and its edits must not fall out of the recency window.
SESSION_START_KINDS: tuple[ObservationKind, ...] = ("file_diff", "error")
HEADER = (
    "Kindling memory for this repository"
    " (recorded by earlier sessions; verify before relying on it):"
)


@dataclass(frozen=True, slots=True)
class Injection:
    text: str
    items: int


def _label(entity: Entity) -> str:
    if isinstance(entity, Summary):
        return "summary"
    return entity.kind


def _key(text: str) -> str:
    return " ".join(text.split()).casefold()


class _Builder:
    def __init__(self, kd: Memory, budget_tokens: int) -> None:
        self.kd = kd
        self.budget = budget_tokens
        self.lines: list[str] = []
        self.ids: set[str] = set()
        self.texts: set[str] = set()
        self.used = kd.tokenizer.count(HEADER)
        self.chars = len(HEADER)

    def add(self, entity_id: str, line: str, key_text: str) -> bool:
        """Add a line unless it repeats something shown; False when the budget is spent."""
        key = _key(key_text)
        if entity_id in self.ids or key in self.texts:
            return True
        cost = self.kd.tokenizer.count(line) + 1
        if self.used + cost > self.budget or self.chars + len(line) + 1 > HARD_CHAR_LIMIT:
            return False
        self.ids.add(entity_id)
        self.texts.add(key)
        self.lines.append(line)
        self.used += cost
        self.chars += len(line) + 1
        return True


def _tier(entity: Entity) -> int | None:
    provenance = entity.provenance if isinstance(entity, Observation) else None
    return tier(_label(entity), entity.content, provenance)


def _where(entity: Entity, repo: str) -> str:
    """`` path:`` for an observation of a file whose line would not name it."""
    path = entity.provenance.get("path") if isinstance(entity, Observation) else None
    if not isinstance(path, str) or not path:
        return ""
    prefix = repo.rstrip("/") + "/"
    rel = path[len(prefix) :] if path.startswith(prefix) else path
    return "" if rel in entity.content[:200] else f" {rel}:"


def build_context(
    kd: Memory, *, repo: str, query: str, cfg: HookConfig, with_pins: bool = True
) -> Injection | None:
    """Context for ``repo``. ``query`` empty = session start (recent work, no threshold)."""
    scope = Scope(repo_id=repo)
    # At session start, look further down the recency list: routine tool calls are skipped.
    wanted = cfg.max_candidates if query else cfg.max_candidates * 8
    result = kd.retrieve(query, scope=scope, max_candidates=wanted)
    b = _Builder(kd, cfg.budget_tokens)
    if query:
        b.texts.add(_key(query))  # the same question asked before is not an answer to it
    fixed = 0
    if with_pins:
        for pin in result.pins:
            reason = f" ({one_line(pin.pin.reason, 80)})" if pin.pin.reason else ""
            line = f"- [pinned{reason}] {one_line(pin.target.content, ITEM_CHARS)}"
            if b.add(pin.target.id, line, pin.target.content):
                fixed += 1
        summaries: list[Summary] = []
        if result.current_summary is not None:
            summaries.append(result.current_summary)
        summaries += kd.list_summaries(scope=scope, limit=1)
        for summary in summaries[:1]:
            line = f"- [latest session summary] {one_line(summary.content, ITEM_CHARS)}"
            if b.add(summary.id, line, summary.content):
                fixed += 1
    # (tier, position, entity, matched snippet): retrieval's candidates, then at session start
    # the latest edits and errors by kind; noise never enters.
    chosen: list[tuple[int, int, Entity, str | None]] = []
    cut = RELEVANCE_THRESHOLD if cfg.min_relevance is None else cfg.min_relevance
    for cand in result.candidates:
        if query and cand.explanation.relevance < cut:
            continue
        if not query and _label(cand.entity) in SESSION_START_SKIP:
            continue
        rank = _tier(cand.entity)
        if rank is not None:
            chosen.append((rank, len(chosen), cand.entity, cand.match_context if query else None))
    if not query:
        for kind in SESSION_START_KINDS:
            for obs in kd.list_observations(kind=kind, scope=scope, limit=cfg.max_candidates):
                if not obs.redacted and (rank := _tier(obs)) is not None:
                    chosen.append((rank, len(chosen), obs, None))
    chosen.sort(key=lambda item: item[:2])
    # At session start nothing is ranked against a question: the budget, not a count, bounds it.
    limit = cfg.max_candidates if query else cfg.max_candidates * 2
    found = 0
    for _, _, entity, snippet in chosen:
        if found >= limit:
            break
        label = _label(entity)
        line = f"- [{label}]{_where(entity, repo)} {render(label, entity.content, snippet)}"
        shown = len(b.lines)
        b.add(entity.id, line, entity.content)  # over budget: a shorter line may still fit
        found += len(b.lines) - shown
    if not b.lines or (query and found == 0):
        return None
    return Injection("\n".join([HEADER, *b.lines]), len(b.lines))

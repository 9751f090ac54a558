"""Build the context a hook injects into the agent, from one ``Kindling.retrieve()`` call.

Order: active pins, the latest summary for this repository, then the ranked candidates (for a
prompt: those whose text relevance clears ``min_relevance``; at session start: recent work).
Everything is deduplicated (by id and by identical text), each item is a bounded snippet, and
the whole text stays within the token budget and always under Claude Code's 10,000-character
limit. When nothing qualifies the result is ``None``, and the hook prints nothing at all.

Must not import click, the CLI or the MCP server. No ranking here: order and scores come from
``retrieve()``; this module only selects by threshold, renders and cuts.
"""

from __future__ import annotations

from dataclasses import dataclass

from kindling.engine import Kindling
from kindling.hooks.config import HookConfig
from kindling.model import RELEVANCE_THRESHOLD, Entity, Observation, Scope, Summary

# Claude Code caps additionalContext at 10,000 characters; stay clearly below it.
HARD_CHAR_LIMIT = 9_000
ITEM_CHARS = 600  # one pin or summary never takes more than this
# "Recent work" at session start leaves out routine tool calls (reads, searches, fetches):
# they are most of a session's events and its noise; what they led to shows up as edits,
# commands, errors and prompts. A prompt-driven injection keeps them when they are relevant.
SESSION_START_SKIP = frozenset({"tool_call"})
HEADER = (
    "Kindling memory for this repository"
    " (recorded by earlier sessions; verify before relying on it):"
)


@dataclass(frozen=True, slots=True)
class Injection:
    text: str
    items: int


def _one_line(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _label(entity: Entity) -> str:
    if isinstance(entity, Summary):
        return "summary"
    return entity.kind


def _key(text: str) -> str:
    return " ".join(text.split()).casefold()


class _Builder:
    def __init__(self, kd: Kindling, budget_tokens: int) -> None:
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


def build_context(
    kd: Kindling, *, repo: str, query: str, cfg: HookConfig, with_pins: bool = True
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
            reason = f" ({_one_line(pin.pin.reason, 80)})" if pin.pin.reason else ""
            line = f"- [pinned{reason}] {_one_line(pin.target.content, ITEM_CHARS)}"
            if b.add(pin.target.id, line, pin.target.content):
                fixed += 1
        summaries: list[Summary] = []
        if result.current_summary is not None:
            summaries.append(result.current_summary)
        summaries += kd.list_summaries(scope=scope, limit=1)
        for summary in summaries[:1]:
            line = f"- [latest session summary] {_one_line(summary.content, ITEM_CHARS)}"
            if b.add(summary.id, line, summary.content):
                fixed += 1
    found = 0
    cut = RELEVANCE_THRESHOLD if cfg.min_relevance is None else cfg.min_relevance
    for cand in result.candidates:
        if query and cand.explanation.relevance < cut:
            continue
        if not query and _label(cand.entity) in SESSION_START_SKIP:
            continue
        if found >= cfg.max_candidates:
            break
        snippet = cand.match_context or cand.entity.content
        where = ""
        path = cand.entity.provenance.get("path") if isinstance(cand.entity, Observation) else None
        if isinstance(path, str) and path:
            prefix = repo.rstrip("/") + "/"
            rel = path[len(prefix) :] if path.startswith(prefix) else path
            where = "" if rel in snippet[:200] else f" {rel}:"
        line = f"- [{_label(cand.entity)}]{where} {_one_line(snippet, 300)}"
        if not b.add(cand.entity.id, line, cand.entity.content):
            break
        found += 1
    if not b.lines or (query and found == 0):
        return None
    return Injection("\n".join([HEADER, *b.lines]), len(b.lines))

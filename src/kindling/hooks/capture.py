"""What a hook event leaves in the spool: the records that ``capture.spool.drain`` applies.

- PostToolUse, PostToolUseFailure, UserPromptSubmit, SubagentStop, PostCompact: one
  observation (see ``mapping``), with its id and time fixed now, so replaying it is harmless.
- Stop, StopFailure, PreCompact: the session's summary so far, from the last assistant message
  (StopFailure ends a turn that an API error cut short; the work before it still counts).
- SessionEnd: close the session's capsule, with the last assistant message as its summary
  (the summary Stop saved after the last turn is kept when only the transcript is there).
- SessionStart: nothing to record (the hook opens the capsule and injects context).

Must not import click, the CLI, the MCP server or the engine: this runs in every hook process.
"""

from __future__ import annotations

import os

from kindling.capture.ids import new_id, wall_clock_ms
from kindling.capture.scrub import collect_found, take_found
from kindling.capture.spool import session_memory, spool_dir, write_record
from kindling.hooks.config import HookConfig
from kindling.hooks.mapping import bound, masked, to_draft
from kindling.hooks.payload import HookPayload, last_assistant_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SUMMARY_CONFIDENCE = 0.4  # the agent's own last words: useful, unverified
SUMMARY_CHARS = 4000
SUMMARY_EVENTS = ("Stop", "StopFailure", "PreCompact")


def session_intent(repo: str) -> str:
    return f"Claude Code session in {os.path.basename(repo.rstrip('/')) or repo}"


def _summary_text(p: HookPayload) -> str | None:
    text = p.last_assistant_message or last_assistant_text(p.transcript_path)
    if not text or not text.strip():
        return None
    return bound(masked(text.strip(), {}), SUMMARY_CHARS)[0]


def records(p: HookPayload, cfg: HookConfig, repo: str) -> list[dict[str, Any]]:
    """The spool records for one event (often none)."""
    now = wall_clock_ms()
    base: dict[str, Any] = {"ts": now, "session_id": p.session_id, "repo_id": repo}
    if p.session_id is not None:
        base["intent"] = session_intent(repo)
    if p.event in SUMMARY_EVENTS or p.event == "SessionEnd":
        if p.session_id is None:
            return []
        text = _summary_text(p)
        if p.event == "SessionEnd":
            # The transcript's tail is no fresher than what Stop saved after the last turn.
            replace = p.last_assistant_message is not None
            close = {"op": "close", "content": text, "replace": replace}
            return [{**base, **close, "confidence": SUMMARY_CONFIDENCE}]
        if text is None:
            return []
        return [{**base, "op": "summary", "content": text, "confidence": SUMMARY_CONFIDENCE}]
    draft = to_draft(p, cfg, repo)
    if draft is None:
        return []
    return [
        {
            **base,
            "op": "observation",
            "id": new_id(),
            "kind": draft.kind,
            "content": draft.content,
            "provenance": draft.provenance,
        }
    ]


def spool(p: HookPayload, cfg: HookConfig, repo: str, db: str) -> int:
    """Write the event's records to the spool of ``db``; return how many."""
    found, masked = mapped(p, cfg, repo)
    directory = spool_dir(db)
    for record in found:
        write_record(directory, record, masked)
    ended(p, directory)
    return len(found)


def mapped(
    p: HookPayload, cfg: HookConfig, repo: str
) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The event's records, and the values masked while making them (value -> kind, in memory
    only), which ``write_record`` hands to the session's memory (``capture.session_secrets``)."""
    collect_found()
    try:
        found = records(p, cfg, repo)
    finally:
        masked = take_found()
    return found, masked


def ended(p: HookPayload, directory: str) -> None:
    """At SessionEnd, forget the session's remembered values (its records are spooled)."""
    if p.event == "SessionEnd":
        session_memory(directory).forget(p.session_id)

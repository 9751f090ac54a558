"""The hook events that need the database now: open it, drain the spool, inject context.

Scope: ``repo`` = the repository root of the payload's ``cwd`` (the same for writes and reads),
``session`` = ``session_id``. One capsule per Claude Code session:

- SessionStart injects pins, the latest summary and recent work (``refresh.start_injection``,
  computed before this session's capsule exists), then applies its ``open`` record (the
  session's capsule, by the one rule of ``records.session_capsule``). When nothing changed
  since the refresher kept that text, the hook prints it without coming here
  (``hooks.start_cache``).
- UserPromptSubmit with ``inject_on_prompt`` injects observations relevant to the prompt (found
  before the prompt itself is recorded: it would be its own best match).

Stop, StopFailure, PreCompact and SessionEnd only write the spool (``hooks.capture``): the agent
waits for them, and a detached refresher, the next SessionStart or any open applies what they
left. PreCompact prints nothing: Claude Code rejects hookSpecificOutput for it, and the
SessionStart with source "compact" that follows a compaction is what injects.

Must not import click, the CLI, the MCP server or the engine: it opens the database with
``entry.open_for_hooks`` and speaks only ``Memory`` verbs.
"""

from __future__ import annotations

from typing import Any

from kindling.agents.events import HookPayload
from kindling.entry import drain, open_for_hooks
from kindling.hooks.capture import ended, mapped
from kindling.hooks.config import HookConfig
from kindling.hooks.inject import build_context
from kindling.hooks.log import log_problem
from kindling.hooks.refresh import start_injection
from kindling.memory import Memory
from kindling.spool import Record, pending, spool_dir

# The agent waits for every event that comes here (SessionStart, UserPromptSubmit): each moves
# what fits in a second (hundreds of events) and leaves the rest to the background refresher.
DRAIN_S = 1.0
# A write waits this long for another writer's lock, not the store's 5 s (twice that, drain
# then capsule, would pass the hook's deadline and print nothing); reads never wait in WAL
# mode, so the context is still injected.
BUSY_TIMEOUT_S = 1.0


def _output(event: str, context: str) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": context}}


def run_with_engine(
    p: HookPayload, cfg: HookConfig, repo: str, db: str, *, keep_open: bool
) -> dict[str, Any] | None:
    """Record the event (spool first), apply it, and return what to print, if anything."""
    from kindling.spool import write_record

    directory = spool_dir(db)
    commits: list[Any] = []
    found, masked = mapped(p, cfg, repo, commits)
    # A prompt is recorded after the search it drives (it would be its own best match), and a
    # session's capsule opens after the start-up context is computed (it is the context of
    # the state before this session: the state the refresher keeps it for, hooks.start_cache);
    # everything else is safe in the spool before the database is even opened.
    prompt = p.prompt if p.event == "UserPromptSubmit" and cfg.inject_on_prompt else None
    first: list[Record] = []
    later: list[Record] = []
    for record in found:
        (later if prompt is not None or record.op == "open" else first).append(record)

    def spool(records: list[Record]) -> None:
        while records:
            write_record(directory, records.pop(0), masked)
        while commits:
            commits.pop(0)()
        ended(p, directory)

    spool(first)
    output: dict[str, Any] | None = None
    try:
        kd = open_for_hooks(db, busy_timeout_s=BUSY_TIMEOUT_S)
        try:
            _drain(kd, directory, p.event)  # earlier hooks' events, and this one's first part
            if prompt is not None:
                injection = build_context(kd, repo=repo, query=prompt, cfg=cfg, with_pins=False)
                output = _output(p.event, injection.text) if injection else None
            if p.event == "SessionStart":
                injection = start_injection(kd, db, repo, cfg)
                output = _output(p.event, injection.text) if injection else None
            if later:
                spool(later)
                _drain(kd, directory, p.event)  # a lock only delays it: it waits in the spool
        finally:
            if not keep_open:
                kd.close()
    finally:
        spool(later)  # whatever failed, the event is kept
    return output


def _drain(kd: Memory, directory: str, event: str) -> None:
    report = drain(kd, directory, budget_s=DRAIN_S)
    for problem in report.bad:
        log_problem(event, f"spool record set aside: {problem}")
    if report.locked:
        waiting = len(pending(directory))
        log_problem(event, f"DatabaseLockedError: {waiting} spooled events wait for the next drain")

"""Hooks in remote mode (``KINDLING_URL`` set: ``entry.chosen``): record events on a
``kindling serve`` through a local outbox (``client.outbox``), so that a slow or absent server
never blocks the agent.

What is sent, per event: the records the local mode would spool (``hooks.capture.records``:
one mapping for both modes), each applied to the server's memory by ``records.apply``, the
function the local drain applies the spool with (one rule from a session to its capsule, too:
SessionStart's ``open`` record, or a session's first record when no SessionStart came first,
as OpenCode's may come late). All text is scrubbed (``spool.scrubbed``, as locally) before it
is put in the outbox.
SessionStart (and UserPromptSubmit with ``inject_on_prompt``) print context built from the
server's memory by the same code as locally (``hooks.inject``), or nothing if it is down.
When an end hook (``FLUSH_EVENTS``) leaves records in the outbox, a detached flusher
(``flush``) delivers them, since no hook may come for days.

Must not import click, the CLI or the MCP server.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kindling.agents.events import HookPayload
from kindling.client.outbox import Delivery, Spool
from kindling.config import kindling_home, repo_root
from kindling.entry import Target, open_target
from kindling.hooks.capture import records
from kindling.hooks.config import HookConfig
from kindling.model.sanitize import new_id
from kindling.spool import scrubbed

SPOOL_DIR = "spool"
TIMEOUT_S = 1.5  # per request: a hook must never keep the agent waiting
FLUSH_S = 120.0  # the background flusher: waits its turn, then delivers for this long at most
# After these, no hook may come for a long time: what they could not deliver in their budget
# (a backlog, or another hook holding the outbox) goes on in the background.
FLUSH_EVENTS = ("Stop", "StopFailure", "PreCompact", "SessionEnd")
MAX_QUERY_CHARS = 10_000  # what the server's retrieve takes (http.api.MAX_QUERY_CHARS)


def spool() -> Spool:
    return Spool(Path(kindling_home()) / SPOOL_DIR)


def injection(p: HookPayload, cfg: HookConfig, where: Target) -> dict[str, Any] | None:
    """What SessionStart (and UserPromptSubmit with ``inject_on_prompt``) print, built from the
    server's memory exactly as from a local one; nothing when the server does not answer."""
    query = ""
    if p.event == "UserPromptSubmit" and cfg.inject_on_prompt and p.prompt:
        query = p.prompt[:MAX_QUERY_CHARS]
    elif p.event != "SessionStart":
        return None
    from kindling.errors import KindlingError
    from kindling.hooks.inject import build_context

    try:
        kd = open_target(where, timeout_s=TIMEOUT_S)
        found = build_context(
            kd,
            repo=repo_root(p.cwd),
            query=query,
            cfg=cfg,
            with_pins=not query,
        )
    except KindlingError:
        return None
    if found is None:
        return None
    return {"hookSpecificOutput": {"hookEventName": p.event, "additionalContext": found.text}}


def handle_remote(
    p: HookPayload, cfg: HookConfig, where: Target
) -> tuple[Delivery, dict[str, Any] | None]:
    """Put the event's records in the outbox, scrubbed, read the injection (before this
    prompt reaches the server: it would be its own best match), then deliver the outbox
    (bounded in time)."""
    box = spool()
    commits: list[Any] = []
    for record in records(p, cfg, repo_root(p.cwd), commits):
        box.put(scrubbed(record.to_dict()), record.id or new_id())
    for commit in commits:
        commit()
    output = injection(p, cfg, where)
    done = box.deliver(open_target(where, timeout_s=TIMEOUT_S))
    if done.left and p.event in FLUSH_EVENTS:
        from kindling.hooks.start_cache import spawn_detached

        spawn_detached("from kindling.hooks.remote import flush; flush()", [])
    return done, output


def flush() -> None:
    """The background flusher (``spawn_detached`` after an end hook left records in the
    outbox): wait for the outbox's lock, deliver to the environment's server for up to
    ``FLUSH_S``, and log what the server refused. It takes the server from the environment it
    was started with, as the hook did."""
    from kindling.entry import chosen
    from kindling.errors import KindlingError
    from kindling.hooks.log import log_problem

    try:
        where = chosen()
        if not where.remote:
            return
        done = spool().deliver(
            open_target(where, timeout_s=TIMEOUT_S), budget_s=FLUSH_S, wait_s=FLUSH_S
        )
    except (KindlingError, OSError) as exc:
        log_problem("flush", f"the outbox was not delivered: {exc}")
        return
    for problem in done.failed:
        log_problem("flush", f"the server refused a spooled request: {problem}")

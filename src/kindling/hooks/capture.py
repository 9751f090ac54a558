"""What a hook event leaves behind: the records (``spool.Record``) that ``records.apply``
applies, locally (``engine.drain``) and on a server (``hooks.remote``). One mapping for both
modes, and for every agent (``kindling.agents`` translates each agent's payloads into these
canonical events).

- PostToolUse, PostToolUseFailure, UserPromptSubmit, SubagentStop, PostCompact: one
  observation (see ``mapping``), with its id and time fixed now, so replaying it is harmless. A
  tool call's id derives from its ``tool_use_id``: the hook and the transcript give it the
  same one, and whichever reaches the store second is skipped.
- Stop, PreCompact: the session's summary so far, from the last assistant message (else the
  transcript's last one). A turn an API error ended ("API Error: 400 ...") is never a summary.
- StopFailure: an ``error`` observation (the turn an API error cut short), and the summary
  from the last assistant text that is not the error (the work before it still counts).
- SessionEnd: close the session's capsule, with the last assistant message as its summary
  (the summary Stop saved after the last turn is kept when only the transcript is there).
- Stop, StopFailure, PreCompact and SessionEnd are also where the agent's transcript is
  reconciled (``missed`` of its agent module): the tool calls whose background hook was
  cancelled are recorded from it.
- UserPromptSubmit carrying a ``<task-notification>``: the background command's result, its
  exit code and output (``hooks.background``), one record per task.
- SessionStart: ``open``, the session's capsule (the hook also injects context).

Must not import click, the CLI, the MCP server or the engine: this runs in every hook process.
"""

from __future__ import annotations

import os

from kindling.agents.events import HookPayload, is_error_text, last_assistant_text
from kindling.config import repo_root
from kindling.hooks.config import HookConfig
from kindling.hooks.mapping import bound, masked, to_draft
from kindling.ids import new_id, stable_id, wall_clock_ms
from kindling.secrets.scrub import collect_found, take_found
from kindling.spool import Record, session_memory, spool_dir, write_record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

SUMMARY_CONFIDENCE = 0.4  # the agent's own last words: useful, unverified
SUMMARY_CHARS = 4000
SUMMARY_EVENTS = ("Stop", "StopFailure", "PreCompact")
# The synchronous points where the transcript is read for what the background hooks missed.
RECONCILE_EVENTS = ("Stop", "StopFailure", "PreCompact", "SessionEnd")
# ... plus SessionStart (the recent sessions whose tail was missed) and the first prompt (the
# session's transcript is noted for that sweep).
SWEEP_EVENTS = (*RECONCILE_EVENTS, "SessionStart", "UserPromptSubmit")


def session_intent(repo: str, label: str) -> str:
    return f"{label} session in {os.path.basename(repo.rstrip('/')) or repo}"


def _summary_text(p: HookPayload) -> str | None:
    text = p.last_assistant_message
    if not text or is_error_text(text):
        text = last_assistant_text(p.transcript_path)
    if not text or not text.strip() or is_error_text(text):
        return None
    return bound(masked(text.strip(), {}), SUMMARY_CHARS)[0]


def _observation(p: HookPayload, cfg: HookConfig, repo: str, base: dict[str, Any]) -> list[Any]:
    draft = _task_result(p, cfg) or to_draft(p, cfg, repo)
    if draft is None:
        return []
    task = draft.provenance.get("backgroundTaskId") if draft.kind == "command" else None
    if p.event == "UserPromptSubmit" and isinstance(task, str) and p.session_id:
        rid = stable_id("task", p.session_id, task)  # a repeated notification is one result
    elif p.tool_use_id and p.session_id:
        rid = stable_id("tool", p.session_id, p.tool_use_id)
    else:
        rid = new_id()
    body = {"op": "observation", "id": rid, "kind": draft.kind, "content": draft.content}
    return [{**base, **body, "provenance": draft.provenance}]


def _task_result(p: HookPayload, cfg: HookConfig) -> Any:
    """A background command's result (``hooks.background``), from its notification prompt."""
    if p.event != "UserPromptSubmit" or "<task-notification>" not in (p.prompt or ""):
        return None
    from kindling.hooks.background import task_result

    prov: dict[str, Any] = {"source": p.agent, "event": "TaskNotification", "role": "system"}
    if p.cwd:
        prov["cwd"] = p.cwd
    return task_result(p, cfg, prov)


def _failed_turn(p: HookPayload, base: dict[str, Any]) -> dict[str, Any]:
    error = p.error or "unknown"
    lines = [f"Turn ended by an API error: {error}"]
    details = p.error_details or (
        p.last_assistant_message if is_error_text(p.last_assistant_message) else None
    )
    if details:
        lines.append(details)
    prov: dict[str, Any] = {"source": p.agent, "event": p.event, "error": error[:200]}
    text = bound(masked("\n".join(lines), prov), SUMMARY_CHARS)[0]
    return {
        **base,
        "op": "observation",
        "id": new_id(),
        "kind": "error",
        "content": text,
        "provenance": prov,
    }


def _reconciled(
    p: HookPayload, cfg: HookConfig, repo: str, commits: list[Callable[[], None]] | None
) -> list[dict[str, Any]]:
    from kindling.agents import get

    agent = get(p.agent)
    if p.event in ("SessionStart", "UserPromptSubmit"):
        agent.noted(p)
        if p.event != "SessionStart":
            return []
    found, commit = agent.earlier(p) if p.event == "SessionStart" else agent.missed(p)
    out: list[dict[str, Any]] = []
    for event, data in found:
        q = HookPayload(data, event)
        q.agent, q.agent_label = p.agent, p.agent_label
        where = repo if q.session_id == p.session_id else repo_root(q.cwd)
        base = {"ts": wall_clock_ms(), "session_id": q.session_id, "repo_id": where}
        base["intent"] = session_intent(where, p.agent_label)
        for record in _observation(q, cfg, where, base):
            record["provenance"]["reconciled"] = True
            out.append(record)
    if commit is not None and commits is not None:
        commits.append(commit)
    return out


def records(
    p: HookPayload,
    cfg: HookConfig,
    repo: str,
    commits: list[Callable[[], None]] | None = None,
) -> list[Record]:
    """The records for one event (often none). ``commits`` collects what to call once they
    are safe (the transcript reconciliation's position); without it the transcript is not
    read."""
    return [Record(d.pop("op"), d.pop("ts"), **d) for d in _records(p, cfg, repo, commits)]


def _records(
    p: HookPayload, cfg: HookConfig, repo: str, commits: list[Callable[[], None]] | None
) -> list[dict[str, Any]]:
    now = wall_clock_ms()
    base: dict[str, Any] = {"ts": now, "session_id": p.session_id, "repo_id": repo}
    if p.session_id is not None:
        base["intent"] = session_intent(repo, p.agent_label)
    out: list[dict[str, Any]] = []
    if p.event in SWEEP_EVENTS and p.session_id is not None and commits is not None:
        out += _reconciled(p, cfg, repo, commits)
    if p.event == "SessionStart" and p.session_id is not None:
        out.append({**base, "op": "open"})
    if p.event == "StopFailure" and p.session_id is not None:
        out.append(_failed_turn(p, base))
    if p.event in SUMMARY_EVENTS or p.event == "SessionEnd":
        if p.session_id is None:
            return out
        text = _summary_text(p)
        if p.event == "SessionEnd":
            # The transcript's tail is no fresher than what Stop saved after the last turn.
            replace = p.last_assistant_message is not None and not is_error_text(
                p.last_assistant_message
            )
            close = {"op": "close", "content": text, "replace": replace}
            return [*out, {**base, **close, "confidence": SUMMARY_CONFIDENCE}]
        if text is None:
            return out
        summary = {"op": "summary", "content": text, "confidence": SUMMARY_CONFIDENCE}
        return [*out, {**base, **summary}]
    return out + _observation(p, cfg, repo, base)


def spool(p: HookPayload, cfg: HookConfig, repo: str, db: str) -> int:
    """Write the event's records to the spool of ``db``; return how many."""
    commits: list[Callable[[], None]] = []
    found, masked = mapped(p, cfg, repo, commits)
    directory = spool_dir(db)
    for record in found:
        write_record(directory, record, masked)
    for commit in commits:
        commit()
    ended(p, directory)
    return len(found)


def mapped(
    p: HookPayload,
    cfg: HookConfig,
    repo: str,
    commits: list[Callable[[], None]] | None = None,
) -> tuple[list[Record], dict[str, str]]:
    """The event's records, and the values masked while making them (value -> kind, in memory
    only), which ``write_record`` hands to the session's memory (``secrets.session_secrets``)."""
    collect_found()
    try:
        found = records(p, cfg, repo, commits)
    finally:
        masked = take_found()
    return found, masked


def ended(p: HookPayload, directory: str) -> None:
    """At SessionEnd, forget the session's remembered values (its records are spooled)."""
    if p.event == "SessionEnd":
        session_memory(directory).forget(p.session_id)

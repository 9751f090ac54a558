"""Run one hook event against the database: capture, capsule lifecycle, context injection.

Scope: ``repo`` = the repository root of the payload's ``cwd`` (the same for writes and reads),
``session`` = ``session_id``. One capsule per Claude Code session:

- SessionStart opens it (or resumes the open one) and injects pins, the latest summary and
  recent work.
- UserPromptSubmit, PostToolUse, PostToolUseFailure and SubagentStop record observations
  (opening the capsule first if the hooks were installed mid-session); UserPromptSubmit
  injects relevant memories when ``inject_on_prompt`` is on.
- Stop fires after every assistant turn, so it refreshes the capsule's summary from the last
  assistant message but keeps the capsule open; SessionEnd closes it with that summary.
  PreCompact saves the summary so far (compaction is where context is lost).

Must not import click, the CLI or the MCP server. Speaks only ``Kindling`` verbs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kindling.engine import Kindling
from kindling.errors import ConflictError
from kindling.hooks.config import HookConfig
from kindling.hooks.inject import build_context
from kindling.hooks.mapping import bound, to_draft
from kindling.hooks.payload import HookPayload, last_assistant_text, repo_root
from kindling.model import Capsule, Scope
from kindling.store.sqlite import SqliteStore

# A hook must finish well inside Claude Code's timeout: wait at most this long for a writer.
BUSY_TIMEOUT_S = 2.0
SUMMARY_CONFIDENCE = 0.4  # the agent's own last words: useful, unverified
SUMMARY_CHARS = 4000


def open_kindling(db: Path) -> Kindling:
    return Kindling(SqliteStore(db, busy_timeout_s=BUSY_TIMEOUT_S))


def _session_scope(p: HookPayload, repo: str) -> Scope:
    return Scope(session_id=p.session_id, repo_id=repo)


def _open_capsule(kd: Kindling, p: HookPayload, repo: str) -> Capsule | None:
    if p.session_id is None:
        return None
    found = kd.list_capsules(status="open", scope=Scope(session_id=p.session_id), limit=1)
    if found:
        return found[0]
    try:
        return kd.open_capsule(
            intent=f"Claude Code session in {Path(repo).name or repo}",
            scope=_session_scope(p, repo),
        )
    except ConflictError:  # another hook of this session opened it a moment ago
        found = kd.list_capsules(status="open", scope=Scope(session_id=p.session_id), limit=1)
        return found[0] if found else None


def _summary_text(p: HookPayload) -> str | None:
    text = p.last_assistant_message or last_assistant_text(p.transcript_path)
    if not text or not text.strip():
        return None
    return bound(text.strip(), SUMMARY_CHARS)[0]


def _output(event: str, context: str) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": context}}


def handle(kd: Kindling, p: HookPayload, cfg: HookConfig) -> dict[str, Any] | None:
    """Do what the event asks; return the JSON to print, or None to print nothing."""
    repo = repo_root(p.cwd)
    event = p.event
    if event == "SessionStart":
        _open_capsule(kd, p, repo)
        injection = build_context(kd, repo=repo, query="", cfg=cfg)
        return _output(event, injection.text) if injection else None
    if event in ("UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "SubagentStop"):
        output = None
        if event == "UserPromptSubmit" and cfg.inject_on_prompt and p.prompt:
            # Before recording the prompt: it would be its own best match.
            injection = build_context(kd, repo=repo, query=p.prompt, cfg=cfg, with_pins=False)
            output = _output(event, injection.text) if injection else None
        draft = to_draft(p, cfg, repo)
        if draft is not None:
            capsule = _open_capsule(kd, p, repo)
            kd.append_observation(
                kind=draft.kind,  # type: ignore[arg-type]  # mapping emits only known kinds
                content=draft.content,
                provenance=draft.provenance,
                scope=_session_scope(p, repo) if p.session_id else Scope(repo_id=repo),
                capsule_id=capsule.id if capsule else None,
            )
        return output
    if event in ("Stop", "PreCompact", "SessionEnd"):
        return _wrap_up(kd, p, cfg, repo)
    return None


def _wrap_up(kd: Kindling, p: HookPayload, cfg: HookConfig, repo: str) -> dict[str, Any] | None:
    if p.session_id is None:
        return None
    found = kd.list_capsules(status="open", scope=Scope(session_id=p.session_id), limit=1)
    capsule = found[0] if found else None
    if p.event == "SessionEnd":
        if capsule is None:
            return None
        # The summary Stop saved after the last turn is as fresh as the transcript's tail.
        has_summary = capsule.summary_id is not None and not p.last_assistant_message
        summary = None if has_summary else _summary_text(p)
        kd.close_capsule(
            capsule.id, summary=summary, confidence=SUMMARY_CONFIDENCE if summary else None
        )
        return None
    summary = _summary_text(p)
    if capsule is None:
        capsule = _open_capsule(kd, p, repo)
    if capsule is not None and summary:
        kd.add_summary(capsule.id, content=summary, confidence=SUMMARY_CONFIDENCE)
    if p.event == "PreCompact" and cfg.inject_on_precompact:
        injection = build_context(kd, repo=repo, query="", cfg=cfg)
        return _output(p.event, injection.text) if injection else None
    return None


def dumps(output: dict[str, Any]) -> str:
    return json.dumps(output, ensure_ascii=False)

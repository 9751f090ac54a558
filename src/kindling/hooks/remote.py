"""Hooks in remote mode (``KINDLING_URL`` set): record events on a ``kindling serve`` through
a local spool (``remote.spool``), so that a slow or absent server never blocks the agent.

What is sent, per event: SessionStart opens the session's capsule (its id derived from the
session id, so a repeat is a harmless ``conflict``); the capture events append their
observation (the server joins it to the session's open capsule); Stop and PreCompact set the
capsule's summary; SessionEnd closes the capsule. All text is scrubbed before it is spooled.
SessionStart (and UserPromptSubmit with ``inject_on_prompt``) print context built from the
server's memory by the same code as locally (``hooks.inject``), or nothing if it is down.

Must not import click, the CLI or the MCP server.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from kindling.capture.privacy import scrub_content, scrub_text
from kindling.capture.sanitize import new_id, wall_clock_ms
from kindling.config import kindling_home, repo_root
from kindling.hooks.config import HookConfig
from kindling.hooks.mapping import to_draft
from kindling.hooks.payload import HookPayload
from kindling.remote.client import RemoteClient
from kindling.remote.spool import Delivery, Spool

SPOOL_DIR = "spool"
SUMMARY_CHARS = 4_000
TIMEOUT_S = 1.5  # per request: a hook must never keep the agent waiting
MAX_QUERY_CHARS = 10_000  # what the server's retrieve takes (server.api.MAX_QUERY_CHARS)


def session_capsule_id(session_id: str) -> str:
    return (
        "session-"
        + hashlib.blake2b(session_id.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()
    )


def spool() -> Spool:
    return Spool(Path(kindling_home()) / SPOOL_DIR)


def requests_for(p: HookPayload, cfg: HookConfig) -> list[tuple[str, str, dict[str, Any]]]:
    """The (method, path, body) requests an event should send, scrubbed."""
    repo = repo_root(p.cwd)
    scope: dict[str, str] = {"repoId": repo}
    if p.session_id:
        scope["sessionId"] = p.session_id
    capsule = session_capsule_id(p.session_id) if p.session_id else None
    out: list[tuple[str, str, dict[str, Any]]] = []
    if p.event == "SessionStart" and capsule:
        intent = scrub_text(f"Claude Code session in {os.path.basename(repo) or repo}")
        out.append(("POST", "/v1/capsules", {"id": capsule, "intent": intent, "scope": scope}))
    draft = to_draft(p, cfg, repo)
    if draft is not None:
        content, provenance = scrub_content(draft.content, dict(draft.provenance))
        body = {
            "id": new_id(),
            "kind": draft.kind,
            "content": content,
            "provenance": provenance,
            "scope": scope,
            "ts": wall_clock_ms(),
        }
        out.append(("POST", "/v1/observations", body))
    summary = (p.last_assistant_message or "").strip()[:SUMMARY_CHARS]
    if p.event in ("Stop", "PreCompact") and capsule and summary:
        out.append(
            ("POST", "/v1/summaries", {"capsule_id": capsule, "content": scrub_text(summary)})
        )
    if p.event == "SessionEnd" and capsule:
        out.append(("POST", f"/v1/capsules/{capsule}/close", {}))
    return out


def injection(
    p: HookPayload, cfg: HookConfig, url: str, token: str | None
) -> dict[str, Any] | None:
    """What SessionStart (and UserPromptSubmit with ``inject_on_prompt``) print, built from the
    server's memory exactly as from a local one; nothing when the server does not answer."""
    query = ""
    if p.event == "UserPromptSubmit" and cfg.inject_on_prompt and p.prompt:
        query = p.prompt[:MAX_QUERY_CHARS]
    elif p.event != "SessionStart":
        return None
    from kindling.errors import KindlingError
    from kindling.hooks.inject import build_context
    from kindling.remote.front import RemoteKindling

    try:
        kd = RemoteKindling(url, token, timeout_s=TIMEOUT_S)
        found = build_context(
            kd,  # type: ignore[arg-type]  # the verbs build_context uses, over HTTP
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
    p: HookPayload, cfg: HookConfig, url: str, token: str | None
) -> tuple[Delivery, dict[str, Any] | None]:
    """Spool the event's requests, read the injection (before this prompt reaches the
    server: it would be its own best match), then deliver the spool (bounded in time)."""
    box = spool()
    for method, path, body in requests_for(p, cfg):
        box.put(method, path, body, str(body.get("id") or new_id()))
    output = injection(p, cfg, url, token)
    return box.deliver(RemoteClient(url, token, timeout_s=TIMEOUT_S)), output

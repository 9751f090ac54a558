"""Hooks in remote mode (``KINDLING_URL`` set): record events on a ``kindling serve`` through
a local outbox (``client.outbox``), so that a slow or absent server never blocks the agent.

What is sent, per event: SessionStart opens the session's capsule (its id derived from the
session id, so a repeat is a harmless ``conflict``), and so does a session's first event that
records something when no SessionStart came first (OpenCode's may come late); then every record the
local mode would spool (``hooks.capture.records``: one mapping for both modes) becomes one request
(``request_for``): an observation is appended (the server joins it to the session's open
capsule), a summary is set, a close closes the capsule with its summary. All text is scrubbed
(``spool.scrubbed``, as locally) before it is spooled.
SessionStart (and UserPromptSubmit with ``inject_on_prompt``) print context built from the
server's memory by the same code as locally (``hooks.inject``), or nothing if it is down.

Must not import click, the CLI or the MCP server.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from kindling.agents.events import HookPayload
from kindling.client.outbox import Delivery, Spool
from kindling.client.transport import RemoteClient
from kindling.config import kindling_home, repo_root
from kindling.hooks.capture import records, session_intent
from kindling.hooks.config import HookConfig
from kindling.model.sanitize import new_id
from kindling.secrets.privacy import scrub_text
from kindling.spool import scrubbed

SPOOL_DIR = "spool"
TIMEOUT_S = 1.5  # per request: a hook must never keep the agent waiting
MAX_QUERY_CHARS = 10_000  # what the server's retrieve takes (http.api.MAX_QUERY_CHARS)


def session_capsule_id(session_id: str) -> str:
    return (
        "session-"
        + hashlib.blake2b(session_id.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()
    )


def spool() -> Spool:
    return Spool(Path(kindling_home()) / SPOOL_DIR)


def request_for(record: dict[str, Any]) -> tuple[str, str, dict[str, Any]] | None:
    """The request that applies one record (``hooks.capture.records``) on the server, as
    ``engine.drain`` applies it locally. The record is already scrubbed."""
    session = record.get("session_id")
    scope: dict[str, str] = {"repoId": record["repo_id"]}
    if isinstance(session, str):
        scope["sessionId"] = session
    op = record["op"]
    if op == "observation":
        body = {k: record[k] for k in ("id", "kind", "content", "provenance", "ts")}
        return "POST", "/v1/observations", {**body, "scope": scope}
    if not isinstance(session, str):
        return None
    capsule = session_capsule_id(session)
    content = record.get("content")
    text = content if isinstance(content, str) and content.strip() else None
    if op == "summary":
        if text is None:
            return None
        body = {"capsule_id": capsule, "content": text, "confidence": record["confidence"]}
        return "POST", "/v1/summaries", body
    close: dict[str, Any] = {}
    if text is not None and record.get("replace", True):  # else Stop's summary stands
        close = {"summary": text, "confidence": record["confidence"]}
    return "POST", f"/v1/capsules/{capsule}/close", close


def requests_for(
    p: HookPayload, cfg: HookConfig, commits: list[Any] | None = None
) -> list[tuple[str, str, dict[str, Any]]]:
    """The (method, path, body) requests an event should send, scrubbed: the same records as
    in the local mode (``hooks.capture.records``), one request each."""
    repo = repo_root(p.cwd)
    out: list[tuple[str, str, dict[str, Any]]] = []
    for record in records(p, cfg, repo, commits):
        request = request_for(scrubbed(record))
        if request is not None:
            out.append(request)
    if p.session_id and (p.event == "SessionStart" or out):
        scope = {"repoId": repo, "sessionId": p.session_id}
        intent = scrub_text(session_intent(repo, p.agent_label))
        capsule = session_capsule_id(p.session_id)
        body: dict[str, Any] = {"id": capsule, "intent": intent, "scope": scope}
        if _first_for(capsule) or p.event == "SessionStart":
            out.insert(0, ("POST", "/v1/capsules", body))
    return out


OPENED_DIR = "opened"  # in the outbox folder: a mark per capsule this machine asked to open


def _first_for(capsule_id: str) -> bool:
    """True the first time a capsule is asked for here (the open is in the outbox then, and
    delivered before the records after it); a repeat would be a harmless ``conflict``."""
    import os

    from kindling.private_files import private_dir

    folder = private_dir(os.path.join(kindling_home(), SPOOL_DIR, OPENED_DIR))
    try:
        os.close(
            os.open(os.path.join(folder, capsule_id), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        )
    except FileExistsError:
        return False
    return True


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
    from kindling.client.front import RemoteKindling
    from kindling.errors import KindlingError
    from kindling.hooks.inject import build_context

    try:
        kd = RemoteKindling(url, token, timeout_s=TIMEOUT_S)
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
    p: HookPayload, cfg: HookConfig, url: str, token: str | None
) -> tuple[Delivery, dict[str, Any] | None]:
    """Spool the event's requests, read the injection (before this prompt reaches the
    server: it would be its own best match), then deliver the spool (bounded in time)."""
    box = spool()
    commits: list[Any] = []
    for method, path, body in requests_for(p, cfg, commits):
        box.put(method, path, body, str(body.get("id") or new_id()))
    for commit in commits:
        commit()
    output = injection(p, cfg, url, token)
    return box.deliver(RemoteClient(url, token, timeout_s=TIMEOUT_S)), output

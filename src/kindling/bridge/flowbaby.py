"""``kindling-flowbaby-python``: an interpreter for Flowbaby's ``pythonPath`` setting, so that
Flowbaby's own client, unpatched, gets its answers from Kindling.

Flowbaby (groupzer0/flowbaby) runs its bridge as ``PYTHON <extension>/bridge/SCRIPT ARGS``,
``PYTHON`` being its ``Flowbaby.pythonPath`` setting:

- ``retrieve.py ARGS`` (every version; from v0.7.4 only with ``Flowbaby.bridgeMode`` set to
  ``spawn``, and then only after a probe, ``PYTHON -c "import cognee..."``, succeeds): answered
  by ``kindling bridge retrieve ARGS``, the same bytes.
- ``daemon.py`` (v0.7.x, the default ``bridgeMode: daemon``; v0.7.5 sends every memory
  operation there): a long-lived process reading JSON-RPC 2.0 requests, one per line, on stdin
  and answering one line each on stdout. Kindling answers ``health`` (which is also the
  readiness handshake), ``retrieve`` (its params: ``query``, ``max_results``, ``max_tokens``,
  ``half_life_days``, ``include_superseded``, ``top_k``, ``session_id``; the workspace is
  ``FLOWBABY_WORKSPACE_PATH``, else the working directory) with the retrieve response,
  ``ingest`` (a structured summary, ``summary_json`` in Flowbaby's camelCase, stored as a
  structured memory; a conversation turn, ``user_message`` and ``assistant_message``, as a
  plain-text memory) with the ingest response, and ``shutdown``. ``cognify`` and ``visualize``
  are Cognee's jobs: a JSON-RPC error says so.
- anything else (the cognee probe, ``init.py``...) runs in this Python unchanged, so every
  answer is true: without Cognee installed here the probe reports it missing.

Must not import ``kindling.cli`` or other adapters.
"""

from __future__ import annotations

import io
import json
import os
import sys
import time
from collections.abc import Iterable, Mapping
from typing import Any, TextIO

from kindling.bridge.handler import run_ingest, run_retrieve
from kindling.config import default_db_path

JSONRPC = "2.0"
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602
BRIDGE_ERROR = -32000  # the retrieve answered success: false
COGNEE_METHODS = ("cognify", "visualize")
# Flowbaby's summary keys -> the bridge's memory keys (its other keys, such as timeScope,
# createdAt or the __user_session_id envelope, have no place in a memory and are dropped)
SUMMARY_KEYS = {
    "topic": "topic",
    "context": "context",
    "decisions": "decisions",
    "rationale": "rationale",
    "openQuestions": "open_questions",
    "nextSteps": "next_steps",
    "references": "references",
    "topicId": "topic_id",
    "sessionId": "session_id",
    "planId": "plan_id",
    "status": "status",
    "sourceCreatedAt": "source_created_at",
}
# daemon params -> the bridge's --json request keys
PARAMS = {
    "query": "query",
    "max_results": "max_results",
    "max_tokens": "max_tokens",
    "half_life_days": "half_life_days",
    "include_superseded": "include_superseded",
    "top_k": "search_top_k",
}


def _reply(out: TextIO, request_id: Any, result: Mapping[str, Any]) -> None:
    out.write(json.dumps({"jsonrpc": JSONRPC, "id": request_id, "result": result}) + "\n")
    out.flush()


def _error(out: TextIO, request_id: Any, code: int, message: str) -> None:
    body = {"jsonrpc": JSONRPC, "id": request_id, "error": {"code": code, "message": message}}
    out.write(json.dumps(body) + "\n")
    out.flush()


def daemon_retrieve(params: Mapping[str, Any], env: Mapping[str, str]) -> dict[str, Any]:
    """The bridge's retrieve response for one daemon ``retrieve`` request."""
    request: dict[str, Any] = {"workspace_path": _default_workspace(env)}
    for theirs, ours in PARAMS.items():
        if params.get(theirs) is not None:
            request[ours] = params[theirs]
    outcome = run_retrieve(["--json", json.dumps(request)], default_db=default_db_path(), env=env)
    if isinstance(outcome.body, str):  # help text: never for a --json request
        return {"success": False, "error": "the bridge answered with its usage text"}
    return outcome.body


def _workspace(params: Mapping[str, Any], env: Mapping[str, str]) -> str:
    where = params.get("workspace_path")
    return where if isinstance(where, str) and where else _default_workspace(env)


def _default_workspace(env: Mapping[str, str]) -> str:
    return env.get("FLOWBABY_WORKSPACE_PATH") or os.getcwd()


def daemon_ingest(params: Mapping[str, Any], env: Mapping[str, str]) -> dict[str, Any]:
    """The bridge's ingest response for one daemon ``ingest`` request."""
    memory: dict[str, Any]
    if "summary_json" in params:
        try:
            summary = json.loads(str(params["summary_json"]))
        except ValueError:
            return {"success": False, "error": "summary_json is not JSON"}
        if not isinstance(summary, dict):
            return {"success": False, "error": "summary_json must be a JSON object"}
        memory = {
            ours: summary[theirs]
            for theirs, ours in SUMMARY_KEYS.items()
            if summary.get(theirs) not in (None, "", [])
        }
        memory.setdefault("session_id", summary.get("__user_session_id"))
        memory = {k: v for k, v in memory.items() if v is not None}
    else:
        user, assistant = params.get("user_message"), params.get("assistant_message")
        if not isinstance(user, str) or not isinstance(assistant, str):
            return {"success": False, "error": "ingest needs summary_json, or user_message and"
                    " assistant_message"}  # fmt: skip
        memory = {"text": f"User: {user}\n\nAssistant: {assistant}"}
    stdin = io.BytesIO(json.dumps(memory).encode("utf-8"))
    outcome = run_ingest(
        [_workspace(params, env)], default_db=default_db_path(), stdin=stdin, env=env
    )
    if isinstance(outcome.body, str):
        return {"success": False, "error": "the bridge answered with its usage text"}
    return outcome.body


def serve_daemon(lines: Iterable[str], out: TextIO, env: Mapping[str, str]) -> int:
    """Answer Flowbaby's daemon requests until ``shutdown`` or the end of input."""
    started = time.monotonic()
    for line in lines:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError:
            _error(out, None, PARSE_ERROR, "the line is not JSON")
            continue
        if not isinstance(request, dict) or not isinstance(request.get("method"), str):
            _error(out, None, INVALID_REQUEST, "a request is an object with a method")
            continue
        request_id, method = request.get("id"), request["method"]
        params = request.get("params") or {}
        if not isinstance(params, dict):
            _error(out, request_id, INVALID_PARAMS, "params must be an object")
        elif method == "health":
            uptime = round((time.monotonic() - started) * 1000)
            _reply(out, request_id, {"status": "ok", "uptime_ms": uptime, "backend": "kindling"})
        elif method in ("retrieve", "ingest"):
            body = (daemon_retrieve if method == "retrieve" else daemon_ingest)(params, env)
            if body.get("success"):
                _reply(out, request_id, body)
            else:  # Flowbaby shows an error response's message
                _error(out, request_id, BRIDGE_ERROR, str(body.get("error")))
        elif method == "shutdown":
            _reply(out, request_id, {"status": "ok"})
            return 0
        elif method in COGNEE_METHODS:
            _error(
                out,
                request_id,
                METHOD_NOT_FOUND,
                f"{method} is Cognee's; Kindling stores and retrieves memories only",
            )
        else:
            _error(out, request_id, METHOD_NOT_FOUND, f"unknown method {method[:80]!r}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    script = os.path.basename(args[0]) if args else ""
    if script == "daemon.py":
        return serve_daemon(sys.stdin, sys.stdout, os.environ)
    if script == "retrieve.py":
        from kindling.bridge.retrieve import main as retrieve

        return retrieve(args[1:])
    # Everything else is Python's: run this interpreter with the same arguments.
    os.execv(sys.executable, [sys.executable, *args])
    return 1  # pragma: no cover - execv does not return


if __name__ == "__main__":
    sys.exit(main())

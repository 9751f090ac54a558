"""A stand-in for the Anthropic Messages API, for driving the real ``claude -p`` offline.

Every conversation is scripted the same way: a request whose last user turn carries no tool
result is answered with one ``tool_use`` of Bash (``echo <marker>``, the marker taken from the
prompt), and a request that carries the tool's result with a short text and ``end_turn``, so
the run ends right after a tool call. A compaction request (``/compact``) gets a summary naming
the markers of the conversation. With ``fail_after_tool`` the second answer is an HTTP 400
instead (the run ends on an API error). Answers are streamed as server-sent events when the
request asks for a stream, as Claude Code does.

``FakeAnthropic(steps=[...])`` plays a script instead: the request that carries N tool results
is answered with step N (``("shell", command)``: Bash; ``("write", path, content)``: Write, or
OpenCode's ``write`` with ``tools="opencode"``), and the one after the last step with the text.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MARKER = re.compile(r"marker-[a-z0-9-]+")
COMPACT = "Respond with plain text only"  # Claude Code's compaction request says so


def _last_user(body: dict[str, Any]) -> tuple[str, bool]:
    """The text of the request, and whether its last user turn is a tool result."""
    messages = body.get("messages") or []
    text = json.dumps(messages)
    # A resumed session may end with a "system" message (the hooks' context): skip it.
    users = [m for m in messages if isinstance(m, dict) and m.get("role") == "user"]
    last = users[-1] if users else {}
    content = last.get("content") if isinstance(last, dict) else None
    blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
    has_result = any(isinstance(b, dict) and b.get("type") == "tool_result" for b in blocks)
    # A new prompt can share the turn with the earlier tools' results (Claude Code merges
    # the user turns of one ``claude -p`` stream): then its marker is the one asked for, and
    # it is answered once a result holds that marker.
    asked = [
        found.group(0)
        for b in blocks
        if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
        for found in [MARKER.search(b["text"])]
        if found
    ]
    if asked:
        results = []
        for m in users:
            turn = m.get("content")
            for b in turn if isinstance(turn, list) else []:
                if isinstance(b, dict) and b.get("type") == "tool_result":
                    results.append(json.dumps(b.get("content")))
        return asked[-1], any(asked[-1] in MARKER.findall(r) for r in results)
    return text, has_result


def _events(message: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    start = {**message, "content": [], "stop_reason": None}
    out: list[tuple[str, dict[str, Any]]] = [
        ("message_start", {"type": "message_start", "message": start})
    ]
    for i, block in enumerate(message["content"]):
        first: dict[str, Any]
        delta: dict[str, Any]
        if block["type"] == "text":
            first = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            first = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        out.append(
            (
                "content_block_start",
                {"type": "content_block_start", "index": i, "content_block": first},
            )
        )
        out.append(
            ("content_block_delta", {"type": "content_block_delta", "index": i, "delta": delta})
        )
        out.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
    out.append(
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                "usage": {"output_tokens": 10},
            },
        )
    )
    out.append(("message_stop", {"type": "message_stop"}))
    return out


class FakeAnthropic:
    """``with FakeAnthropic() as api:`` serves on ``api.url`` until the block ends."""

    def __init__(
        self,
        *,
        fail_after_tool: bool = False,
        steps: list[tuple[str, ...]] | None = None,
        tools: str = "claude",
    ) -> None:
        self.fail_after_tool = fail_after_tool
        self.steps = steps
        self.tools = tools
        self.bodies: list[dict[str, Any]] = []  # every Messages request, for its tools
        self.requests = 0
        self.calls = 0
        self.lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.end_headers()

            def do_GET(self) -> None:
                self._json(200, {"data": [], "has_more": False})

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if not self.path.startswith("/v1/messages") or "count_tokens" in self.path:
                    self._json(200, {"input_tokens": 10})
                    return
                with owner.lock:
                    owner.requests += 1
                    owner.bodies.append(body)
                owner.answer(self, body)

            def _json(self, status: int, data: dict[str, Any]) -> None:
                raw = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self.handler = Handler
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def answer(self, handler: Any, body: dict[str, Any]) -> None:
        text, has_result = _last_user(body)
        found = MARKER.search(text)  # the prompt's (context Kindling injects comes after it)
        marker = found.group(0) if found else "marker-none"
        if has_result and self.fail_after_tool:
            handler._json(
                400,
                {
                    "type": "error",
                    "error": {"type": "invalid_request_error", "message": "scripted"},
                },
            )
            return
        message: dict[str, Any] = {
            "id": f"msg_fake_{self.requests}",  # one id per answer: a round of its own
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "claude"),
            "usage": {"input_tokens": 10, "output_tokens": 10},
        }
        users = [m for m in body.get("messages") or [] if m.get("role") == "user"]
        results = sum(
            1
            for m in users
            for b in (m.get("content") if isinstance(m.get("content"), list) else [])
            if isinstance(b, dict) and b.get("type") == "tool_result"
        )
        if self.steps is not None and results < len(self.steps):
            message["content"] = [self._step(self.steps[results], results)]
            message["stop_reason"] = "tool_use"
        elif self.steps is not None:
            message["content"] = [{"type": "text", "text": f"Done with {marker}."}]
            message["stop_reason"] = "end_turn"
        elif users and COMPACT in json.dumps(users[-1]):  # the summary that replaces the history
            done = ", ".join(dict.fromkeys(MARKER.findall(json.dumps(body.get("messages")))))
            summary = f"<analysis>Short.</analysis>\n<summary>Compacted: printed {done}.</summary>"
            message["content"] = [{"type": "text", "text": summary}]
            message["stop_reason"] = "end_turn"
        elif has_result:
            message["content"] = [{"type": "text", "text": f"Done with {marker}."}]
            message["stop_reason"] = "end_turn"
        else:
            command = {"command": f"echo {marker}", "description": "Print the marker"}
            with self.lock:
                self.calls += 1
                tid = f"toolu_{marker.replace('-', '_')}_{self.calls}"
            tool = {
                "type": "tool_use",
                "id": tid,
                "name": "Bash",
                "input": command,
            }
            message["content"] = [tool]
            message["stop_reason"] = "tool_use"
        if not body.get("stream"):
            handler._json(200, {**message, "stop_sequence": None})
            return
        handler.send_response(200)
        handler.send_header("content-type", "text/event-stream")
        handler.send_header("cache-control", "no-cache")
        handler.end_headers()
        for name, data in _events(message):
            handler.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
            handler.wfile.flush()

    def _step(self, step: tuple[str, ...], n: int) -> dict[str, Any]:
        """Step ``n`` of the script as a ``tool_use`` block, in the agent's tool names."""
        opencode = self.tools == "opencode"
        if step[0] == "shell":
            name, args = "Bash", {"command": step[1], "description": "Run a command"}
        elif opencode:
            name, args = "write", {"filePath": step[1], "content": step[2]}
        else:
            name, args = "Write", {"file_path": step[1], "content": step[2]}
        return {"type": "tool_use", "id": f"toolu_step_{n}", "name": name, "input": args}

    def __enter__(self) -> FakeAnthropic:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

"""A stand-in for the OpenAI Responses API, for driving the real ``codex exec`` offline.

The first request of a turn is answered with one ``exec_command`` call (``echo <marker>``, the
marker taken from the prompt); a request that carries the call's output with a short message,
so the run ends right after a tool call. Answers are streamed as server-sent events.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MARKER = re.compile(r"marker-[a-z0-9-]+")
OUTPUTS = ("function_call_output", "custom_tool_call_output")


def _item(body: dict[str, Any]) -> dict[str, Any]:
    items = body.get("input") or []
    found = MARKER.search(json.dumps(items))
    marker = found.group(0) if found else "marker-none"
    if any(isinstance(i, dict) and i.get("type") in OUTPUTS for i in items):
        text = {"type": "output_text", "text": f"Done with {marker}."}
        return {"type": "message", "role": "assistant", "id": "msg_1", "content": [text]}
    args = json.dumps({"cmd": f"echo {marker}"})
    return {
        "type": "function_call",
        "id": "fc_1",
        "name": "exec_command",
        "arguments": args,
        "call_id": f"call_{marker.replace('-', '_')}",
    }


class FakeOpenAI:
    """``with FakeOpenAI() as api:`` serves ``api.url`` (the ``base_url``, ending in /v1)."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []  # every request, for the tools it offered
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                raw = b'{"data": [], "models": []}'
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                owner.bodies.append(body)
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.end_headers()
                usage = {"input_tokens": 5, "output_tokens": 5, "total_tokens": 10}
                for event in (
                    {"type": "response.created", "response": {"id": "resp_1"}},
                    {"type": "response.output_item.done", "item": _item(body)},
                    {"type": "response.completed", "response": {"id": "resp_1", "usage": usage}},
                ):
                    self.wfile.write(
                        f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode()
                    )
                    self.wfile.flush()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAI:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

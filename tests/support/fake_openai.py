"""A stand-in for the OpenAI Responses API, for driving the real ``codex exec`` offline.

The first request of a turn is answered with one ``exec_command`` call (``echo <marker>``, the
marker taken from the prompt); a request that carries the call's output with a short message,
so the run ends right after a tool call. Answers are streamed as server-sent events.
``FakeOpenAI(command=...)`` runs that shell command instead of the echo, and
``FakeOpenAI(patch=...)`` applies that patch with Codex's ``apply_patch`` (a freeform tool: a
``custom_tool_call`` whose ``input`` is the patch).

``FakeOpenAI(search=..., call=...)`` plays a model that finds a deferred tool first: Codex
offers MCP tools only behind its client-side ``tool_search`` tool, so the first request is
answered with a ``tool_search_call`` (the shape of Codex's ``ResponseItem::ToolSearchCall``:
``call_id``, ``execution: "client"``, ``arguments: {query, limit}``); the request that carries
Codex's ``tool_search_output`` with a ``function_call`` of the tool named ``call`` in the
namespace the search returned (``namespace`` + ``name``, as Codex expects a namespaced tool's
call), its arguments ``{"query": <marker>}``; and the request that carries that call's output
with the short message.

``FakeOpenAI(steps=[...])`` plays a script instead: the request that carries N tool outputs is
answered with step N (``("shell", command)``: ``exec_command``; ``("write", path, content)``:
an ``apply_patch`` that adds the file), and the one after the last step with the message.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MARKER = re.compile(r"marker-[a-z0-9-]+")
OUTPUTS = ("function_call_output", "custom_tool_call_output")


def _scripted(
    items: list[dict[str, Any]], steps: list[tuple[str, ...]], marker: str
) -> dict[str, Any]:
    done = sum(1 for i in items if i.get("type") in OUTPUTS)
    if done >= len(steps):
        text = {"type": "output_text", "text": f"Done with {marker}."}
        return {"type": "message", "role": "assistant", "id": "msg_1", "content": [text]}
    step = steps[done]
    if step[0] == "shell":
        return {
            "type": "function_call",
            "id": f"fc_{done}",
            "name": "exec_command",
            "arguments": json.dumps({"cmd": step[1]}),
            "call_id": f"call_step_{done}",
        }
    added = "".join(f"+{line}\n" for line in step[2].splitlines())
    patch = f"*** Begin Patch\n*** Add File: {step[1]}\n{added}*** End Patch\n"
    return {
        "type": "custom_tool_call",
        "id": f"ctc_{done}",
        "call_id": f"call_step_{done}",
        "name": "apply_patch",
        "input": patch,
    }


def _item(
    body: dict[str, Any],
    search: str | None = None,
    call: str = "",
    command: str = "",
    patch: str = "",
    steps: list[tuple[str, ...]] | None = None,
) -> dict[str, Any]:
    items = [i for i in body.get("input") or [] if isinstance(i, dict)]
    found = MARKER.search(json.dumps([i for i in items if i.get("type") == "message"]))
    marker = found.group(0) if found else "marker-none"
    if steps is not None:
        return _scripted(items, steps, marker)
    if any(i.get("type") in OUTPUTS for i in items):
        text = {"type": "output_text", "text": f"Done with {marker}."}
        return {"type": "message", "role": "assistant", "id": "msg_1", "content": [text]}
    if search is not None:
        return _searched(items, search, call, marker)
    if patch:
        return {
            "type": "custom_tool_call",
            "id": "ctc_1",
            "call_id": f"call_patch_{marker.replace('-', '_')}",
            "name": "apply_patch",
            "input": patch,
        }
    args = json.dumps({"cmd": command or f"echo {marker}"})
    return {
        "type": "function_call",
        "id": "fc_1",
        "name": "exec_command",
        "arguments": args,
        "call_id": f"call_{marker.replace('-', '_')}",
    }


def _searched(items: list[dict[str, Any]], search: str, call: str, marker: str) -> dict[str, Any]:
    outputs = [i for i in items if i.get("type") == "tool_search_output"]
    if not outputs:
        return {
            "type": "tool_search_call",
            "id": "ts_1",
            "call_id": "search_1",
            "status": "completed",
            "execution": "client",
            "arguments": {"query": search, "limit": 20},  # Kindling has 9 tools; the default is 8
        }
    for tool in outputs[-1].get("tools") or []:
        names = [t.get("name") for t in tool.get("tools") or [] if isinstance(t, dict)]
        if tool.get("type") == "namespace" and call in names:
            return {
                "type": "function_call",
                "id": "fc_2",
                "namespace": tool["name"],
                "name": call,
                "arguments": json.dumps({"query": marker}),
                "call_id": f"call_{call}_1",
            }
    text = {"type": "output_text", "text": f"tool_search found no {call}."}
    return {"type": "message", "role": "assistant", "id": "msg_1", "content": [text]}


class FakeOpenAI:
    """``with FakeOpenAI() as api:`` serves ``api.url`` (the ``base_url``, ending in /v1)."""

    def __init__(
        self,
        search: str | None = None,
        call: str = "",
        command: str = "",
        patch: str = "",
        steps: list[tuple[str, ...]] | None = None,
    ) -> None:
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
                    {
                        "type": "response.output_item.done",
                        "item": _item(body, search, call, command, patch, steps),
                    },
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

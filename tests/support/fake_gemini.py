"""A stand-in for the Gemini API, for driving the real ``gemini -p`` offline.

A streamed request whose last turn carries no function response is answered with one
``run_shell_command`` call (``echo <marker>``, the marker taken from the prompt); one that
carries the call's response with a short text, so the run ends right after a tool call.
``FakeGemini(tool="status")`` calls Kindling's MCP tool of that name instead of the shell. Other
requests (token counts, the CLI's own small JSON questions) get a neutral answer.

``FakeGemini(steps=[...])`` plays a script instead: the request that carries N function
responses is answered with step N (``("shell", command)``: ``run_shell_command``;
``("write", path, content)``: ``write_file``), and the one after the last step with the text.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MARKER = re.compile(r"marker-[a-z0-9-]+")


def _offered(body: dict[str, Any], tool: str) -> str | None:
    """The name Gemini CLI gave Kindling's MCP tool ``tool`` in this request, if offered."""
    for group in body.get("tools") or []:
        for decl in group.get("functionDeclarations") or [] if isinstance(group, dict) else []:
            name = decl.get("name") if isinstance(decl, dict) else None
            if isinstance(name, str) and "kindling" in name and name.endswith(tool):
                return name
    return None


def _step(step: tuple[str, ...]) -> dict[str, Any]:
    if step[0] == "shell":
        args = {"command": step[1], "description": "Run a command"}
        return {"functionCall": {"name": "run_shell_command", "args": args}}
    args = {"file_path": step[1], "content": step[2]}
    return {"functionCall": {"name": "write_file", "args": args}}


def _responses(contents: list[Any]) -> int:
    """How many function responses the conversation holds."""
    return sum(
        1
        for turn in contents
        if isinstance(turn, dict)
        for part in turn.get("parts") or []
        if isinstance(part, dict) and "functionResponse" in part
    )


def _answer(
    path: str,
    body: dict[str, Any],
    tool: str | None = None,
    steps: list[tuple[str, ...]] | None = None,
) -> dict[str, Any]:
    if "countTokens" in path:
        return {"totalTokens": 10}
    contents = body.get("contents") or []
    found = MARKER.search(json.dumps(contents))
    marker = found.group(0) if found else "marker-none"
    parts: list[dict[str, Any]]
    done = _responses(contents)
    scripted = steps is not None and "streamGenerateContent" in path
    if scripted and steps is not None and done < len(steps):
        parts = [_step(steps[done])]
    elif scripted or "functionResponse" in json.dumps(contents[-1:]):
        parts = [{"text": f"Done with {marker}."}]
    elif "streamGenerateContent" in path and tool and (name := _offered(body, tool)):
        parts = [{"functionCall": {"name": name, "args": {}}}]
    elif "streamGenerateContent" in path:
        args = {"command": f"echo {marker}", "description": "Print the marker"}
        parts = [{"functionCall": {"name": "run_shell_command", "args": args}}]
    else:
        # the CLI's own JSON questions: which speaker is next, which model, how complex
        answer: dict[str, Any] = {"reasoning": "-", "next_speaker": "user", "model_choice": "flash"}
        answer |= {"complexity_reasoning": "-", "complexity_score": 10}
        parts = [{"text": json.dumps(answer)}]
    candidate = {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
    usage = {"promptTokenCount": 5, "candidatesTokenCount": 5, "totalTokenCount": 10}
    return {"candidates": [candidate], "usageMetadata": usage}


class FakeGemini:
    """``with FakeGemini() as api:`` serves ``api.url`` (for ``GOOGLE_GEMINI_BASE_URL``)."""

    def __init__(self, tool: str | None = None, steps: list[tuple[str, ...]] | None = None) -> None:
        self.bodies: list[dict[str, Any]] = []  # every request, for the tools it offered
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _send(self, status: int, kind: str, raw: bytes) -> None:
                self.send_response(status)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def do_GET(self) -> None:
                self._send(200, "application/json", b"{}")

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                owner.bodies.append(body)
                answer = _answer(self.path, body, tool, steps)
                if "alt=sse" in self.path:
                    self._send(200, "text/event-stream", f"data: {json.dumps(answer)}\n\n".encode())
                else:
                    self._send(200, "application/json", json.dumps(answer).encode())

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> FakeGemini:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

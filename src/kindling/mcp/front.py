"""The front of ``kindling mcp``: answers ``initialize``, ``tools/list`` and ``ping`` from a
listing kept beside this module (``listing.json``) before the MCP SDK is imported, then hands
the session to the SDK server (``kindling.mcp.server``) at the first other message.

Why: importing the SDK (and pydantic) takes 1.5-1.8 s on an idle 2-core machine, 3-7 s under
load, and an agent that starts Kindling's server asks for its tools at once (Codex sends its
first model request without waiting; Gemini CLI gives up after 5 s). The SDK loads in a
background thread as soon as ``initialize`` is answered, so a first ``tools/call`` waits for
little or nothing.

The hand-off replays the client's ``initialize`` (its answer dropped: the client has ours) and
``notifications/initialized`` to the SDK, then every line as it comes. ``listing.json`` is what
the SDK itself answers (``listing()`` builds it; tests/mcp/test_mcp_front.py checks they agree,
and ``python -m kindling.mcp.front --write`` refreshes it).

Standard library only at module level. Adapter: must not be imported by the core.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from typing import IO, Any

import kindling.mcp.handoff as handoff

LISTING = os.path.join(os.path.dirname(__file__), "listing.json")


class Front:
    """The messages read before the hand-off, and the client's ``initialize``."""

    def __init__(self, stdin: IO[bytes], stdout: IO[bytes]) -> None:
        self.stdin, self.stdout = stdin, stdout
        self.initialize: dict[str, Any] | None = None
        self.pending: list[bytes] = []
        self._listing: dict[str, Any] | None = None

    def listing(self) -> dict[str, Any]:
        if self._listing is None:
            with open(LISTING, encoding="utf-8") as fh:
                self._listing = json.load(fh)
        return self._listing

    def _send(self, message_id: Any, result: dict[str, Any]) -> None:
        line = json.dumps({"jsonrpc": "2.0", "id": message_id, "result": result})
        self.stdout.write(line.encode() + b"\n")
        self.stdout.flush()

    def _initialized(self, params: Any) -> dict[str, Any]:
        from kindling import __version__

        listing = self.listing()
        asked = params.get("protocolVersion") if isinstance(params, dict) else None
        version = asked if asked in listing["handshake"] else listing["handshake"][-1]
        return {
            "capabilities": listing["capabilities"],
            "instructions": listing["instructions"],
            "protocolVersion": version,
            "serverInfo": {"name": "kindling", "version": __version__},
        }

    def answer(self, line: bytes) -> bool:
        """Answer ``line`` here when it is one of the messages the front knows; False hands
        the session (this line included) to the SDK."""
        try:
            message = json.loads(line)
        except ValueError:
            return not line.strip()  # a blank line is nothing; anything else is the SDK's
        if not isinstance(message, dict):
            return False
        method, has_id = message.get("method"), "id" in message
        params = message.get("params")
        if method == "initialize" and has_id and self.initialize is None:
            self._send(message["id"], self._initialized(params))
            self.initialize = message
            return True
        if self.initialize is None:
            return False
        if method == "notifications/initialized" and not has_id:
            return True
        if method == "ping" and has_id:
            self._send(message["id"], {})
            return True
        cursor = params.get("cursor") if isinstance(params, dict) else None
        if method == "tools/list" and has_id and cursor is None:
            self._send(message["id"], {"tools": self.listing()["tools"]})
            return True
        return False

    def run(self) -> bool:
        """Answer what the front can; True when the client asked for more (hand off), False
        when it hung up first."""
        while True:
            line = self.stdin.readline()
            if not line:
                return False
            if self.answer(line):
                if self.initialize is not None:
                    _preload()
                continue
            self.pending.append(line)
            return True

    def replay(self) -> list[bytes]:
        """What the SDK reads first: the client's initialize under our id, then the lines the
        front did not answer."""
        out: list[bytes] = []
        if self.initialize is not None:
            replayed = {**self.initialize, "id": handoff.REPLAYED_ID}
            initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
            out += [json.dumps(replayed).encode() + b"\n", json.dumps(initialized).encode() + b"\n"]
        return out + self.pending


_preloading: threading.Thread | None = None


def _preload() -> None:
    """Import the SDK server in the background, once: the hand-off finds it loaded."""
    global _preloading
    if _preloading is None:
        import importlib

        _preloading = threading.Thread(
            target=lambda: importlib.import_module("kindling.mcp.server"), daemon=True
        )
        _preloading.start()


FRONT_ENV = "KINDLING_MCP_FRONT"  # "off": the SDK answers everything (for comparison)


def sdk_answers(kindling: str, version: str = "2025-06-18") -> tuple[dict[str, Any], ...]:
    """The SDK server's own answers to ``initialize`` and ``tools/list`` (``kindling mcp``
    with the front off, over its stdio)."""
    import subprocess

    env = {**os.environ, FRONT_ENV: "off"}
    hello = {
        "protocolVersion": version,
        "capabilities": {},
        "clientInfo": {"name": "k", "version": "0"},
    }
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    text = "".join(json.dumps(m) + "\n" for m in messages)
    proc = subprocess.Popen(
        [kindling, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    proc.stdin.write(text)
    proc.stdin.flush()
    answers = tuple(json.loads(proc.stdout.readline())["result"] for _ in range(2))
    proc.stdin.close()
    proc.wait(timeout=30)
    proc.stdout.close()
    return answers


def listing(kindling: str) -> dict[str, Any]:
    """The listing the front answers from, as the SDK server answers."""
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

    initialized, tools = sdk_answers(kindling)
    return {
        "handshake": list(HANDSHAKE_PROTOCOL_VERSIONS),
        "capabilities": initialized["capabilities"],
        "instructions": initialized["instructions"],
        "tools": tools["tools"],
    }


if __name__ == "__main__":  # python -m kindling.mcp.front --write
    if sys.argv[1:] == ["--write"]:
        found = listing(os.path.join(os.path.dirname(sys.executable), "kindling"))
        with open(LISTING, "w", encoding="utf-8") as fh:
            json.dump(found, fh, indent=1, ensure_ascii=False)
            fh.write("\n")

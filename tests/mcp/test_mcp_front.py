"""``kindling mcp`` answers the handshake and the tool list before it imports the MCP SDK
(``kindling.mcp.front``), exactly as the SDK would, and hands the session over to the SDK at
the first other message without the client seeing a seam. (Its speed is measured in
bench/mcp_start.py, not here.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kindling.mcp import front

pytest.importorskip("mcp")

KINDLING = str(Path(sys.executable).with_name("kindling"))
HELLO = {"capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}


class Client:
    def __init__(self, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            [KINDLING, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )

    def send(self, message: dict[str, Any] | str) -> None:
        assert self.proc.stdin is not None
        text = message if isinstance(message, str) else json.dumps(message)
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def rpc(self, message_id: Any, method: str, params: Any = None) -> dict[str, Any]:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": message_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.read()

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return answer

    def close(self) -> int:
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout=60)
        self.proc.stdout.close()
        return code


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25", "1999-01-01"])
def test_the_front_answers_as_the_sdk_does(version: str) -> None:
    sdk = front.sdk_answers(KINDLING, version)
    client = Client()
    first = client.rpc(1, "initialize", {**HELLO, "protocolVersion": version})
    client.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    tools = client.rpc(2, "tools/list")
    assert client.close() == 0
    assert first["result"] == sdk[0]
    assert tools["result"] == sdk[1]


def test_the_listing_kept_beside_the_front_is_the_sdks() -> None:
    """Refresh it with ``python -m kindling.mcp.front --write`` when a tool changes."""
    kept = json.loads(Path(front.LISTING).read_text(encoding="utf-8"))
    assert kept == front.listing(KINDLING)


def test_a_session_goes_on_through_the_sdk_without_a_seam() -> None:
    client = Client()
    assert client.rpc(1, "initialize", {**HELLO, "protocolVersion": "2025-06-18"})["id"] == 1
    client.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert client.rpc(2, "ping") == {"jsonrpc": "2.0", "id": 2, "result": {}}
    listed = client.rpc(3, "tools/list")["result"]["tools"]
    status = client.rpc(4, "tools/call", {"name": "status", "arguments": {}})
    assert status["id"] == 4
    assert status["result"].get("isError") is not True, status
    assert client.rpc(5, "tools/list")["result"]["tools"] == listed  # now from the SDK
    assert client.rpc("six", "ping")["id"] == "six"
    assert client.close() == 0


def test_bad_input_first_goes_to_the_sdk_and_the_session_survives() -> None:
    client = Client()
    client.send("{not json")  # the SDK skips it, as it does without the front
    first = client.rpc(1, "initialize", {**HELLO, "protocolVersion": "2025-06-18"})
    assert first["result"]["serverInfo"]["name"] == "kindling"
    assert client.close() == 0


def test_a_client_that_hangs_up_after_the_handshake_ends_the_server() -> None:
    client = Client()
    client.rpc(1, "initialize", {**HELLO, "protocolVersion": "2025-06-18"})
    assert client.close() == 0

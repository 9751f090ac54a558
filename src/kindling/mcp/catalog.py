"""The MCP tools by name and title: the one list the help of ``kindling mcp`` and
docs/agents.md are written from.

It reads ``listing.json``, the tool list ``kindling mcp`` answers before the SDK loads (which
tests/mcp/test_mcp_front.py checks against the SDK's own answer), so adding a tool to the server
adds it here, and a test fails until the docs name it. No SDK import: the CLI reads this for
its help.

Adapter: must not be imported by the core.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

LISTING = Path(__file__).with_name("listing.json")


@functools.cache
def tools() -> tuple[tuple[str, str], ...]:
    """(name, title) of every tool, in the order the server lists them."""
    listing = json.loads(LISTING.read_text(encoding="utf-8"))
    return tuple((str(t["name"]), str(t["title"])) for t in listing["tools"])


def names() -> tuple[str, ...]:
    return tuple(name for name, _title in tools())

"""``kindling mcp``: Kindling's memory as Model Context Protocol tools over stdio.

The tools (their one list: ``catalog``, read from ``listing.json``) are in ``tools`` and, for
``timeline`` and ``get``, which open a hit, ``disclosure``; ``server`` registers them with the
official SDK, ``render`` holds the compact shapes they answer with.
The output schemas are in ``kindling.mcp.schemas`` (plain JSON Schema, no SDK).

Adapter: one ``Kindling`` call per tool, no SQL, no ranking. Must not be imported by the core.
Nothing is imported here up front: ``kindling mcp`` answers the handshake (``front``) before
the SDK loads, and importing this package must not load it.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["MAX_QUERY_CHARS", "SNIPPET_CHARS", "build_server", "serve"]
_HOME = {
    "MAX_QUERY_CHARS": "kindling.mcp.tools",
    "SNIPPET_CHARS": "kindling.mcp.render",
    "build_server": "kindling.mcp.server",
    "serve": "kindling.mcp.server",
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'kindling.mcp' has no attribute {name!r}")
    return getattr(importlib.import_module(_HOME[name]), name)

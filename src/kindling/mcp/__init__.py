"""``kindling mcp``: Kindling's memory as Model Context Protocol tools over stdio.

Tools: ``retrieve``, ``remember``, ``pin``, ``unpin``, ``forget``, ``recent``, ``status``
(``tools``), and ``timeline`` and ``get``, which open a hit (``disclosure``); ``server``
registers them with the official SDK, ``render`` holds the compact shapes they answer with.
The output schemas are in ``kindling.mcp.schemas`` (plain JSON Schema, no SDK).

Adapter: one ``Kindling`` call per tool, no SQL, no ranking. Must not be imported by the core.
"""

from kindling.mcp.render import SNIPPET_CHARS
from kindling.mcp.server import build_server, serve
from kindling.mcp.tools import MAX_QUERY_CHARS

__all__ = ["MAX_QUERY_CHARS", "SNIPPET_CHARS", "build_server", "serve"]

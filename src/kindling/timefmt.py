"""Coarse relative times for people and models (``3 h ago``, ``just now``, ``in 2 d``).

Shared by the adapters that show ages (CLI, MCP), so that they all round the same way.
Must not import anything from Kindling.
"""

from __future__ import annotations


def relative(ms: int, now: int) -> str:
    """``3 h ago``, ``just now``, ``in 2 d``: coarse, one unit."""
    delta = now - ms
    future = delta < 0
    seconds = abs(delta) // 1000
    if seconds < 45:
        return "just now" if not future else "in a moment"
    if future:
        seconds += 30  # a 7-day expiry set a moment ago still reads "in 7 d", not "in 6 d"
    for size, unit in ((86_400 * 365, "y"), (86_400, "d"), (3_600, "h"), (60, "min")):
        if seconds >= size:
            amount = f"{seconds // size} {unit}"
            return f"in {amount}" if future else f"{amount} ago"
    return "in 1 min" if future else "1 min ago"

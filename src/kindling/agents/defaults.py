"""The parts of the ``Agent`` protocol (``agents.protocol``) most agents fill the same way: an
agent module that has nothing of its own there names these (``missed = nothing_missed``).

Must not import click, the CLI, the MCP server, the engine or a store; only the standard
library (hook processes import it).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from kindling.agents.events import HookPayload
    from kindling.agents.protocol import Found


def nothing_missed(p: HookPayload) -> Found:
    """``missed`` and ``earlier`` of an agent whose hooks miss nothing (they are synchronous,
    or it keeps no transcript Kindling reads)."""
    return [], None


def nothing_to_note(p: HookPayload) -> None:
    """``noted`` of an agent with nothing to remember about a session."""


def nothing_pending() -> str | None:
    """``pending`` of an agent that has nothing of its own to do before Kindling's hooks run."""
    return None


def never_visiting(host: str, data: dict[str, Any]) -> bool | None:
    """``visiting`` of an agent that sends no payload to another agent's hooks."""
    return None

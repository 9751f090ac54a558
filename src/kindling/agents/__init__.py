"""Agent integrations: one module per coding agent (Claude Code, Gemini CLI, Codex, OpenCode,
Cursor), each filling the seam described in ``kindling.agents.base``.

An agent module translates its agent's native hook payloads into the canonical events (Claude
Code's hook schema) and writes its agent's native config. Everything else is common: the one
mapping from a canonical event to records (``hooks.capture.records``, used by the local and
the remote mode alike), the spool, the runner and the injected context (``kindling.hooks``).
Adding an agent is adding one module here (found by ``names``) plus its tests.

Must not import click, the CLI, the MCP server, the engine or a store; only the standard
library at module level (hook processes import it).
"""

from __future__ import annotations

import importlib
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

SEAM = ("base",)  # the shared modules of this package, not agents


def module_name(name: str) -> str:
    return name.replace("-", "_")


def names() -> tuple[str, ...]:
    """Every agent, by its ``NAME`` spelling (``claude-code``, ``gemini``, ...), sorted."""
    here = os.path.dirname(__file__)
    found = []
    for entry in os.listdir(here):
        stem, ext = os.path.splitext(entry)
        if ext == ".py" and not stem.startswith("_") and stem not in SEAM:
            found.append(stem.replace("_", "-"))
    return tuple(sorted(found))


def load(name: str) -> ModuleType:
    """The module of agent ``name``; ``ValueError`` for an agent Kindling does not know."""
    if name not in names():
        raise ValueError(f"unknown agent {name!r}; use one of: {', '.join(names())}")
    return importlib.import_module(f"kindling.agents.{module_name(name)}")

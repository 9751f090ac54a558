"""Agent integrations, and the registry: the one list of the coding agents Kindling knows.

Each agent is one module here (Claude Code, Codex, Cursor, Gemini CLI, OpenCode) that fills
the ``Agent`` protocol (``agents.protocol``): it translates its agent's native hook payloads
into the canonical events (``agents.events``, the contract every agent and the hooks share)
and writes its agent's native config. Everything else is common: the one mapping from a
canonical event to records, the spool, the runner and the injected context (``kindling.hooks``).

``BUILTIN`` is the list: ``kindling hook --agent`` (``read``), the flags and help of ``kindling
init``, ``kindling doctor`` and the hooks' help all read it, through ``get`` and ``agents``. A sixth
agent is one module plus its line in ``BUILTIN`` (and its tests); ``register`` adds one from
outside (a test's fake). An agent's module is imported when it is asked for: a hook process
imports only its own agent's.

Must not import click, the CLI, the MCP server, the engine or a store; only the standard
library at module level (hook processes import it).
"""

from __future__ import annotations

from kindling.agents.events import DEFAULT_AGENT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from kindling.agents.events import HookPayload
    from kindling.agents.protocol import Agent

# The built-in agents, by module (``kindling.agents.<module>``); an agent's name is its
# module's with "-" for "_" (its ``NAME``).
BUILTIN: tuple[str, ...] = ("claude_code", "codex", "cursor", "gemini", "opencode")
DEFAULT = DEFAULT_AGENT  # the agent of ``kindling hook`` without ``--agent``

_loaded: dict[str, Agent] = {}
_added: dict[str, Agent] = {}


def names() -> tuple[str, ...]:
    """Every agent's name (``claude-code``, ``gemini``, ...), sorted."""
    return tuple(sorted([m.replace("_", "-") for m in BUILTIN] + list(_added)))


def get(name: str) -> Agent:
    """The agent called ``name``; ``ValueError`` for one Kindling does not know."""
    found = _added.get(name) or _loaded.get(name)
    if found is not None:
        return found
    module = name.replace("-", "_")
    if module not in BUILTIN:
        raise ValueError(f"unknown agent {name!r}; use one of: {', '.join(names())}")
    import importlib

    agent: Agent = importlib.import_module(f"kindling.agents.{module}")
    _loaded[name] = agent
    return agent


def agents() -> list[Agent]:
    """Every agent, by name (imports each one's module)."""
    return [get(name) for name in names()]


def register(agent: Agent) -> None:
    """Add an agent from outside this package (any object that is an ``Agent``)."""
    if agent.NAME in names():
        raise ValueError(f"an agent named {agent.NAME!r} is registered already")
    _added[agent.NAME] = agent


def unregister(name: str) -> None:
    """Take out an agent ``register`` added (a test's fake, after the test)."""
    _added.pop(name, None)


def read(name: str, event: str | None, data: dict[str, Any]) -> tuple[HookPayload, Agent] | None:
    """A hook's input, for a hook of agent ``name`` installed for ``event`` (None: the payload's
    ``hook_event_name``), as the canonical payload, and the agent that sent it; None when the
    event leaves nothing to record. Another agent may send its own payloads to this agent's
    hooks (Cursor runs Claude Code's): a ``hook_event_name`` this agent does not have is
    offered to the other agents (``visiting``), and only then are their modules imported.
    ``ValueError`` for an event the agent does not have."""
    from kindling.agents.events import HookPayload

    agent = get(name)
    sent = data.get("hook_event_name")
    if isinstance(sent, str) and sent not in agent.EVENTS:
        for other in agents():
            if other.NAME == agent.NAME:
                continue
            own_hooks = other.visiting(agent.NAME, data)
            if own_hooks is True:
                return None  # its own hook records this event
            if own_hooks is False:
                agent, event = other, None  # recorded as its own event
                break
    native = event or data.get("hook_event_name")
    if not isinstance(native, str) or native not in agent.EVENTS:
        raise ValueError(
            f"{agent.NAME} event {native!r} is not one Kindling records; "
            f"use one of: {', '.join(agent.EVENTS)}"
        )
    canonical = agent.canonical(data, native)
    if canonical is None:
        return None
    payload = HookPayload(canonical, canonical.get("hook_event_name") or agent.EVENTS[native])
    payload.agent, payload.agent_label = agent.NAME, agent.LABEL
    return payload, agent

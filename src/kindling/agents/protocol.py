"""``Agent``: what Kindling asks of a coding agent's integration, once.

Each agent module (``kindling.agents.<name>``) is an ``Agent``: its module-level names fill
the protocol, and the module states it at its end with a ``TYPE_CHECKING`` assignment of
itself to ``Agent``, so mypy fails when one of them lacks a member or spells one wrongly (a
fake agent in a test is any object with these members). The registry
(``kindling.agents``) maps names to agents; callers (``kindling hook``, ``kindling init``,
``kindling doctor``) hold an ``Agent`` and never probe a module for what it has.

Imported only under ``TYPE_CHECKING`` by the hooks (``typing`` costs a hook process
milliseconds); the parts an agent may leave as they are have defaults in
``agents.defaults``.

Must not import click, the CLI, the MCP server, the engine or a store.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from kindling.agents.base import FileChange, Scope
from kindling.agents.events import HookPayload

# Canonical payloads (event, payload) an agent found outside its hooks, and what to call once
# their records are safe in the spool (None: nothing to remember).
Found = tuple[list[tuple[str, dict[str, Any]]], Callable[[], None] | None]


class Agent(Protocol):
    """One coding agent: its names, its events, its payloads, its config files."""

    @property
    def NAME(self) -> str:
        """``--agent`` of ``kindling hook`` and the ``source`` of its observations."""

    @property
    def LABEL(self) -> str:
        """Its name for people ("Gemini CLI"), and in its sessions' intents."""

    @property
    def FLAG(self) -> str:
        """Its flag of ``kindling init`` (``--gemini``)."""

    @property
    def WRITES(self) -> str:
        """What ``init`` writes for it, project scope, for the help (``.gemini/settings.json
        (mcpServers, hooks)``)."""

    @property
    def SETUP_NOTE(self) -> str | None:
        """What it needs before its hooks run, said by ``init`` and ``doctor`` (None: nothing)."""

    def pending(self) -> str | None:
        """What the agent has still to do itself before Kindling's hooks run without a wait,
        as its own files stand now (None: nothing); ``init`` and ``doctor`` say it after
        ``SETUP_NOTE`` (OpenCode: its own first install, which it waits for offline)."""

    @property
    def EVENTS(self) -> Mapping[str, str]:
        """Its native hook events, each mapped to the canonical event (``agents.events``)."""

    def canonical(self, data: dict[str, Any], event: str) -> dict[str, Any] | None:
        """Its native payload of ``event`` as the canonical payload (Claude Code's field names;
        ``hook_event_name`` when it is not ``EVENTS[event]``), or None: nothing to record."""

    def render(self, event: str, output: dict[str, Any]) -> dict[str, Any] | None:
        """The context to print (``hookSpecificOutput``, Claude Code's shape) in its own shape,
        or None: print nothing."""

    def visiting(self, host: str, data: dict[str, Any]) -> bool | None:
        """For a payload a hook of agent ``host`` received with an event ``host`` does not
        have: None when this agent did not send it; else whether its own hooks record that
        event (True: the host's hook records nothing; False: record it as this agent's)."""

    def missed(self, p: HookPayload) -> Found:
        """At a synchronous point of a session: the tool calls its hooks may have missed."""

    def noted(self, p: HookPayload) -> None:
        """At a session's first prompt: remember what ``earlier`` needs to find it again."""

    def earlier(self, p: HookPayload) -> Found:
        """At SessionStart: what recent other sessions left that their hooks missed."""

    def install(
        self,
        scope: Scope,
        cwd: str | None = None,
        exe: str | None = None,
        *,
        skip_tools: tuple[str, ...] = (),
    ) -> list[FileChange]:
        """Write its MCP config and capture hooks (``skip_tools``: the tools its hooks need
        not start for); each file keeps the user's keys, backed up first."""

    def uninstall(self, scope: Scope, cwd: str | None = None) -> list[FileChange]:
        """Take out exactly what ``install`` added."""

    def hook_file(self, scope: Scope, cwd: str | None = None) -> Path:
        """The file that holds its hooks once ``install`` ran (``kindling doctor``)."""

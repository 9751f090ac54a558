"""``kindling init``: create the database, and optionally wire Kindling into coding agents.

A thin adapter over ``Kindling.open`` (which creates and migrates the database) and the agents
of ``kindling.agents`` (each writes its own MCP config and capture hooks). Its flags and help
are read from the agents' registry: one flag per agent, so a new agent is a new flag.

Must not be imported by the core.
"""

from __future__ import annotations

from typing import Any

import click

from kindling import KindlingError
from kindling.agents import DEFAULT, agents
from kindling.agents.base import Scope
from kindling.cli.state import State, emit_json, fail, json_option, pass_state
from kindling.hooks.config import load_hook_config

AGENTS = {agent.NAME: agent for agent in agents()}


def _option(name: str) -> str:
    return name.replace("-", "_")


def _agent_options(func: Any) -> Any:
    for name, agent in sorted(AGENTS.items(), reverse=True):
        func = click.option(
            agent.FLAG,
            _option(name),
            is_flag=True,
            help=f"Also wire in {agent.LABEL}: {agent.WRITES}.",
        )(func)
    return func


def _help() -> str:
    first = AGENTS[DEFAULT]
    others = [a for a in AGENTS.values() if a.NAME != DEFAULT]
    pair = " ".join(a.FLAG for a in others[:2])
    last = others[-1] if others else first
    width = max(len(a.FLAG) for a in AGENTS.values()) + 2
    rows = "\n".join(f"  {a.FLAG.ljust(width)}{a.WRITES}" for a in AGENTS.values())
    examples = [
        ("kindling init", "just the database"),
        (f"kindling init {first.FLAG}", f"memory on for {first.LABEL}, this repository"),
        (f"kindling init {first.FLAG} --scope user", "... for every repository of this user"),
        (f"kindling init {pair}", " and ".join(a.LABEL for a in others[:2]) + ", this repository"),
        (f"kindling init {last.FLAG} --uninstall", f"take Kindling out of {last.LABEL}'s config"),
    ]
    pad = max(len(command) for command, _ in examples) + 2
    lines = "\n".join(f"  {command.ljust(pad)}# {why}" for command, why in examples)
    return f"""Create the database (idempotent) and print where it is.

\b
Example:
{lines}

\b
What each agent gets (project scope; --scope user writes the same files in ~):
{rows}

Every file keeps its other keys; the old file is backed up next to it
(<name>.kindling-backup-<time>) before any change, and a file that cannot be parsed is
refused, never overwritten.
"""


@click.command("init", help=_help())
@_agent_options
@click.option(
    "--scope",
    type=click.Choice(["project", "user"]),
    default="project",
    show_default=True,
    help="project: the repository's agent config files; user: the ones in your home.",
)
@click.option(
    "--uninstall",
    is_flag=True,
    help="With an agent flag: remove exactly what Kindling added (the database stays).",
)
@json_option
@pass_state
def command(state: State, /, scope: str, uninstall: bool, as_json: bool, **flags: bool) -> None:
    chosen = [name for name in AGENTS if flags.get(_option(name))]
    if uninstall and not chosen:
        flags_text = ", ".join(m.FLAG for m in AGENTS.values())
        raise click.UsageError(f"--uninstall goes with an agent flag ({flags_text})")
    where: Scope = "user" if scope == "user" else "project"
    try:
        report: dict[str, Any] = {}
        if not uninstall:
            with state.open():
                pass
            report["db"] = str(state.db)
        action = "uninstall" if uninstall else "install"
        skip_tools = load_hook_config().skip_tools
        for name in chosen:
            agent = AGENTS[name]
            if uninstall:
                changes = agent.uninstall(where)
            else:
                changes = agent.install(where, skip_tools=skip_tools)
            report.setdefault("agents", {})[name] = [c.to_dict(action) for c in changes]
            note = "; ".join(n for n in (agent.SETUP_NOTE, agent.pending()) if n)
            if note and not uninstall:
                report.setdefault("notes", {})[name] = note
            if name == DEFAULT:  # the shape this command printed before other agents
                first = changes[0].to_dict(action)
                first["events"] = first.pop("items")
                report["settings"] = first
    except KindlingError as exc:
        fail(exc, as_json=as_json)
    if as_json:
        emit_json(report)
        return
    if "db" in report:
        click.echo(f"Database: {report['db']}")
    for name, changes in report.get("agents", {}).items():
        _describe(AGENTS[name].LABEL, changes, uninstall)
        if note := report.get("notes", {}).get(name):
            click.echo(f"Note: {note}.")


def _describe(label: str, changes: list[dict[str, Any]], uninstall: bool) -> None:
    for info in changes:
        if not info["changed"]:
            state = "not installed" if uninstall else "already installed"
            click.echo(f"{label}: {state} in {info['path']} (nothing changed)")
            continue
        verb = "removed from" if uninstall else "installed in"
        click.echo(f"{label}: {', '.join(info['items'])} {verb} {info['path']}")
        if info["backup"]:
            click.echo(f"Previous file saved as {info['backup']}")
    if not uninstall and any(info["changed"] for info in changes):
        click.echo(f"Start a new {label} session in this repository to use them.")

"""``kindling init``: create the database, and optionally wire Kindling into coding agents.

A thin adapter over ``Kindling.open`` (which creates and migrates the database) and
``kindling.agents`` (each agent module writes its own MCP config and capture hooks). One flag
per agent module (``--claude-code``, ``--gemini``, ``--codex``, ``--opencode``, ``--cursor``),
read from the modules themselves, so a new agent module is a new flag.

Must not be imported by the core.
"""

from __future__ import annotations

from typing import Any

import click

from kindling import KindlingError
from kindling.agents import load, module_name, names
from kindling.cli.state import State, emit_json, fail, json_option, pass_state

AGENTS = {name: load(name) for name in names()}


def _agent_options(func: Any) -> Any:
    for name, module in sorted(AGENTS.items(), reverse=True):
        func = click.option(
            module.FLAG,
            module_name(name),
            is_flag=True,
            help=f"Also write {module.LABEL}'s MCP config and capture hooks.",
        )(func)
    return func


@click.command("init")
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
    """Create the database (idempotent) and print where it is.

    \b
    Example:
      kindling init                              # just the database
      kindling init --claude-code                # memory on for Claude Code, this repository
      kindling init --claude-code --scope user   # ... for every repository of this user
      kindling init --gemini --codex             # Gemini CLI and Codex, this repository
      kindling init --cursor --uninstall         # take Kindling out of Cursor's config again

    \b
    What each agent gets (project scope; --scope user writes the same files in ~):
      --claude-code  .claude/settings.json (hooks)
      --gemini       .gemini/settings.json (mcpServers, hooks)
      --codex        .codex/config.toml ([mcp_servers.kindling]), .codex/hooks.json
      --opencode     opencode.json (mcp, plugin), and the plugin in Kindling's home
                     ($KINDLING_HOME/opencode/)
      --cursor       .cursor/mcp.json (mcpServers), .cursor/hooks.json

    Every file keeps its other keys; the old file is backed up next to it
    (<name>.kindling-backup-<time>) before any change, and a file that cannot be parsed is
    refused, never overwritten.
    """
    chosen = [name for name in AGENTS if flags.get(module_name(name))]
    if uninstall and not chosen:
        flags_text = ", ".join(m.FLAG for m in AGENTS.values())
        raise click.UsageError(f"--uninstall goes with an agent flag ({flags_text})")
    where = "user" if scope == "user" else "project"
    try:
        report: dict[str, Any] = {}
        if not uninstall:
            with state.open():
                pass
            report["db"] = str(state.db)
        action = "uninstall" if uninstall else "install"
        for name in chosen:
            module = AGENTS[name]
            changes = module.uninstall(where) if uninstall else module.install(where)
            report.setdefault("agents", {})[name] = [c.to_dict(action) for c in changes]
            if module.SETUP_NOTE and not uninstall:
                report.setdefault("notes", {})[name] = module.SETUP_NOTE
            if name == "claude-code":  # the shape this command printed before other agents
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

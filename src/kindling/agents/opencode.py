"""OpenCode: Kindling's MCP server in ``opencode.json``, and a plugin that hands OpenCode's
events to ``kindling hook --agent opencode``.

MCP: ``"mcp": {"kindling": {"type": "local", "command": ["kindling", "mcp"], "enabled":
true}}`` (the ``McpLocalConfig`` of ``opencode-ai`` 1.18's config schema: ``command`` is one
array, program and arguments; it rejects the ``mcpServers`` shape of ``.mcp.json``). Files:
``<repo>/opencode.json`` (project scope) or ``~/.config/opencode/opencode.json`` (user scope);
the user's other keys stay.

Capture: OpenCode has no command hooks; it loads plugins named in the config's ``plugin`` list
(a package, or a ``file://`` URL) and every ``plugins/*.js`` of its config folders
(``<repo>/.opencode/``, ``~/.config/opencode/``). It also installs ``@opencode-ai/plugin`` into
each config folder that exists and, when any plugin is configured, waits for those installs
before it starts (``Config.waitForDependencies`` in 1.18): a ``<repo>/.opencode/`` made by
``init`` cost every offline start 70-90 s and left a ``package.json``, a lockfile and packages
in the repository online. So Kindling's plugin lives in Kindling's home
(``$KINDLING_HOME/opencode/kindling-<repo hash>.js``, ``kindling-user.js`` for the user scope)
and ``opencode.json`` names it by ``file://`` URL; an earlier ``init``'s
``.opencode/plugins/kindling.js`` is taken out. (OpenCode's own folder, ``~/.config/opencode/``,
gets its install at OpenCode's first start online, with or without Kindling; until then any
plugin, however named and whatever it imports, makes every start wait for it, offline 70 s of
npm's retries: OpenCode counts it done once that folder has ``node_modules`` and a
``package-lock.json`` listing the package, which ``init`` does not write, but says while it is
missing: ``pending``, in ``opencode_deps``; the user's ``npm_config_offline=true`` ends the
wait.) Kindling's (``PLUGIN_TEMPLATE``) starts ``kindling hook
--agent opencode EVENT`` detached for each event it records, writes the event to its stdin as
JSON and returns at once, never awaiting it, and catches everything, so it costs the agent
nothing (its code: ``opencode_plugin.js`` beside this module). It forwards the objects of
``@opencode-ai/plugin`` 1.18's ``Hooks`` as they are, under ``input``/``output`` or ``event``,
with the plugin's ``directory``:

- ``tool.execute.after`` (``input``: ``tool``, ``sessionID``, ``callID``, ``args``;
  ``output``: ``title``, ``output``, ``metadata``): PostToolUse. OpenCode calls it only for a
  tool that returned; the shell tool (``bash``) returns with ``metadata.exit``, its exit code
  (null when it was ended), so a non-zero code is PostToolUseFailure;
- ``event`` ``message.part.updated`` with a ``ToolPart`` whose ``state.status`` is "error":
  PostToolUseFailure (a tool that threw). Other part updates are not forwarded;
- ``chat.message`` (``input.sessionID``, ``output.parts``): UserPromptSubmit, the text parts;
- ``event`` ``session.idle``: Stop, with ``lastAssistantText``, the last text part of the
  session's last assistant message (the plugin keeps it from ``message.updated`` and
  ``message.part.updated``, which it does not forward);
- ``event`` ``session.error`` (``properties.error``: ``name``, ``data.message``): StopFailure.

Tool names and arguments become Claude Code's (``bash`` -> Bash, ``edit`` -> Edit with
``file_path``, ``old_string``, ``new_string``; ...), so the common mapping and ``skip_tools``
apply unchanged; Kindling's own MCP tools (``kindling_<tool>`` in OpenCode) become
``mcp__kindling__<tool>``, which ``skip_tools`` leaves out.

Injection: OpenCode 1.18 lets a plugin add system-prompt text before each model request
(``experimental.chat.system.transform``: ``input.sessionID``, ``output.system``, a list of
strings). At a session's first request the plugin runs ``kindling hook --agent opencode
session.start`` (SessionStart: it opens the capsule and prints the context, Claude Code's
shape) and waits for it (8 s at most); that text goes into every request of the session.
Closing: OpenCode has no session end for plugins; the plugin sends ``session.end``
(SessionEnd, with the last assistant text) for each session it saw when OpenCode's process
exits (synchronously, 3 s at most), and ``session.deleted`` when a session is deleted.

Must not import click, the CLI, the MCP server, the engine or a store; only the standard
library at module level.
"""

from __future__ import annotations

import contextlib

from kindling.agents.defaults import never_visiting, nothing_missed, nothing_to_note
from kindling.agents.opencode_deps import pending as own_install_pending

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from kindling.agents.base import FileChange, Scope

NAME = "opencode"
LABEL = "OpenCode"
FLAG = "--opencode"
WRITES = "opencode.json (mcp, plugin), and the plugin in Kindling's home ($KINDLING_HOME/opencode/)"
# What the agent needs before its hooks run, said by `init` and `doctor` (None: nothing).
SETUP_NOTE: str | None = None
EVENTS = {
    "session.start": "SessionStart",  # the plugin's own, at a session's first model request
    "session.end": "SessionEnd",  # the plugin's own, for each session when OpenCode exits
    "session.deleted": "SessionEnd",
    "tool.execute.after": "PostToolUse",
    "message.part.updated": "PostToolUseFailure",
    "chat.message": "UserPromptSubmit",
    "session.idle": "Stop",
    "session.error": "StopFailure",
}
SCHEMA = "https://opencode.ai/config.json"
TOOLS = {
    "bash": "Bash",
    "edit": "Edit",
    "write": "Write",
    "read": "Read",
    "glob": "Glob",
    "grep": "Grep",
    "list": "LS",
    "webfetch": "WebFetch",
    "websearch": "WebSearch",
    "todowrite": "TodoWrite",
    "todoread": "TodoRead",
    "task": "Task",
}
# OpenCode's argument names (camelCase) -> Claude Code's.
ARGS = {
    "filePath": "file_path",
    "oldString": "old_string",
    "newString": "new_string",
    "replaceAll": "replace_all",
}
MCP_PREFIX = "kindling_"  # Kindling's own MCP tools, as OpenCode names them (not recorded)
PLUGIN_FILE = "kindling.js"  # its name in a plugin folder, where earlier versions wrote it
PLUGIN_DIR = "opencode"  # in Kindling's home: the plugin files, named kindling-<scope>.js
MARKER = "// Kindling's OpenCode plugin, written by `kindling init --opencode`"
PLUGIN_TEMPLATE = "opencode_plugin.js"  # beside this module; %(marker)s, %(argv)s... filled in


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _tool(name: Any, args: Any, out: dict[str, Any]) -> str:
    """Set ``tool_name`` and ``tool_input`` in Claude Code's words; return the tool name."""
    tool = TOOLS.get(name, name) if isinstance(name, str) and name else "tool"
    if tool.startswith(MCP_PREFIX):  # OpenCode names an MCP tool <server>_<tool>
        tool = f"mcp__kindling__{tool[len(MCP_PREFIX) :]}"
    out["tool_name"] = tool
    out["tool_input"] = {ARGS.get(k, k): v for k, v in _dict(args).items()}
    return str(tool)


def _after(data: dict[str, Any], out: dict[str, Any]) -> None:
    inp, result = _dict(data.get("input")), _dict(data.get("output"))
    out["session_id"] = inp.get("sessionID")
    out["tool_use_id"] = inp.get("callID")
    tool = _tool(inp.get("tool"), inp.get("args"), out)
    text = result.get("output") if isinstance(result.get("output"), str) else ""
    if tool != "Bash":
        out["tool_response"] = text
        return
    code = _dict(result.get("metadata")).get("exit")
    if isinstance(code, int) and not isinstance(code, bool) and code != 0:
        out["hook_event_name"] = "PostToolUseFailure"
        out["error"] = f"Exit code {code}\n{text}"
        return
    out["tool_response"] = {"stdout": text, "stderr": "", "interrupted": code is None}


def canonical(data: dict[str, Any], event: str) -> dict[str, Any] | None:
    directory = data.get("directory")
    out: dict[str, Any] = {"cwd": directory if isinstance(directory, str) else None}
    props = _dict(_dict(data.get("event")).get("properties"))
    if event == "tool.execute.after":
        _after(data, out)
    elif event == "message.part.updated":
        part = _dict(props.get("part"))
        state = _dict(part.get("state"))
        if part.get("type") != "tool" or state.get("status") != "error":
            return None
        out["session_id"] = part.get("sessionID")
        out["tool_use_id"] = part.get("callID")
        _tool(part.get("tool"), state.get("input"), out)
        out["error"] = state.get("error") if isinstance(state.get("error"), str) else "failed"
    elif event == "chat.message":
        out["session_id"] = _dict(data.get("input")).get("sessionID")
        parts = _dict(data.get("output")).get("parts")
        texts = [
            p["text"]
            for p in (parts if isinstance(parts, list) else [])
            if isinstance(p, dict)
            and p.get("type") == "text"
            and isinstance(p.get("text"), str)
            and not p.get("synthetic")
        ]
        out["prompt"] = "\n".join(texts)
    elif event == "session.idle":
        out["session_id"] = props.get("sessionID")
        out["last_assistant_message"] = data.get("lastAssistantText")
    elif event == "session.start":
        out["session_id"] = data.get("sessionID")
        out["source"] = "startup"
    elif event in ("session.end", "session.deleted"):
        info = _dict(props.get("info"))
        out["session_id"] = data.get("sessionID") or info.get("id")
        out["last_assistant_message"] = data.get("lastAssistantText")
        out["reason"] = "deleted" if event == "session.deleted" else "exit"
    elif event == "session.error":
        error = _dict(props.get("error"))
        out["session_id"] = props.get("sessionID")
        out["error"] = error.get("name") if isinstance(error.get("name"), str) else "unknown"
        message = _dict(error.get("data")).get("message")
        out["error_details"] = message if isinstance(message, str) else None
    return out


def render(event: str, output: dict[str, Any]) -> dict[str, Any] | None:
    """Claude Code's shape, which the plugin reads (``session.start``'s context)."""
    return output


def hook_file(scope: Scope, cwd: str | None = None) -> Path:
    """The file that holds Kindling's hooks once ``install`` ran (``kindling doctor``)."""
    return plugin_path(scope, cwd)


def config_path(scope: Scope, cwd: str | None = None) -> Path:
    from pathlib import Path

    from kindling.config import repo_root

    if scope == "user":
        return Path.home() / ".config" / "opencode" / "opencode.json"
    return Path(repo_root(cwd)) / "opencode.json"


def plugin_path(scope: Scope, cwd: str | None = None) -> Path:
    """The plugin's file, in Kindling's home (``opencode/``), one per scope and repository:
    never in a folder OpenCode scans for plugins, where it installs packages (see the
    module)."""
    import hashlib
    from pathlib import Path

    from kindling.config import kindling_home, repo_root

    if scope == "user":
        stem = "kindling-user"
    else:
        stem = "kindling-" + hashlib.sha256(repo_root(cwd).encode()).hexdigest()[:12]
    return Path(kindling_home()).absolute() / PLUGIN_DIR / f"{stem}.js"


def legacy_plugin_path(scope: Scope, cwd: str | None = None) -> Path:
    """Where ``init`` wrote the plugin before: a folder OpenCode installs packages into."""
    from pathlib import Path

    from kindling.config import repo_root

    if scope == "user":
        return Path.home() / ".config" / "opencode" / "plugins" / PLUGIN_FILE
    return Path(repo_root(cwd)) / ".opencode" / "plugins" / PLUGIN_FILE


def skipped_tools(skip_tools: tuple[str, ...]) -> list[str]:
    """OpenCode's names of the tools whose Claude Code name a plain entry (or glob) of
    ``skip_tools`` names (``Read`` is ``read``...): the plugin starts no hook for them, which
    would record nothing. ``Tool:command`` entries stay in the hook (they need the command)."""
    from fnmatch import fnmatchcase

    plain = [t for t in skip_tools if ":" not in t and t.strip()]
    return sorted(o for o, c in TOOLS.items() if any(fnmatchcase(c, t) for t in plain))


def plugin_text(words: list[str], skip_tools: tuple[str, ...] = ()) -> str:
    import json
    import os

    with open(os.path.join(os.path.dirname(__file__), PLUGIN_TEMPLATE), encoding="utf-8") as fh:
        template = fh.read()
    return template % {
        "marker": MARKER,
        "argv": json.dumps(words),
        "skip": json.dumps(skipped_tools(skip_tools)),
        "own": json.dumps(MCP_PREFIX),
    }


def _is_ours(path: Path) -> bool:
    from kindling.errors import InvalidInputError

    try:
        with path.open(encoding="utf-8") as fh:
            first = fh.readline().rstrip("\n")
    except FileNotFoundError:
        return False
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"cannot read {path}: {exc}; it was left untouched") from None
    if first != MARKER:
        raise InvalidInputError(
            f"{path} is not Kindling's plugin; rename or remove it, then run this again "
            "(it was left untouched)"
        )
    return True


def _is_our_spec(spec: Any) -> bool:
    """A ``plugin`` entry naming a plugin file of Kindling's (in any Kindling home)."""
    import posixpath

    if not isinstance(spec, str) or not spec.startswith("file://"):
        return False
    folder, name = posixpath.split(spec)
    return posixpath.basename(folder) == PLUGIN_DIR and name.startswith("kindling-")


def _plugins(data: dict[str, Any], path: Path, spec: str | None) -> list[str]:
    """Put ``spec`` in ``data["plugin"]`` in place of any other of Kindling's (None: take
    Kindling's out, and the list when that empties it). Returns ["plugin"] on a change."""
    from kindling.errors import InvalidInputError

    current = data.get("plugin")
    if current is not None and not isinstance(current, list):
        raise InvalidInputError(f'"plugin" in {path} must be a list; it was left untouched')
    before = list(current or [])
    after = [s for s in before if not _is_our_spec(s)] + ([spec] if spec else [])
    if after == before:
        return []
    if after:
        data["plugin"] = after
    else:
        data.pop("plugin", None)
    return ["plugin"]


def _drop_legacy(scope: Scope, cwd: str | None) -> list[FileChange]:
    """Take out the plugin an earlier ``init`` wrote in a plugin folder (and the folder, when
    that empties it); a user's own file there is left alone."""
    from kindling.agents import base
    from kindling.errors import InvalidInputError

    old = legacy_plugin_path(scope, cwd)
    try:
        if not _is_ours(old):
            return []
    except InvalidInputError:  # not Kindling's: the user's own
        return []
    saved = base.backup(old)
    old.unlink()
    with contextlib.suppress(OSError):
        old.parent.rmdir()
    return [base.FileChange(old, True, saved, ("plugin",))]


def install(
    scope: Scope,
    cwd: str | None = None,
    exe: str | None = None,
    *,
    skip_tools: tuple[str, ...] = (),
) -> list[FileChange]:
    from kindling.agents import base

    path = config_path(scope, cwd)
    data = base.load_json(path)
    plugin = plugin_path(scope, cwd)
    ours = _is_ours(plugin)  # refused before anything is written
    result = base.copy(data)
    if not path.exists():
        result["$schema"] = SCHEMA
    words = base.exe_words(exe or base.kindling_executable())
    entry = {"type": "local", "command": [*words, "mcp"], "enabled": True}
    items = base.merge_mcp(result, "mcp", entry, path)
    items += _plugins(result, path, plugin.as_uri())
    changes = [base.save(path, data, result, items), *_drop_legacy(scope, cwd)]
    text = plugin_text(words, skip_tools)
    if ours and plugin.read_text(encoding="utf-8") == text:
        return [*changes, base.FileChange(plugin, False, None, ())]
    saved = base.backup(plugin)
    base.write_text(plugin, text)
    return [*changes, base.FileChange(plugin, True, saved, ("plugin",))]


def uninstall(scope: Scope, cwd: str | None = None) -> list[FileChange]:
    from kindling.agents import base

    path = config_path(scope, cwd)
    data = base.load_json(path)
    result = base.copy(data)
    items = base.remove_mcp(result, "mcp", path) + _plugins(result, path, None)
    changes = [base.save(path, data, result, items), *_drop_legacy(scope, cwd)]
    plugin = plugin_path(scope, cwd)
    if not _is_ours(plugin):
        return [*changes, base.FileChange(plugin, False, None, ())]
    saved = base.backup(plugin)
    plugin.unlink()
    return [*changes, base.FileChange(plugin, True, saved, ("plugin",))]


missed = earlier = nothing_missed  # its hooks are synchronous: nothing to reconcile
noted = nothing_to_note
visiting = never_visiting
pending = own_install_pending  # OpenCode's own install, which it waits for (opencode_deps)


if TYPE_CHECKING:  # this module is an Agent (mypy checks it)
    import kindling.agents.opencode as _self
    from kindling.agents.protocol import Agent

    _agent: Agent = _self

"""Codex: ``[mcp_servers.kindling]`` in its ``config.toml`` and Kindling's hooks in its
``hooks.json``; Codex's hook payloads become the canonical events.

Codex's hooks follow Claude Code's: the same event names and fields. The input schemas are the
``*.command.input`` JSON schemas built into the ``@openai/codex`` 0.169 binary: every input
has ``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name``, ``model``,
``permission_mode``; PostToolUse adds ``tool_name``, ``tool_input``, ``tool_response`` (any
JSON), ``tool_use_id`` and ``turn_id``; Stop adds ``last_assistant_message``. A shell call's
``tool_response`` is its output alone (0.169-0.171): its exit code is read from Codex's session
log, the rollout file ``transcript_path`` names, under the same call id
(``codex_rollout.exit_code``).
Codex runs hooks as part of the turn and waits for them. SessionStart's
``hookSpecificOutput.additionalContext`` reaches the model, as with Claude Code.

Files (project scope: ``<repo>/.codex/``; user scope: ``$CODEX_HOME``, default ``~/.codex/``):
``config.toml`` gets a block Kindling marks with comments, so ``--uninstall`` removes exactly
it (TOML is edited as text: Python reads TOML but writes none, and the user's comments and
layout stay as they were); ``hooks.json`` gets one group per event, as Claude Code's settings.
A ``config.toml`` that does not parse, or that already defines a ``kindling`` server of the
user's own, is refused and left untouched. The block forwards the ``KINDLING_*`` variables to
the server (``env_vars``): Codex starts an MCP server with only a few variables of its own
environment, so `kindling mcp` would otherwise open ``~/.kindling/kindling.db`` while the
hooks, which get all of it, write to ``$KINDLING_DB`` or a remote server.

What the model sees (checked with the real ``codex exec`` 0.169, tests/agents/test_agents_cli.py):
for a model Codex has metadata for, it offers no MCP tool up front but its client-side
``tool_search`` tool, and returns Kindling's tools (namespace ``mcp__kindling``) when the model
searches for them; no key of the server's table or of ``[features]`` turns that off
(``tool_search_always_defer_mcp_tools`` is a removed flag, forced on). Codex does not wait
for an optional MCP server before its first request, so in a ``codex exec`` run that starts
while `kindling mcp` is still starting, that first turn finds no Kindling tool; the block
leaves ``required`` unset on purpose (``-c mcp_servers.kindling.required=true`` makes Codex
wait, and refuse to start when Kindling cannot).

Must not import click, the CLI, the MCP server, the engine or a store; only the standard
library at module level.
"""

from __future__ import annotations

import os

from kindling.agents.defaults import (
    never_visiting,
    nothing_missed,
    nothing_pending,
    nothing_to_note,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from kindling.agents.base import FileChange, Scope

NAME = "codex"
LABEL = "Codex"
FLAG = "--codex"
WRITES = ".codex/config.toml ([mcp_servers.kindling]), .codex/hooks.json"
# What the agent needs before its hooks run, said by `init` and `doctor` (None: nothing).
SETUP_NOTE: str | None = (
    "Codex runs hooks only once you trust them: start `codex` once in this repository and "
    'answer its "Hooks need review" with "Trust all and continue", or run headless with '
    "`codex exec --dangerously-bypass-hook-trust` (`--trust` does not cover hooks); until "
    "then Codex records nothing"
)
EVENTS = {
    event: event
    for event in (
        "SessionStart",
        "UserPromptSubmit",
        "PostToolUse",
        "PreCompact",
        "PostCompact",
        "SubagentStop",
        "Stop",
        "SessionEnd",
    )
}
TOOLS = {"shell": "Bash", "exec_command": "Bash", "local_shell": "Bash"}
# PostToolUse's matcher: not Kindling's own MCP tools (Codex names them mcp__kindling__<tool>).
MATCHER = "mcp__kindling__"
# Codex's longest hook timeout for SessionEnd (it clamps a longer one, with a warning).
TIMEOUTS = {"SessionEnd": 3}
BEGIN = "# kindling: begin (written by `kindling init --codex`; --uninstall removes it)"
END = "# kindling: end"


def canonical(data: dict[str, Any], event: str) -> dict[str, Any] | None:
    if event != "PostToolUse":
        return data
    out = dict(data)
    name = out.get("tool_name")
    if name == "apply_patch":
        return _patched(out)
    out["tool_name"] = TOOLS.get(name, name) if isinstance(name, str) else name
    response = out.get("tool_response")
    if out["tool_name"] != "Bash":
        return out
    if isinstance(response, dict) and ("output" in response or "exit_code" in response):
        text = response.get("output")
        text = text if isinstance(text, str) else ""
        code = response.get("exit_code")
        if isinstance(code, int) and not isinstance(code, bool) and code != 0:
            out["hook_event_name"] = "PostToolUseFailure"
            out["error"] = f"Exit code {code}\n{text}"
            return out
        out["tool_response"] = {"stdout": text, "stderr": ""}
    elif isinstance(response, str):
        from kindling.agents.codex_rollout import exit_code

        code = exit_code(out.get("transcript_path"), out.get("tool_use_id"))
        if code:
            out["hook_event_name"] = "PostToolUseFailure"
            out["error"] = f"Exit code {code}\n{response}"
            return out
        out["tool_response"] = {"stdout": response, "stderr": ""}
    return out


PATCH_FILE = ("*** Add File: ", "*** Delete File: ", "*** Update File: ")


def _patched(out: dict[str, Any]) -> dict[str, Any]:
    """``apply_patch`` (``tool_input.command``: Codex's patch, ``*** Begin Patch`` ...) as
    Claude Code's Edit, with the patch as a unified diff (``tool_response.unifiedDiff``) and
    every file it touches (``file_paths``, for the excluded-path check); a failure ("Exit code:
    N" in the output) as PostToolUseFailure."""
    import re

    raw = out.get("tool_input")
    patch = raw.get("command") or raw.get("input") if isinstance(raw, dict) else raw
    response = out.get("tool_response")
    text = response if isinstance(response, str) else ""
    out["tool_name"] = "Edit"
    if not isinstance(patch, str) or not patch.strip():
        out["tool_input"] = {}
        return out
    diff, paths = unified_diff(patch)
    cwd = out.get("cwd") if isinstance(out.get("cwd"), str) else ""
    full = [p if p.startswith("/") or not cwd else f"{cwd.rstrip('/')}/{p}" for p in paths]
    out["tool_input"] = {"file_path": full[0] if full else "", "file_paths": full}
    code = re.search(r"^Exit code: (-?\d+)", text, re.MULTILINE)
    if code and code.group(1) != "0":
        out["hook_event_name"] = "PostToolUseFailure"
        out["error"] = f"Exit code {code.group(1)}\n{text}"
        return out
    out["tool_response"] = {"unifiedDiff": diff}
    return out


def unified_diff(patch: str) -> tuple[str, list[str]]:
    """Codex's patch format as a unified diff (its hunks carry no line numbers: each keeps its
    ``@@`` line as Codex wrote it), and the files it touches, in order."""
    lines: list[str] = []
    paths: list[str] = []
    for line in patch.splitlines():
        if line.strip() in ("*** Begin Patch", "*** End Patch", "*** End of File"):
            continue
        kind = next((k for k in PATCH_FILE if line.startswith(k)), None)
        if kind is not None:
            path = line[len(kind) :].strip()
            paths.append(path)
            old = "/dev/null" if kind == PATCH_FILE[0] else f"a/{path}"
            new = "/dev/null" if kind == PATCH_FILE[1] else f"b/{path}"
            lines += [f"--- {old}", f"+++ {new}"]
            if kind == PATCH_FILE[0]:
                lines.append("@@")
            continue
        if line.startswith("*** Move to: ") and lines:
            moved = line[len("*** Move to: ") :].strip()
            paths.append(moved)
            lines[-1] = f"+++ b/{moved}"
            continue
        lines.append(line)
    return "\n".join(lines), paths


def render(event: str, output: dict[str, Any]) -> dict[str, Any] | None:
    return output


def hook_file(scope: Scope, cwd: str | None = None) -> Path:
    """The file that holds Kindling's hooks once ``install`` ran (``kindling doctor``)."""
    return home(scope, cwd) / "hooks.json"


def home(scope: Scope, cwd: str | None = None) -> Path:
    from pathlib import Path

    from kindling.agents.base import base_dir

    if scope == "user" and os.environ.get("CODEX_HOME"):
        return Path(os.environ["CODEX_HOME"])
    return base_dir(scope, ".codex", cwd)


# ---------------------------------------------------------------- config.toml


def _toml_string(value: str) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string


def _block(exe: str) -> str:
    from kindling.agents.base import exe_words
    from kindling.config import SERVER_ENV

    words = exe_words(exe)
    args = ", ".join(_toml_string(w) for w in [*words[1:], "mcp"])
    command = _toml_string(words[0])
    env = ", ".join(_toml_string(v) for v in SERVER_ENV)
    return (
        f"{BEGIN}\n[mcp_servers.kindling]\ncommand = {command}\nargs = [{args}]\n"
        f"env_vars = [{env}]\n{END}\n"
    )


def _without_block(text: str) -> tuple[str, bool]:
    start = text.find(BEGIN)
    if start < 0:
        return text, False
    end = text.find(END, start)
    if end < 0:
        return text, False
    end += len(END)
    if text[end : end + 1] == "\n":
        end += 1
    head = text[:start]
    if head.endswith("\n\n"):
        head = head[:-1]
    return head + text[end:], True


def _parse(text: str, path: Path) -> dict[str, Any]:
    import tomllib

    from kindling.errors import InvalidInputError

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInputError(
            f"{path} is not valid TOML ({exc}); fix or move it, then run this again "
            "(it was left untouched)"
        ) from None


def _edit_toml(path: Path, exe: str | None, *, remove: bool) -> FileChange:
    from kindling.agents.base import FileChange, backup, write_text
    from kindling.errors import InvalidInputError

    try:
        before = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        before = ""
    except OSError as exc:
        raise InvalidInputError(f"cannot read {path}: {exc.strerror or exc}") from None
    _parse(before, path)
    rest, had = _without_block(before)
    servers = _parse(rest, path).get("mcp_servers")
    if not remove and isinstance(servers, dict) and "kindling" in servers:
        raise InvalidInputError(
            f"{path} already defines [mcp_servers.kindling] of its own; rename or remove it, "
            "then run this again (it was left untouched)"
        )
    if remove:
        after = rest
    else:
        after = (rest if not rest or rest.endswith("\n") else rest + "\n") + (
            "\n" if rest.strip() else ""
        )
        after += _block(exe or "kindling")
    _parse(after, path)
    if after == before or (remove and not had):
        return FileChange(path, False, None, ())
    saved = backup(path)
    write_text(path, after)
    return FileChange(path, True, saved, ("mcp",))


# ---------------------------------------------------------------- hooks.json


def _ours(entry: Any, event: str) -> bool:
    from kindling.agents.base import is_hook_command

    return (
        isinstance(entry, dict)
        and entry.get("type") == "command"
        and is_hook_command(entry.get("command"), NAME, event)
    )


def _hooks(path: Path, exe: str | None, *, remove: bool) -> FileChange:
    from kindling.agents import base

    data = base.load_json(path)
    base.check_hook_groups(data, path)
    result = base.copy(data)
    if remove:
        items = base.remove_hook_groups(result, _ours)
    else:
        wanted = {
            event: {
                "type": "command",
                "command": base.hook_command(exe or "kindling", NAME, event),
                "timeout": TIMEOUTS.get(event, base.HOOK_TIMEOUT_S),
            }
            for event in EVENTS
        }
        matcher = {"PostToolUse": {"matcher": base.not_prefixed(MATCHER)}}
        items = base.merge_hook_groups(result.setdefault("hooks", {}), wanted, matcher, _ours)
    return base.save(path, data, result, items)


def install(
    scope: Scope,
    cwd: str | None = None,
    exe: str | None = None,
    *,
    skip_tools: tuple[str, ...] = (),  # its matchers leave out Kindling's own tools only
) -> list[FileChange]:
    from kindling.agents.base import kindling_executable

    exe = exe or kindling_executable()
    where = home(scope, cwd)
    return [
        _edit_toml(where / "config.toml", exe, remove=False),
        _hooks(where / "hooks.json", exe, remove=False),
    ]


def uninstall(scope: Scope, cwd: str | None = None) -> list[FileChange]:
    where = home(scope, cwd)
    return [
        _edit_toml(where / "config.toml", None, remove=True),
        _hooks(where / "hooks.json", None, remove=True),
    ]


missed = earlier = nothing_missed  # its hooks are synchronous: nothing to reconcile
noted = nothing_to_note
visiting = never_visiting
pending = nothing_pending


if TYPE_CHECKING:  # this module is an Agent (mypy checks it)
    import kindling.agents.codex as _self
    from kindling.agents.protocol import Agent

    _agent: Agent = _self

"""What every agent module shares: the seam it fills, and the safe editing of config files.

An agent module (``kindling.agents.<name>``) provides, as module attributes:

- ``NAME`` (``"gemini"``: the ``--agent`` value of ``kindling hook`` and the ``source`` of its
  observations), ``LABEL`` ("Gemini CLI"), ``FLAG`` (``"--gemini"`` for ``kindling init``);
- ``EVENTS``: its native hook event names mapped to the canonical events (Claude Code's hook
  names, which ``hooks.capture.records`` maps to records, once, for every agent); Cursor's
  also holds an event it never installs a hook for (``HOOKS`` are the ones it installs);
- ``canonical(data, event) -> dict | None``: its native hook payload as the canonical payload
  (Claude Code's field names: ``tool_name``, ``tool_input``, ``tool_response``, ...), or None
  when the event leaves nothing;
- ``render(event, output) -> dict | None``: what to print for injected context, in its own
  shape (None: print nothing);
- ``install(scope, cwd, exe) -> list[FileChange]`` and ``uninstall(scope, cwd)``: write its
  native MCP config and capture hooks, and take out exactly what they added;
- optionally ``missed(p) -> (payloads, commit)``: canonical payloads its background hooks may
  have missed, read from its transcript at a synchronous point (see ``claude_code``).

Agent modules never import each other and never build a store: they translate and they
write config files, nothing else. The editing helpers here keep the user's other keys, refuse
a file they cannot parse (never overwrite it), back the old file up before any change, and
write through a temporary file and a rename.

Must not import click, the CLI, the MCP server, the engine or a store.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from kindling.config import repo_root
from kindling.errors import InvalidInputError

Scope = Literal["project", "user"]
HOOK_TIMEOUT_S = 10  # the hook itself gives up after 8 s (see kindling.hooks.DEADLINE_S)
MCP_ARGS = ("mcp",)


@dataclass(frozen=True, slots=True)
class FileChange:
    """One config file ``init`` wrote or cleaned: what changed, and where the old copy is."""

    path: Path
    changed: bool
    backup: Path | None
    items: tuple[str, ...]  # what was added, refreshed or removed ("mcp", hook events)

    def to_dict(self, action: str) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "changed": self.changed,
            "backup": str(self.backup) if self.backup else None,
            "items": list(self.items),
            "action": action,
        }


def base_dir(scope: Scope, folder: str, cwd: str | None = None) -> Path:
    """``<repo>/<folder>`` for the project scope, ``~/<folder>`` for the user scope."""
    root = Path.home() if scope == "user" else Path(repo_root(cwd))
    return root / folder


def kindling_executable() -> str:
    """How a config should call Kindling: ``kindling`` when that is the one on PATH, else the
    absolute path of this installation's script (so the agent finds it outside the venv)."""
    argv0 = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    candidates = [argv0] if argv0 is not None and argv0.name == "kindling" else []
    candidates.append(Path(sys.executable).parent / "kindling")
    on_path = shutil.which("kindling")
    for candidate in candidates:
        if candidate.is_file():
            real = os.path.realpath(candidate)
            if on_path and os.path.realpath(on_path) == real:
                return "kindling"
            return shlex.quote(str(candidate.absolute()))
    return "kindling"


def exe_words(exe: str) -> list[str]:
    """The executable as an argv list (for configs that take ``command`` as a list)."""
    return shlex.split(exe)


def is_hook_command(command: Any, agent: str | None, event: str) -> bool:
    """True for ``kindling hook [--agent NAME] EVENT`` (any path to ``kindling``)."""
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    want = ["hook", event] if agent is None else ["hook", "--agent", agent, event]
    return len(words) == len(want) + 1 and Path(words[0]).name == "kindling" and words[1:] == want


def hook_command(exe: str, agent: str | None, event: str) -> str:
    middle = "" if agent is None else f" --agent {agent}"
    return f"{exe} hook{middle} {event}"


def is_mcp_entry(entry: Any) -> bool:
    """True for an MCP server entry that runs ``kindling mcp`` (string or list command)."""
    if not isinstance(entry, dict):
        return False
    command = entry.get("command")
    words: list[str]
    if isinstance(command, list):
        words = [str(w) for w in command]
    elif isinstance(command, str):
        try:
            words = shlex.split(command)
        except ValueError:
            return False
        args = entry.get("args")
        words += [str(a) for a in args] if isinstance(args, list) else []
    else:
        return False
    return len(words) == 2 and Path(words[0]).name == "kindling" and words[1] == "mcp"


def load_json(path: Path) -> dict[str, Any]:
    """The JSON object in ``path`` ({} when absent or empty); refuses anything else."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise InvalidInputError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InvalidInputError(
            f"{path} is not valid JSON ({exc}); fix or move it, then run this again "
            "(it was left untouched)"
        ) from None
    if not isinstance(data, dict):
        raise InvalidInputError(f"{path} must hold a JSON object; it was left untouched")
    return data


def object_at(data: dict[str, Any], key: str, path: Path) -> dict[str, Any] | None:
    """``data[key]`` when it is an object (None when absent); refuses any other type."""
    value = data.get(key)
    if value is not None and not isinstance(value, dict):
        raise InvalidInputError(f'"{key}" in {path} must be an object; it was left untouched')
    return value


def backup(path: Path) -> Path | None:
    """Copy ``path`` to ``<name>.kindling-backup-<time>`` (never over an earlier backup)."""
    if not path.exists():
        return None
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = path.with_name(f"{path.name}.kindling-backup-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.kindling-backup-{stamp}-{n}")
    shutil.copy2(path, target)
    return target


def write_text(path: Path, text: str) -> None:
    """Replace ``path`` atomically; a new file (and directory) is private, an existing file
    keeps its mode."""
    import stat

    if not path.parent.exists():
        path.parent.mkdir(parents=True, mode=0o700)
    mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o600
    tmp = path.with_name(f".{path.name}.kindling-tmp-{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.chmod(tmp, mode)
    os.replace(tmp, path)


def write_json(path: Path, data: dict[str, Any]) -> None:
    write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def save(path: Path, before: dict[str, Any], after: dict[str, Any], items: list[str]) -> FileChange:
    """Write ``after`` to ``path`` when it differs from ``before`` (backing the old file up)."""
    if after == before or not items:
        return FileChange(path, False, None, ())
    saved = backup(path)
    write_json(path, after)
    return FileChange(path, True, saved, tuple(dict.fromkeys(items)))


def merge_mcp(data: dict[str, Any], key: str, entry: dict[str, Any], path: Path) -> list[str]:
    """Put Kindling's server under ``data[key]["kindling"]``; refuses to replace a user's own
    server of that name. Returns ["mcp"] when something changed."""
    servers = object_at(data, key, path)
    if servers is None:
        servers = data[key] = {}
    current = servers.get("kindling")
    if current is not None and not is_mcp_entry(current):
        raise InvalidInputError(
            f'{path} already has an MCP server named "kindling" that does not run '
            "`kindling mcp`; rename or remove it, then run this again (it was left untouched)"
        )
    if current == entry:
        return []
    servers["kindling"] = entry
    return ["mcp"]


def remove_mcp(data: dict[str, Any], key: str, path: Path) -> list[str]:
    """Take Kindling's server out of ``data[key]`` (and the object, if that leaves it empty)."""
    servers = object_at(data, key, path)
    if not servers or not is_mcp_entry(servers.get("kindling")):
        return []
    del servers["kindling"]
    if not servers:
        del data[key]
    return ["mcp"]


# ------------------------------------------------- hook groups (Claude Code, Gemini CLI, Codex)
#
# {"hooks": {EVENT: [{"matcher": ..., "hooks": [{"type": "command", "command": ...}]}]}}


def check_hook_groups(
    data: dict[str, Any], path: Path, settings_keys: tuple[str, ...] = ()
) -> dict[str, Any] | None:
    """``data["hooks"]`` after checking each event holds a list (``settings_keys`` are the
    agent's own settings kept in that object, such as Gemini CLI's ``enabled``)."""
    hooks = object_at(data, "hooks", path)
    for event, groups in (hooks or {}).items():
        if event not in settings_keys and not isinstance(groups, list):
            raise InvalidInputError(
                f'"hooks.{event}" in {path} must be a list; it was left untouched'
            )
    return hooks


def merge_hook_groups(
    hooks: dict[str, Any],
    wanted: dict[str, dict[str, Any]],
    group_keys: dict[str, dict[str, Any]],
    ours: Any,
) -> list[str]:
    """Put ``wanted[event]`` (one hook entry) in ``hooks[event]``, in its own group with
    ``group_keys[event]`` (a matcher), unless one of ``ours`` is there already: then only
    refresh it. Returns the events that changed."""
    touched = []
    for event, want in wanted.items():
        keys = group_keys.get(event, {})
        groups: list[Any] = hooks.setdefault(event, [])
        found = False
        for group in list(groups):
            entries = group.get("hooks") if isinstance(group, dict) else None
            for i, entry in enumerate(entries if isinstance(entries, list) else []):
                if not ours(entry, event):
                    continue
                found = True
                fresh = {k: v for k, v in entry.items() if k != "async"} | want
                if entry != fresh:
                    entries[i] = fresh  # type: ignore[index]
                    touched.append(event)
                if all(group.get(k) == v for k, v in keys.items()):
                    continue
                if len(entries) == 1:  # type: ignore[arg-type]
                    group.update(keys)
                else:  # a group shared with other hooks keeps its matcher; ours moves out
                    entries.pop(i)  # type: ignore[union-attr]
                    groups.append({**keys, "hooks": [fresh]})
                touched.append(event)
                break
        if not found:
            groups.append({**keys, "hooks": [want]})
            touched.append(event)
    return list(dict.fromkeys(touched))


def remove_hook_groups(data: dict[str, Any], ours: Any) -> list[str]:
    """Take every entry ``ours`` recognises out of ``data["hooks"]``, and the groups, event
    lists and ``hooks`` object they leave empty. Returns the events that changed."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return []
    touched = []
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept_groups = []
        for group in groups:
            entries = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(entries, list):
                kept_groups.append(group)
                continue
            kept = [e for e in entries if not ours(e, event)]
            if len(kept) != len(entries):
                touched.append(event)
                if not kept:
                    continue
                group["hooks"] = kept
            kept_groups.append(group)
        if event in touched and not kept_groups:
            del hooks[event]
        else:
            hooks[event] = kept_groups
    if touched and not hooks:
        del data["hooks"]
    return list(dict.fromkeys(touched))


def not_prefixed(prefix: str) -> str:
    """A regex for any name that does not start with ``prefix``, written without lookahead
    (Codex matches hooks with Rust's ``regex``, which has none): at the first character that
    differs, or at a name that ends inside the prefix. For the tool hooks' matcher: the
    agent then starts no process for Kindling's own MCP tools."""
    import re

    ways = [f"{re.escape(prefix[:i])}(?:[^{re.escape(prefix[i])}]|$)" for i in range(len(prefix))]
    return "^(?:" + "|".join(ways) + ")"


def drop_events(hooks: dict[str, Any], events: Any, ours: Any) -> list[str]:
    """Take Kindling's entries for ``events`` (which it no longer installs) out of ``hooks``."""
    stale = {e: hooks[e] for e in events if isinstance(hooks.get(e), list)}
    if not stale:
        return []
    holder = {"hooks": stale}
    touched = remove_hook_groups(holder, ours)
    for event in stale:
        if event in holder.get("hooks", {}):
            hooks[event] = holder["hooks"][event]
        else:
            del hooks[event]
    return touched


def copy(data: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(json.dumps(data))
    return result

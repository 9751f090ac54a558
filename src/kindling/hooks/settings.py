"""Install Kindling's hooks into a Claude Code settings file, and take them out again.

The merge is idempotent and keeps every other key: for each event Kindling adds one hook group
``{"matcher": ..., "hooks": [{"type": "command", "command": "kindling hook EVENT", "timeout":
10, "async": true}]}`` unless a Kindling hook for that event is already there (then it only
refreshes the command, timeout, ``async`` and its group's matcher).

- ``async``: the capture events (``ASYNC_EVENTS``) run in the background, so Claude Code does
  not wait for them; SessionStart and UserPromptSubmit stay synchronous, because what they
  print must reach the model before it answers.
- ``matcher`` of the tool events: a regular expression (JavaScript syntax, as Claude Code
  reads it) that matches every tool except the plain tool names in the ``skip_tools`` setting,
  so Claude Code starts no process at all for them (``tool_matcher``).

Kindling's hooks are recognised by their command: an executable named ``kindling`` followed by
``hook EVENT``; uninstalling removes exactly those, and the groups and
event lists they leave empty. A file that is not valid JSON is refused, never overwritten; the
previous file is copied to a timestamped backup before any change.

Must not import click, the CLI or the MCP server.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import stat
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from kindling.config import repo_root
from kindling.errors import InvalidInputError
from kindling.hooks.config import load_hook_config
from kindling.hooks.payload import EVENTS

HOOK_TIMEOUT_S = 10  # the hook itself gives up after 8 s (see kindling.hooks.DEADLINE_S)
TOOL_EVENTS = ("PostToolUse", "PostToolUseFailure")
ASYNC_EVENTS = tuple(e for e in EVENTS if e not in ("SessionStart", "UserPromptSubmit"))
_REGEX_SPECIAL = frozenset("\\^$.|?*+()[]{}/")
Scope = Literal["project", "user"]


@dataclass(frozen=True, slots=True)
class SettingsChange:
    path: Path
    changed: bool
    backup: Path | None
    events: tuple[str, ...]  # events whose Kindling hook was added, refreshed or removed


def settings_path(scope: Scope, cwd: str | None = None) -> Path:
    if scope == "user":
        return Path.home() / ".claude" / "settings.json"
    return Path(repo_root(cwd)) / ".claude" / "settings.json"


def hook_executable() -> str:
    """How settings should call Kindling: ``kindling`` when that is the one on PATH, else the
    absolute path of this installation's script (so hooks work outside the virtualenv)."""
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


def is_kindling_hook(entry: Any, event: str) -> bool:
    if not isinstance(entry, dict) or entry.get("type") != "command":
        return False
    command = entry.get("command")
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    return len(words) == 3 and Path(words[0]).name == "kindling" and words[1:] == ["hook", event]


def _load(path: Path) -> dict[str, Any]:
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
    hooks = data.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise InvalidInputError(f'"hooks" in {path} must be an object; it was left untouched')
    for event, groups in (hooks or {}).items():
        if not isinstance(groups, list):
            raise InvalidInputError(
                f'"hooks.{event}" in {path} must be a list; it was left untouched'
            )
    return data


def _glob_regex(glob: str) -> str:
    out = []
    for ch in glob:
        if ch == "*":
            out.append(".*")
        elif ch == "?":
            out.append(".")
        else:
            out.append("\\" + ch if ch in _REGEX_SPECIAL else ch)
    return "".join(out)


def tool_matcher(skip_tools: tuple[str, ...]) -> str:
    """The tool events' matcher: every tool but the plain names (and globs) in ``skip_tools``.
    ``Tool:command`` entries stay in the hook itself (a matcher sees only the tool name)."""
    names = sorted({_glob_regex(t) for t in skip_tools if ":" not in t and t.strip()})
    if not names:
        return "*"
    return f"^(?!(?:{'|'.join(names)})$).*"


def _ours(event: str, exe: str) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "type": "command",
        "command": f"{exe} hook {event}",
        "timeout": HOOK_TIMEOUT_S,
    }
    if event in ASYNC_EVENTS:
        entry["async"] = True
    return entry


def _matcher(event: str, matcher: str) -> dict[str, str]:
    return {"matcher": matcher} if event in TOOL_EVENTS else {}


def merge_hooks(
    data: dict[str, Any], exe: str, matcher: str = "*"
) -> tuple[dict[str, Any], list[str]]:
    """Return settings with Kindling's hooks in place, and the events that changed. Pure."""
    result = json.loads(json.dumps(data))
    hooks: dict[str, Any] = result.setdefault("hooks", {})
    touched = []
    for event in EVENTS:
        want = _ours(event, exe)
        group_keys = _matcher(event, matcher)
        groups: list[Any] = hooks.setdefault(event, [])
        found = False
        for group in list(groups):
            entries = group.get("hooks") if isinstance(group, dict) else None
            for i, entry in enumerate(entries if isinstance(entries, list) else []):
                if not is_kindling_hook(entry, event):
                    continue
                found = True
                fresh = {k: v for k, v in entry.items() if k != "async"} | want
                if entry != fresh:
                    entries[i] = fresh  # type: ignore[index]
                    touched.append(event)
                if all(group.get(k) == v for k, v in group_keys.items()):
                    continue
                if len(entries) == 1:  # type: ignore[arg-type]
                    group.update(group_keys)
                else:  # a group shared with other hooks keeps its matcher; ours moves out
                    entries.pop(i)  # type: ignore[union-attr]
                    groups.append({**group_keys, "hooks": [fresh]})
                touched.append(event)
                break
        if not found:
            groups.append({**group_keys, "hooks": [want]})
            touched.append(event)
    return result, list(dict.fromkeys(touched))


def remove_hooks(data: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Return settings without Kindling's hooks (and the empty groups they leave). Pure."""
    result = json.loads(json.dumps(data))
    hooks = result.get("hooks")
    if not isinstance(hooks, dict):
        return result, []
    touched = []
    for event in list(hooks):
        groups = hooks[event]
        kept_groups = []
        for group in groups:
            entries = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(entries, list):
                kept_groups.append(group)
                continue
            kept = [e for e in entries if not is_kindling_hook(e, event)]
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
        del result["hooks"]
    return result, sorted(set(touched), key=touched.index)


def _backup(path: Path) -> Path | None:
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


def _write(path: Path, data: dict[str, Any]) -> None:
    """Replace ``path`` atomically; a new file (and directory) is private, an existing file
    keeps its mode."""
    if not path.parent.exists():
        path.parent.mkdir(parents=True, mode=0o700)
    mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o600
    tmp = path.with_name(f".{path.name}.kindling-tmp-{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    os.chmod(tmp, mode)
    os.replace(tmp, path)


def install(path: Path, exe: str | None = None, matcher: str | None = None) -> SettingsChange:
    """Merge Kindling's hooks into ``path``. The tool matcher comes from the ``skip_tools``
    setting of ``config.json`` unless given."""
    data = _load(path)
    if matcher is None:
        matcher = tool_matcher(load_hook_config().skip_tools)
    merged, touched = merge_hooks(data, exe or hook_executable(), matcher)
    if not touched:
        return SettingsChange(path, False, None, ())
    backup = _backup(path)
    _write(path, merged)
    return SettingsChange(path, True, backup, tuple(touched))


def uninstall(path: Path) -> SettingsChange:
    if not path.exists():
        return SettingsChange(path, False, None, ())
    data = _load(path)
    cleaned, touched = remove_hooks(data)
    if not touched:
        return SettingsChange(path, False, None, ())
    backup = _backup(path)
    _write(path, cleaned)
    return SettingsChange(path, True, backup, tuple(touched))

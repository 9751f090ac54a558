"""Turn a hook payload into the observation to record (or nothing). Pure.

Bash -> ``command`` (command line, exit status, head and tail of stdout/stderr); Edit,
MultiEdit, Write -> ``file_diff`` (a unified diff, bounded); Read, Grep, Glob, WebFetch,
WebSearch, Task and unknown tools -> ``tool_call`` (inputs and a bounded result); failures ->
``error``; prompts -> ``message``. Noise is skipped: Kindling's own tools and reads of excluded
paths. The contents of excluded paths (``.env``, ``*.pem``, ...) are never kept, whichever tool
touched them. Secrets inside kept text are masked later, by the library's write path.

Must not import click, the CLI or the MCP server, nor open a database.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import PurePosixPath
from typing import Any

from kindling.hooks.config import HookConfig
from kindling.hooks.payload import HookPayload

SOURCE = "claude-code"
WITHHELD = "[withheld: excluded path]"
PATH_KEYS = ("file_path", "notebook_path", "path")
_EXIT_CODE = re.compile(r"exit (?:code|status) (\d{1,3})\b")


@dataclass(frozen=True, slots=True)
class Draft:
    """An observation ready for ``Kindling.append_observation``."""

    kind: str
    content: str
    provenance: dict[str, Any]


def bound(text: str, limit: int) -> tuple[str, int | None]:
    """Keep the head and the tail of text longer than ``limit`` chars; report the original
    length. Both ends matter: a command's first lines say what ran, its last lines how it ended."""
    if len(text) <= limit:
        return text, None
    marker = f"\n…[{len(text) - limit} chars elided]…\n"
    keep = max(0, limit - len(marker)) // 2
    return text[:keep] + marker + text[len(text) - keep :], len(text)


def is_excluded(path: str, patterns: tuple[str, ...]) -> bool:
    """Match a path's file name (or, for patterns with a "/", the whole path) to the globs."""
    if not path:
        return False
    posix = path.replace("\\", "/")
    name = PurePosixPath(posix).name
    for pattern in patterns:
        if "/" in pattern:
            if fnmatchcase(posix, pattern) or fnmatchcase(posix, "*/" + pattern.lstrip("/")):
                return True
        elif fnmatchcase(name, pattern):
            return True
    return False


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command, posix=True)
    except ValueError:
        return command.split()


def command_touches_excluded(command: str, patterns: tuple[str, ...]) -> str | None:
    """The first word of a shell command naming an excluded path (``cat .env``), if any."""
    for word in _words(command):
        for part in word.replace("=", " ").replace(";", " ").split():
            if is_excluded(part.strip("<>|&()'\""), patterns):
                return part
    return None


def is_skipped_tool(tool: str, tool_input: dict[str, Any], patterns: tuple[str, ...]) -> bool:
    command = tool_input.get("command")
    for pattern in patterns:
        tool_glob, sep, command_glob = pattern.partition(":")
        if not fnmatchcase(tool, tool_glob):
            continue
        if not sep:
            return True
        if isinstance(command, str) and fnmatchcase(command.strip(), command_glob):
            return True
    return False


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def _rel(path: str, repo: str) -> str:
    if path.startswith(repo.rstrip("/") + "/"):
        return path[len(repo.rstrip("/")) + 1 :]
    return path


def _base_provenance(p: HookPayload, repo: str) -> dict[str, Any]:
    prov: dict[str, Any] = {"source": SOURCE, "event": p.event}
    if p.tool_name:
        prov["tool"] = p.tool_name
    if p.tool_use_id:
        prov["toolUseId"] = p.tool_use_id
    if p.cwd:
        prov["cwd"] = p.cwd
    return prov


# ---------------------------------------------------------------- Bash


def _exit_code(response: Any) -> int | None:
    if isinstance(response, dict):
        for key in ("exit_code", "exitCode", "returnCode", "return_code", "code"):
            value = response.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                return value
    return None


def _bash(p: HookPayload, cfg: HookConfig, prov: dict[str, Any]) -> Draft | None:
    command = _text(p.tool_input.get("command")).strip()
    if not command:
        return None
    response = p.tool_response
    if isinstance(response, dict):
        stdout, stderr = _text(response.get("stdout")), _text(response.get("stderr"))
        interrupted = response.get("interrupted") is True
    else:
        stdout, stderr, interrupted = _text(response), "", False
    code = _exit_code(response)
    if code is None and p.event == "PostToolUse" and not interrupted:
        code = 0  # PostToolUse fires for commands that succeeded; failures come separately
    lines = [f"$ {command}"]
    if description := _text(p.tool_input.get("description")).strip():
        prov["description"] = description[:500]
    status = "interrupted" if interrupted else (f"exit {code}" if code is not None else "")
    if status:
        lines.append(f"[{status}]")
        prov["exitCode"] = code
    if hit := command_touches_excluded(command, cfg.excluded_paths):
        lines.append(f"[output {WITHHELD}: {hit}]")
        prov["outputWithheld"] = True
    else:
        for label, stream in (("stdout", stdout), ("stderr", stderr)):
            if not stream.strip():
                continue
            kept, original = bound(stream.rstrip("\n"), cfg.max_output_chars)
            lines.append(f"[{label}]\n{kept}" if label == "stderr" or stderr.strip() else kept)
            if original is not None:
                prov[f"{label}TruncatedFromChars"] = original
    return Draft("command", "\n".join(lines), prov)


# ---------------------------------------------------------------- edits


def _patch_text(patch: Any) -> str | None:
    """Claude Code's ``structuredPatch`` (hunks of ' '/'-'/'+' lines) as unified-diff hunks."""
    if not isinstance(patch, list) or not patch:
        return None
    out: list[str] = []
    for hunk in patch:
        if not isinstance(hunk, dict) or not isinstance(hunk.get("lines"), list):
            return None
        head = (
            hunk.get("oldStart"),
            hunk.get("oldLines"),
            hunk.get("newStart"),
            hunk.get("newLines"),
        )
        if not all(isinstance(n, int) for n in head):
            return None
        out.append(f"@@ -{head[0]},{head[1]} +{head[2]},{head[3]} @@")
        out.extend(str(line) for line in hunk["lines"])
    return "\n".join(out)


def _unified(old: str, new: str, name: str) -> str:
    import difflib  # only edits need it; every other event skips the import

    diff = difflib.unified_diff(
        old.splitlines(), new.splitlines(), f"a/{name}", f"b/{name}", lineterm="", n=2
    )
    return "\n".join(diff)


def _edit(p: HookPayload, cfg: HookConfig, prov: dict[str, Any], repo: str) -> Draft | None:
    path = _text(p.tool_input.get("file_path") or p.tool_input.get("notebook_path")).strip()
    if not path:
        return None
    name = _rel(path, repo)
    prov["path"] = path
    tool = p.tool_name or ""
    header = f"{tool} {name}"
    if is_excluded(path, cfg.excluded_paths):
        prov["contentWithheld"] = True
        return Draft("file_diff", f"{header}\n[diff {WITHHELD}]", prov)
    response = p.tool_response if isinstance(p.tool_response, dict) else {}
    hunks = _patch_text(response.get("structuredPatch"))
    if hunks is not None:
        diff = f"--- a/{name}\n+++ b/{name}\n{hunks}"
    elif tool == "Write":
        original = response.get("originalFile")
        old = original if isinstance(original, str) else ""
        diff = _unified(old, _text(p.tool_input.get("content")), name)
    elif tool == "MultiEdit":
        edits = p.tool_input.get("edits")
        parts = [
            _unified(_text(e.get("old_string")), _text(e.get("new_string")), name)
            for e in (edits if isinstance(edits, list) else [])
            if isinstance(e, dict)
        ]
        diff = "\n".join(part for part in parts if part)
    else:
        old_s, new_s = p.tool_input.get("old_string"), p.tool_input.get("new_string")
        diff = _unified(_text(old_s), _text(new_s), name)
    if not diff.strip():
        diff = "(no textual change)"
    kept, original_len = bound(diff, cfg.max_diff_chars)
    if original_len is not None:
        prov["diffTruncatedFromChars"] = original_len
    return Draft("file_diff", f"{header}\n{kept}", prov)


# ---------------------------------------------------------------- other tools


def _input_summary(tool_input: dict[str, Any], limit: int) -> str:
    if not tool_input:
        return ""
    parts = []
    for key in sorted(tool_input):
        parts.append(f"{key}={_text(tool_input[key])}")
    return bound(" ".join(parts), limit)[0]


def _drop_excluded_lines(text: str, patterns: tuple[str, ...]) -> str:
    """Grep output lines look like ``path:line:content``; drop those from excluded files."""
    kept = [
        line
        for line in text.splitlines()
        if not is_excluded(line.split(":", 1)[0].strip(), patterns)
    ]
    return "\n".join(kept)


def _blocks_text(blocks: list[Any]) -> str | None:
    texts = [b["text"] for b in blocks if isinstance(b, dict) and isinstance(b.get("text"), str)]
    return "\n".join(texts) if texts else None


def _result_text(result: Any) -> str:
    """The readable part of a tool result: Read's file text, Grep's matches or file names,
    WebFetch's answer, a Task's or MCP tool's text blocks; anything else as JSON."""
    if isinstance(result, list) and (text := _blocks_text(result)) is not None:
        return text
    if not isinstance(result, dict):
        return _text(result)
    file = result.get("file")
    if isinstance(file, dict) and isinstance(file.get("content"), str):
        return str(file["content"])
    content = result.get("content")
    if isinstance(content, str) and content.strip():
        return content
    if isinstance(content, list) and (text := _blocks_text(content)) is not None:
        return text
    if isinstance(result.get("result"), str):
        return str(result["result"])
    names = result.get("filenames")
    if isinstance(names, list) and names:
        return "\n".join(str(n) for n in names)
    return _text(result)


def _tool_call(p: HookPayload, cfg: HookConfig, prov: dict[str, Any], repo: str) -> Draft | None:
    tool = p.tool_name or "tool"
    path = next(
        (v for k in PATH_KEYS if isinstance(v := p.tool_input.get(k), str) and v.strip()), None
    )
    if path is not None:
        prov["path"] = path
        if is_excluded(path, cfg.excluded_paths):
            return None  # reading a secret file is noise, and its contents must never be kept
    inputs = _input_summary(p.tool_input, 1000)
    text = _drop_excluded_lines(_result_text(p.tool_response), cfg.excluded_paths).strip()
    kept, original = bound(text, cfg.max_result_chars)
    if original is not None:
        prov["resultTruncatedFromChars"] = original
    body = f"{tool} {inputs}".strip()
    if kept:
        body += f"\n{kept}"
    return Draft("tool_call", body, prov)


# ---------------------------------------------------------------- dispatch


def to_draft(p: HookPayload, cfg: HookConfig, repo: str) -> Draft | None:
    """The observation an event should leave behind, or None (nothing worth keeping)."""
    prov = _base_provenance(p, repo)
    if p.event == "UserPromptSubmit":
        if not p.prompt:
            return None
        prov["role"] = "user"
        return Draft("message", p.prompt, prov)
    if p.event == "SubagentStop":
        if not p.last_assistant_message:
            return None
        prov["role"] = "subagent"
        if p.agent_type:
            prov["agentType"] = p.agent_type
        text, _ = bound(p.last_assistant_message, cfg.max_result_chars)
        return Draft("message", text, prov)
    if p.event not in ("PostToolUse", "PostToolUseFailure") or not p.tool_name:
        return None
    if is_skipped_tool(p.tool_name, p.tool_input, cfg.skip_tools):
        return None
    if p.event == "PostToolUseFailure":
        return _failure(p, cfg, prov)
    if p.tool_name == "Bash":
        return _bash(p, cfg, prov)
    if p.tool_name in ("Edit", "MultiEdit", "Write", "NotebookEdit"):
        return _edit(p, cfg, prov, repo)
    return _tool_call(p, cfg, prov, repo)


def _failure(p: HookPayload, cfg: HookConfig, prov: dict[str, Any]) -> Draft | None:
    tool = p.tool_name or "tool"
    if p.is_interrupt:
        prov["interrupted"] = True
    path = next(
        (v for k in PATH_KEYS if isinstance(v := p.tool_input.get(k), str) and v.strip()), None
    )
    if tool == "Bash":
        subject = _text(p.tool_input.get("command")).strip()
        withheld = command_touches_excluded(subject, cfg.excluded_paths) is not None
    else:
        subject = path or _input_summary(p.tool_input, 500)
        withheld = path is not None and is_excluded(path, cfg.excluded_paths)
    error = WITHHELD if withheld else (p.error or ("interrupted" if p.is_interrupt else "failed"))
    if tool == "Bash" and (code := _EXIT_CODE.search(p.error or "")):
        prov["exitCode"] = int(code.group(1))
    kept, original = bound(error.strip(), cfg.max_output_chars)
    if original is not None:
        prov["errorTruncatedFromChars"] = original
    return Draft("error", f"{tool} failed: {subject}\n{kept}".strip(), prov)

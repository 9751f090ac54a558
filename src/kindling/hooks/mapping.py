"""Turn a hook payload into the observation to record (or nothing). Pure.

Bash -> ``command`` (command line, how it ended, head and tail of stdout/stderr); Edit, Write,
NotebookEdit -> ``file_diff`` (a unified diff, bounded; an agent that hands its own diff puts it
in ``tool_response.unifiedDiff``, and a patch's every file in ``tool_input.file_paths``); other
tools -> ``tool_call`` (inputs and a bounded result); failures -> ``error``; prompts ->
``message`` (``role`` "user", or "system" for what Claude Code injects itself, such as
``<task-notification>``). Noise is skipped: the tools in ``skip_tools`` and reads of excluded
paths. The contents of excluded paths (``.env``, ``*.pem``, ...) are never kept, whichever tool
touched them.

How a command ended is written only as Claude Code reported it: ``[exit N]`` from a failure's
``Exit code N``, Claude Code's own ``returnCodeInterpretation`` ("No matches found"),
``[interrupted]``, ``[running in background: <task id>]``; a plain PostToolUse is
``[completed]``, never an exit status we were not given.

Secrets: every text that may be cut is scrubbed whole first (a cut must not leave part of a
token), the kinds masked go to ``redactedKinds``; the spool writer scrubs the rest.

Must not import click, the CLI or the MCP server, nor open a database; no dataclasses, typing
or pathlib (see ``kindling.hooks``).
"""

from __future__ import annotations

import json
import re

from kindling.agents.events import HookPayload
from kindling.hooks.config import HookConfig
from kindling.hooks.filters import (
    command_touches_excluded,
    drop_excluded_lines,
    is_excluded,
    is_skipped_tool,
)
from kindling.secrets.regex_cache import compile as cached_compile
from kindling.secrets.scrub import scrub_secrets

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

WITHHELD = "[withheld: excluded path]"
PATH_KEYS = ("file_path", "notebook_path", "path")
REDACTED_KINDS_KEY = "redactedKinds"
EDIT_TOOLS = ("Edit", "Write", "NotebookEdit")
# Claude Code's PostToolUseFailure error for a command: "Exit code 2\n<output>".
_EXIT_CODE = cached_compile(r"\bexit (?:code|status):? (\d{1,3})\b", re.IGNORECASE)
# Prompts Claude Code submits itself (background task results), not the user's words.
SYSTEM_PROMPT_TAGS = ("<task-notification>", "<system-reminder>")


class Draft:
    """An observation ready for ``Kindling.append_observation``."""

    __slots__ = ("content", "kind", "provenance")

    def __init__(self, kind: str, content: str, provenance: dict[str, Any]) -> None:
        self.kind = kind
        self.content = content
        self.provenance = provenance

    def __repr__(self) -> str:
        return f"Draft({self.kind!r}, {self.content!r}, {self.provenance!r})"


def bound(text: str, limit: int) -> tuple[str, int | None]:
    """Keep the head and the tail of text longer than ``limit`` chars; report the original
    length. Both ends matter: a command's first lines say what ran, its last lines how it ended."""
    if len(text) <= limit:
        return text, None
    marker = f"\n…[{len(text) - limit} chars elided]…\n"
    keep = max(0, limit - len(marker)) // 2
    return text[:keep] + marker + text[len(text) - keep :], len(text)


def masked(text: str, prov: dict[str, Any]) -> str:
    """``text`` with its secrets masked; the kinds join ``prov["redactedKinds"]``."""
    found = scrub_secrets(text)
    if found.kinds:
        earlier = prov.get(REDACTED_KINDS_KEY)
        kinds = set(earlier) if isinstance(earlier, list) else set()
        prov[REDACTED_KINDS_KEY] = sorted(kinds | set(found.kinds))
    return found.text


def masked_bound(text: str, limit: int, prov: dict[str, Any]) -> tuple[str, int | None]:
    """Scrub the whole text, then bound it: a secret across the cut is gone, not halved."""
    return bound(masked(text, prov), limit)


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
    prov: dict[str, Any] = {"source": p.agent, "event": p.event}
    if p.tool_name:
        prov["tool"] = p.tool_name
    if p.tool_use_id:
        prov["toolUseId"] = p.tool_use_id
    if p.cwd:
        prov["cwd"] = p.cwd
    return prov


# ---------------------------------------------------------------- Bash


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _ending(response: dict[str, Any], prov: dict[str, Any]) -> str:
    """How a PostToolUse command ended, as Claude Code reported it (see the module)."""
    if response.get("interrupted") is True:
        prov["interrupted"] = True
        return "interrupted"
    task = response.get("backgroundTaskId")
    if isinstance(task, str) and task.strip():
        prov["backgroundTaskId"] = task
        return f"running in background: {task}"
    meaning = response.get("returnCodeInterpretation")
    if isinstance(meaning, str) and meaning.strip():
        prov["returnCodeInterpretation"] = meaning.strip()[:200]
        return meaning.strip()[:200]
    return "completed"


def _bash(p: HookPayload, cfg: HookConfig, prov: dict[str, Any]) -> Draft | None:
    command = _text(p.tool_input.get("command")).strip()
    if not command:
        return None
    response = p.tool_response if isinstance(p.tool_response, dict) else {}
    if isinstance(p.tool_response, dict):
        stdout, stderr = _text(response.get("stdout")), _text(response.get("stderr"))
    else:
        stdout, stderr = _text(p.tool_response), ""
    lines = [f"$ {command}", f"[{_ending(response, prov)}]"]
    if description := _text(p.tool_input.get("description")).strip():
        prov["description"] = description[:500]
    # Claude Code cuts long output itself and says how long it was (in bytes).
    if (persisted := _int(response.get("persistedOutputSize"))) is not None:
        prov["outputOriginalBytes"] = persisted
    if hit := command_touches_excluded(command, cfg.excluded_paths):
        lines.append(f"[output {WITHHELD}: {hit}]")
        prov["outputWithheld"] = True
    else:
        for label, stream in (("stdout", stdout), ("stderr", stderr)):
            if not stream.strip():
                continue
            kept, original = masked_bound(stream.rstrip("\n"), cfg.max_output_chars, prov)
            lines.append(f"[{label}]\n{kept}" if label == "stderr" or stderr.strip() else kept)
            if original is not None and persisted is None:  # else the cut copy's length
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
    others = p.tool_input.get("file_paths")  # a patch's every file (Codex's apply_patch)
    paths = (
        [path, *(o for o in others if isinstance(o, str))] if isinstance(others, list) else [path]
    )
    if len(set(paths)) > 1:
        header += f" (+{len(set(paths)) - 1} more)"
    if any(is_excluded(one, cfg.excluded_paths) for one in paths):
        prov["contentWithheld"] = True
        return Draft("file_diff", f"{header}\n[diff {WITHHELD}]", prov)
    response = p.tool_response if isinstance(p.tool_response, dict) else {}
    hunks = _patch_text(response.get("structuredPatch"))
    if hunks is not None:
        diff = f"--- a/{name}\n+++ b/{name}\n{hunks}"
    elif isinstance(response.get("unifiedDiff"), str):  # an agent that hands the diff itself
        diff = str(response["unifiedDiff"])
    elif tool == "Write":
        original = response.get("originalFile")
        old = original if isinstance(original, str) else ""
        diff = _unified(old, _text(p.tool_input.get("content")), name)
    else:
        old_s, new_s = p.tool_input.get("old_string"), p.tool_input.get("new_string")
        diff = _unified(_text(old_s), _text(new_s), name)
    if not diff.strip():
        diff = "(no textual change)"
    kept, original_len = masked_bound(diff, cfg.max_diff_chars, prov)
    if original_len is not None:
        prov["diffTruncatedFromChars"] = original_len
    return Draft("file_diff", f"{header}\n{kept}", prov)


# ---------------------------------------------------------------- other tools


def _input_summary(tool_input: dict[str, Any], limit: int, prov: dict[str, Any]) -> str:
    if not tool_input:
        return ""
    parts = [f"{key}={_text(tool_input[key])}" for key in sorted(tool_input)]
    return masked_bound(" ".join(parts), limit, prov)[0]


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
    inputs = _input_summary(p.tool_input, 1000, prov)
    text = drop_excluded_lines(_result_text(p.tool_response), cfg.excluded_paths).strip()
    kept, original = masked_bound(text, cfg.max_result_chars, prov)
    if original is not None:
        prov["resultTruncatedFromChars"] = original
    body = f"{tool} {inputs}".strip()
    if kept:
        body += f"\n{kept}"
    return Draft("tool_call", body, prov)


# ---------------------------------------------------------------- dispatch


def is_system_prompt(p: HookPayload) -> bool:
    """A prompt Claude Code submitted itself (a background task's notification, a wake-up)."""
    if p.source is not None and p.source not in ("user", "sdk"):
        return True
    return (p.prompt or "").lstrip().startswith(SYSTEM_PROMPT_TAGS)


# Claude Code runs a compaction as a subagent of no type, told to answer with an <analysis>
# block followed by a <summary> block; PostCompact records that summary (role "compaction").
_COMPACTION = cached_compile(r"\s*<analysis>.*</analysis>\s*<summary>.*</summary>\s*$", re.DOTALL)


def is_compaction(p: HookPayload) -> bool:
    """True for the SubagentStop of Claude Code's compaction (its summary is PostCompact's)."""
    text = p.last_assistant_message or ""
    return not p.agent_type and _COMPACTION.match(text) is not None


def to_draft(p: HookPayload, cfg: HookConfig, repo: str) -> Draft | None:
    """The observation an event should leave behind, or None (nothing worth keeping)."""
    prov = _base_provenance(p, repo)
    if p.event == "UserPromptSubmit":
        if not p.prompt:
            return None
        prov["role"] = "system" if is_system_prompt(p) else "user"
        if p.source:
            prov["promptSource"] = p.source
        text, original = masked_bound(p.prompt, cfg.max_result_chars * 8, prov)
        if original is not None:
            prov["contentTruncatedFromChars"] = original
        return Draft("message", text, prov)
    if p.event == "SubagentStop":
        if not p.last_assistant_message or is_compaction(p):
            return None
        prov["role"] = "subagent"
        if p.agent_type:
            prov["agentType"] = p.agent_type
        text, _ = masked_bound(p.last_assistant_message, cfg.max_result_chars, prov)
        return Draft("message", text, prov)
    if p.event == "PostCompact":
        if not p.compact_summary:
            return None
        prov["role"] = "compaction"
        if p.trigger:
            prov["trigger"] = p.trigger
        text, _ = masked_bound(p.compact_summary, cfg.max_diff_chars, prov)
        return Draft("message", text, prov)
    if p.event not in ("PostToolUse", "PostToolUseFailure") or not p.tool_name:
        return None
    if is_skipped_tool(p.tool_name, p.tool_input, cfg.skip_tools):
        return None
    if p.event == "PostToolUseFailure":
        return _failure(p, cfg, prov)
    if p.tool_name == "Bash":
        return _bash(p, cfg, prov)
    if p.tool_name in EDIT_TOOLS:
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
        subject = path or _input_summary(p.tool_input, 500, prov)
        withheld = path is not None and is_excluded(path, cfg.excluded_paths)
    error = WITHHELD if withheld else (p.error or ("interrupted" if p.is_interrupt else "failed"))
    status = ""
    if code := _EXIT_CODE.search(p.error or ""):
        prov["exitCode"] = int(code.group(1))
        status = f"[exit {code.group(1)}]\n"
        if not withheld and not error[: code.start()].strip():  # "Exit code 2\n<output>"
            error = error[code.end() :].lstrip("\n")
    kept, original = masked_bound(error.strip(), cfg.max_output_chars, prov)
    if original is not None:
        prov["errorTruncatedFromChars"] = original
    return Draft("error", f"{tool} failed: {subject}\n{status}{kept}".strip(), prov)

"""A background command's result, which arrives after its tool call as a ``<task-notification>``
prompt that Claude Code submits itself.

The command's own observation was recorded when it started (``[running in background: ID]``);
the notification names the task (``task-id``), the tool call that started it
(``tool-use-id``), how it ended (``status``, an exit code, a ``summary``) and the file holding
its output (``output-file``). This turns it into a ``command`` observation carrying the same
``backgroundTaskId`` and ``toolUseId`` as the start, its ``exitCode`` and ``taskStatus``, and
the tail of the output (scrubbed, bounded, grep lines from excluded files dropped), so the
result sits next to the command that produced it.

Must not import click, the CLI or the MCP server, nor open a database; standard library only
(it runs in the hook process).
"""

from __future__ import annotations

import os
import re
import stat

from kindling.agents.events import HookPayload
from kindling.hooks.config import HookConfig
from kindling.hooks.filters import drop_excluded_lines
from kindling.hooks.mapping import Draft, masked_bound

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

OUTPUT_TAIL_BYTES = 64 << 10
_EXIT = re.compile(r"\bexit(?:ed with)? code:? (-?\d{1,3})\b", re.IGNORECASE)


def _tag(text: str, *names: str) -> str | None:
    for name in names:
        found = re.search(rf"<{name}>(.*?)</{name}>", text, re.DOTALL)
        if found and found.group(1).strip():
            return found.group(1).strip()
    return None


def _tail(path: str | None) -> str:
    if not path:
        return ""
    try:
        with open(path, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                return ""
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - OUTPUT_TAIL_BYTES))
            return fh.read().decode("utf-8", "replace")
    except OSError:
        return ""


def task_result(p: HookPayload, cfg: HookConfig, prov: dict[str, Any]) -> Draft | None:
    """The result of the background task a ``<task-notification>`` prompt reports, or None."""
    text = p.prompt or ""
    if "<task-notification>" not in text:
        return None
    task = _tag(text, "task-id", "task_id")
    if task is None:
        return None
    prov["backgroundTaskId"] = task
    if tool_use := _tag(text, "tool-use-id", "tool_use_id"):
        prov["toolUseId"] = tool_use
    status = _tag(text, "status") or "finished"
    prov["taskStatus"] = status[:50]
    summary = _tag(text, "summary") or ""
    code = _tag(text, "exit-code", "exit_code")
    if code is None and (found := _EXIT.search(summary)):
        code = found.group(1)
    head = f"[background task {task} {status}"
    if code is not None and code.lstrip("-").isdigit():
        prov["exitCode"] = int(code)
        head += f", exit {int(code)}"
    lines = [head + "]"]
    if summary:
        lines.append(masked_bound(summary, 500, prov)[0])
    output = drop_excluded_lines(
        _tail(_tag(text, "output-file", "output_file")), cfg.excluded_paths
    )
    if output.strip():
        kept, original = masked_bound(output.strip(), cfg.max_output_chars, prov)
        lines.append(kept)
        if original is not None:
            prov["stdoutTruncatedFromChars"] = original
    return Draft("command", "\n".join(lines), prov)

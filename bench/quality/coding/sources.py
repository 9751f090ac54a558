"""Read public coding-agent trajectories (fetched mirrors, read with ``git show``) into neutral
steps: the task, then each tool call with its output, return code (when the agent recorded one)
and, for editor calls, the file and the old and new text. Only the builder uses this module;
the harness never needs the mirrors.

Here: the common types, mini-SWE-agent / live-SWE-agent ``.traj.json`` (chat messages with
``tool_calls`` and ``<returncode>`` outputs), SWE-agent ``.traj`` (``trajectory`` steps whose
``response`` holds the ``<function=...>`` call, or SWE-agent 0.x ``edit N:M`` commands) and
the patch rebuilt from the steps when a run kept none; ``readers`` has the other formats.

Must not import Kindling.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MIRRORS = Path("/work/.mirror")


@dataclass(frozen=True, slots=True)
class Source:
    """One repository of trajectories: where, at which commit, under which terms."""

    repo: str  # owner/name on GitHub
    commit: str
    licence: str
    agent: str
    split: str  # tune | heldout
    paths: tuple[tuple[str, str], ...]  # (path in the repository, model label)


@dataclass(slots=True)
class Step:
    tool: str  # bash | edit | write | view | submit
    command: str = ""
    output: str = ""
    returncode: int | None = None
    path: str = ""
    old: str = ""
    new: str = ""
    thought: str = ""


@dataclass(slots=True)
class Trajectory:
    source: str  # owner/name@commit:path
    agent: str
    model: str
    split: str
    instance_id: str
    task: str  # the issue text (title first)
    patch: str
    steps: list[Step] = field(default_factory=list)
    patch_from: str = "agent"  # the agent's submission; "steps" when rebuilt from its steps

    @property
    def title(self) -> str:
        return next((ln.strip() for ln in self.task.splitlines() if ln.strip()), "")


def git_show(repo: str, commit: str, path: str) -> bytes:
    git = MIRRORS / repo.replace("/", "+") / "repo"
    out = subprocess.run(
        ["git", "-C", str(git), "show", f"{commit}:{path}"], capture_output=True, check=True
    )
    return out.stdout


def between(text: str, start: str, end: str, *, last: bool = False) -> str:
    """The text between ``start`` (its last occurrence with ``last``: a prompt may quote a
    demonstration's issue before the real one) and the ``end`` after it."""
    i = text.rfind(start) if last else text.find(start)
    if i < 0:
        return ""
    j = text.find(end, i + len(start))
    return text[i + len(start) : j if j >= 0 else len(text)]


def task_text(user: str) -> str:
    body = between(user, "<pr_description>", "</pr_description>") or between(
        user, "ISSUE:", "INSTRUCTIONS:", last=True
    )
    body = body.replace("Consider the following PR description:", "")
    return body.strip()


_RC = re.compile(r"<returncode>(-?\d+)</returncode>")


def _mini_output(content: str) -> tuple[str, int | None]:
    rc = _RC.search(content)
    out = between(content, "<output>", "</output>") if "<output>" in content else content
    if "<output_head>" in content:
        out = between(content, "<output_head>", "</output_head>") + "\n…\n"
        out += between(content, "<output_tail>", "</output_tail>")
    return out.strip("\n"), int(rc.group(1)) if rc else None


def read_mini(doc: dict[str, Any], src: Source, path: str, model: str, patch: str) -> Trajectory:
    messages = doc["messages"]
    user = next(m["content"] for m in messages if m["role"] == "user")
    traj = Trajectory(
        f"{src.repo}@{src.commit}:{path}",
        src.agent,
        model,
        src.split,
        doc.get("instance_id") or Path(path).parent.name,
        task_text(user),
        patch,
    )
    pending: dict[str, Step] = {}
    for m in messages:
        if m["role"] == "assistant":
            thought = m.get("content") or ""
            for call in m.get("tool_calls") or []:
                try:
                    args = json.loads(call["function"]["arguments"])
                except (ValueError, KeyError):
                    continue
                step = Step("bash", command=str(args.get("command", "")), thought=thought)
                pending[call["id"]] = step
                traj.steps.append(step)
        elif m["role"] == "tool" and m.get("tool_call_id") in pending:
            step = pending.pop(m["tool_call_id"])
            step.output, step.returncode = _mini_output(str(m.get("content") or ""))
    traj.steps = [s for s in traj.steps if s.command.strip()]
    return traj


PARAM = re.compile(r"<parameter=(\w+)>\n?(.*?)\n?</parameter>", re.DOTALL)
FUNC = re.compile(r"<function=(\w+)>")


def _sweagent_step(step: dict[str, Any], open_file: str) -> tuple[Step, str]:
    action = str(step.get("action") or "")
    output = str(step.get("observation") or "").replace("\r\n", "\n")
    thought = str(step.get("thought") or "")
    response = str(step.get("response") or "")
    func = FUNC.search(response)
    params = dict(PARAM.findall(response))
    if func and func.group(1) == "str_replace_editor" and "command" in params:
        cmd, path = params["command"].strip(), params.get("path", "").strip()
        if cmd == "str_replace":
            s = Step(
                "edit", path=path, old=params.get("old_str", ""), new=params.get("new_str", "")
            )
        elif cmd == "create":
            s = Step("write", path=path, new=params.get("file_text", ""))
        elif cmd == "insert":
            s = Step("edit", path=path, new=params.get("new_str", ""))
        else:
            s = Step("view", path=path)
        s.output, s.thought, s.command = output, thought, action
        return s, open_file
    first, _, rest = action.partition("\n")
    word = first.split(" ", 1)[0]
    if word == "open" and len(first.split()) > 1:
        target = first.split()[1].strip("\"'")
        return Step("view", action, output, path=target, thought=thought), target
    if word == "create" and len(first.split()) > 1:
        target = first.split()[1].strip("\"'")
        return Step("write", action, output, path=target, thought=thought), target
    if word == "edit" and open_file:
        body = rest.rsplit("end_of_edit", 1)[0].rstrip("\n")
        return Step("edit", action, output, path=open_file, new=body, thought=thought), open_file
    if word == "submit":
        return Step("submit", action, output, thought=thought), open_file
    return Step("bash", action, output, thought=thought), open_file


def read_sweagent(doc: dict[str, Any], src: Source, path: str, model: str) -> Trajectory:
    history = doc.get("history") or []
    users = []
    for h in history:
        content = h.get("content")
        if isinstance(content, list):
            content = "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
        if h.get("role") == "user" and isinstance(content, str):
            users.append(content)
    # The task is the last user message that states an issue (an earlier one may be a
    # demonstration of another task).
    user = next((u for u in reversed(users) if "ISSUE:" in u or "<pr_description>" in u), "")
    info = doc.get("info") or {}
    instance = Path(path).name.split(".traj")[0]
    traj = Trajectory(
        f"{src.repo}@{src.commit}:{path}",
        src.agent,
        model,
        src.split,
        instance,
        task_text(user),
        str(info.get("submission") or ""),
    )
    open_file = ""
    for raw in doc.get("trajectory") or []:
        step, open_file = _sweagent_step(raw, open_file)
        if step.command.strip() or step.tool != "bash":
            traj.steps.append(step)
    return traj


def patch_from_steps(traj: Trajectory) -> str:
    """When a trajectory carries no final patch: the last ``git diff`` output it shows, else a
    header per file its editor changed, with a hunk header for each edit whose old (else new)
    text defines a function or class, naming the first one (what the rules read)."""
    for step in reversed(traj.steps):
        if "git diff" in step.command and step.output.lstrip().startswith("diff --git"):
            return step.output.strip() + "\n"
    out: dict[str, list[str]] = {}
    for s in traj.steps:
        if s.tool == "edit" and s.path.startswith("/testbed/"):
            symbols = out.setdefault(s.path[len("/testbed/") :], [])
            if found := _DEFINED.search(s.old or s.new):
                symbols.append(found.group(1))
    return "".join(
        f"diff --git a/{f} b/{f}\n" + "".join(f"@@ -0,0 +0,0 @@ def {n}(\n" for n in names)
        for f, names in out.items()
    )


_DEFINED = re.compile(r"^\s*(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)", re.MULTILINE)

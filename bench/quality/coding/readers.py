"""Readers for three more trajectory formats (see ``sources`` for the common types): SWE-agent
runs as lgetter/swe-agent-trajectory-analysis printed them, the result files of
amanmehta-maniac/agent-consistency, and OpenHands CodeAct's LLM-call logs. Only the builder
uses this module.

Must not import Kindling.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bench.quality.coding.sources import FUNC, PARAM, Source, Step, Trajectory, between, task_text

_BAR = "█" * 100
_RULE = "-" * 100


def _section(chunk: str, head: str, ends: tuple[str, ...]) -> str:
    i = chunk.find(head)
    if i < 0:
        return ""
    body = chunk[i + len(head) :].lstrip("\n")
    body = body[len(_RULE) :].lstrip("\n") if body.startswith(_RULE) else body
    cut = min((j for e in ends if (j := body.find(e)) >= 0), default=len(body))
    return body[:cut].strip("\n")


def _pretty_action(chunk: str) -> str:
    if "\nFull Action:\n" in chunk:
        block = _section(chunk, "\nFull Action:\n", ("\n👁️",))
        return "\n".join(line[2:] if line.startswith("  ") else line for line in block.split("\n"))
    return _section(chunk, "Command: ", ("\n",))


def _editor_step(action: str, output: str, thought: str) -> Step | None:
    import shlex

    try:
        argv = shlex.split(action)
    except ValueError:
        return None
    if len(argv) < 3 or argv[0] != "str_replace_editor":
        return None
    cmd, path = argv[1], argv[2]
    opts = {argv[i][2:]: argv[i + 1] for i in range(3, len(argv) - 1) if argv[i].startswith("--")}
    if cmd == "str_replace":
        step = Step("edit", path=path, old=opts.get("old_str", ""), new=opts.get("new_str", ""))
    elif cmd == "insert":
        step = Step("edit", path=path, new=opts.get("new_str", ""))
    elif cmd == "create":
        step = Step("write", path=path, new=opts.get("file_text", ""))
    else:
        step = Step("view", path=path)
    step.command, step.output, step.thought = action, output, thought
    return step


def read_pretty(text: str, src: Source, path: str, model: str) -> Trajectory:
    """A trajectory as ``format_trajectory.py`` of lgetter/swe-agent-trajectory-analysis
    printed it (observations cut at 2,000 characters; no final patch)."""
    text = text.replace("\r\n", "\n")
    problem = _section(text, "PROBLEM DESCRIPTION / INITIAL OBSERVATION", ("\n" + "=" * 100,))
    problem = problem.split("\n", 2)[-1]  # the box's lower edge
    instance = Path(path).name.split("_formatted")[0]
    traj = Trajectory(
        f"{src.repo}@{src.commit}:{path}",
        src.agent,
        model,
        src.split,
        instance,
        task_text(problem),
        "",
    )
    for chunk in text.split(_BAR + "\nSTEP ")[1:]:
        thought = _section(chunk, "💭 AGENT'S THOUGHT PROCESS:", ("\n⚡ ACTION TAKEN:",))
        action = _pretty_action(chunk)
        output = _section(
            chunk,
            "👁️  OBSERVATION/RESULT:",
            ("\n📝 AGENT'S RESPONSE:", "\n⏱️", "\n📁 Working Directory", "\n" + _BAR),
        )
        if not action.strip() or action == "No action recorded":
            continue
        step = _editor_step(action, output, thought)
        if step is None:
            word = action.split(None, 1)[0]
            step = Step("submit" if word == "submit" else "bash", action, output, thought=thought)
        traj.steps.append(step)
    return traj


def read_runs(doc: dict[str, Any], src: Source, path: str, model: str) -> Trajectory:
    """The first run of an amanmehta-maniac/agent-consistency result file (a bash-only agent:
    thought, command, output, return code per step; the final diff as ``final_output``)."""
    run = doc["runs"][0]
    final = str(run.get("final_output") or "")
    traj = Trajectory(
        f"{src.repo}@{src.commit}:{path}#runs[0]",
        src.agent,
        model,
        src.split,
        str(doc["task_id"]),
        str(doc["task"]).replace("\r\n", "\n").strip(),
        final if final.lstrip().startswith("diff --git") else "",
    )
    for step in run.get("steps") or []:
        action = str(step.get("action") or "")
        if not action.strip():
            continue
        rc = step.get("returncode")
        traj.steps.append(
            Step(
                "bash",
                action,
                str(step.get("observation") or "").replace("\r\n", "\n"),
                rc if isinstance(rc, int) else None,
                thought=str(step.get("thought") or ""),
            )
        )
    return traj


_EXIT = re.compile(r"\[Command finished with exit code (-?\d+)\]")
_META = re.compile(
    r"^\[(The command completed|Current working directory|Python interpreter|"
    r"Command finished)[^\n]*\]\n?",
    re.MULTILINE,
)
_WORKSPACE = re.compile(r"/workspace/[\w.-]+__[\w.-]+__[\w.-]+")


def _text_of(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        content = "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return _WORKSPACE.sub("/testbed", str(content or ""))


def read_openhands(doc: dict[str, Any], src: Source, path: str, model: str) -> Trajectory:
    """An OpenHands CodeAct trajectory as its last LLM call logged it: the whole conversation
    (``<function=...>`` calls in the assistant's text, ``EXECUTION RESULT of [...]`` replies)
    and the final ``response``. No final patch is kept."""
    messages = list(doc.get("messages") or [])
    choices = (doc.get("response") or {}).get("choices") or []
    if choices and isinstance(choices[0].get("message"), dict):
        messages.append(choices[0]["message"])
    users = [_text_of(m) for m in messages if m.get("role") == "user"]
    task = next((u for u in users if "<issue_description>" in u), "")
    traj = Trajectory(
        f"{src.repo}@{src.commit}:{path}",
        src.agent,
        model,
        src.split,
        Path(path).parent.name,
        between(task, "<issue_description>", "</issue_description>").strip(),
        "",
    )
    pending: Step | None = None
    for m in messages:
        text = _text_of(m)
        if m.get("role") == "assistant":
            func = FUNC.search(text)
            if func is None:
                continue
            params = dict(PARAM.findall(text))
            thought = text[: func.start()].strip()
            name = func.group(1)
            if name == "str_replace_editor":
                step = _editor_params(params, thought)
            elif name == "finish":
                step = Step("submit", "finish", thought=thought)
            else:
                step = Step("bash", params.get("command", "").strip(), thought=thought)
            traj.steps.append(step)
            pending = step
        elif m.get("role") == "user" and pending is not None:
            if text.startswith("EXECUTION RESULT of ["):
                body = text.split("]:\n", 1)[-1]
                code = _EXIT.search(body)
                pending.output = _META.sub("", body).strip("\n")
                pending.returncode = int(code.group(1)) if code else None
            pending = None
    traj.steps = [s for s in traj.steps if s.tool != "bash" or s.command]
    return traj


def _editor_params(params: dict[str, str], thought: str) -> Step:
    cmd, path = params.get("command", "").strip(), params.get("path", "").strip()
    if cmd == "str_replace":
        step = Step("edit", path=path, old=params.get("old_str", ""), new=params.get("new_str", ""))
    elif cmd == "insert":
        step = Step("edit", path=path, new=params.get("new_str", ""))
    elif cmd == "create":
        step = Step("write", path=path, new=params.get("file_text", ""))
    else:
        step = Step("view", path=path)
    step.command, step.thought = f"str_replace_editor {cmd} {path}", thought
    return step

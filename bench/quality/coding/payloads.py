"""Record a trajectory the way Kindling's Claude Code hooks would: each step becomes the hook
payload Claude Code would send (the task as ``UserPromptSubmit``; a shell command as a Bash
``PostToolUse`` with stdout, or a ``PostToolUseFailure`` with ``Exit code N`` when it failed;
an editor replace/insert as ``Edit`` and a file creation as ``Write``, so both become diffs; a
file view as ``Read``), and the real mapping (``kindling.hooks.mapping.to_draft``, default
``HookConfig``) turns it into the observation's kind, content and provenance.

The agents ran in ``/testbed``; a developer's checkout would be at ``/src/<owner>/<name>``, so
that prefix is rewritten in every text (the hooks make edit paths relative to it).

A failed run is a command with a non-zero recorded return code; SWE-agent trajectories record
none, so there a command whose output holds a Python traceback counts as ``Exit code 1`` (what
an uncaught exception exits with), and an editor call the tool refused is an Edit failure.

Of Kindling, must import only the hooks' mapping, payload and config (what the hooks run).
"""

from __future__ import annotations

from typing import Any

from bench.quality.coding.sources import Step, Trajectory
from kindling.agents.events import HookPayload
from kindling.hooks.config import HookConfig
from kindling.hooks.mapping import to_draft

CONFIG = HookConfig()
TRACEBACK = "Traceback (most recent call last)"
EDITOR_REFUSALS = ("No replacement was performed", "did not appear verbatim", "Invalid `path`")


def checkout(repo: str) -> str:
    return f"/src/{repo}"


def _payload(event: str, session: str, cwd: str, n: int, **fields: Any) -> dict[str, Any]:
    return {
        "session_id": session,
        "transcript_path": f"/home/dev/.claude/projects/{session}.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": event,
        **({"tool_use_id": f"toolu_{session[:8]}_{n:03d}"} if event != "UserPromptSubmit" else {}),
        **fields,
    }


def _failed(step: Step) -> int | None:
    if step.returncode is not None:
        return step.returncode or None
    if step.tool == "bash" and TRACEBACK in step.output:
        return 1
    return None


def step_payload(step: Step, session: str, cwd: str, n: int) -> dict[str, Any] | None:
    path = step.path.replace("/testbed", cwd)
    if step.tool == "submit":
        return None
    if step.tool in ("edit", "write"):
        if any(r in step.output for r in EDITOR_REFUSALS):
            tool = "Edit" if step.tool == "edit" else "Write"
            inputs = {"file_path": path, "old_string": step.old, "new_string": step.new}
            return _payload(
                "PostToolUseFailure",
                session,
                cwd,
                n,
                tool_name=tool,
                tool_input=inputs,
                error=step.output.strip(),
                is_interrupt=False,
            )
        if step.tool == "write":
            inputs = {"file_path": path, "content": step.new}
            return _payload(
                "PostToolUse",
                session,
                cwd,
                n,
                tool_name="Write",
                tool_input=inputs,
                tool_response={"type": "create", "filePath": path},
            )
        inputs = {"file_path": path, "old_string": step.old, "new_string": step.new}
        return _payload(
            "PostToolUse",
            session,
            cwd,
            n,
            tool_name="Edit",
            tool_input=inputs,
            tool_response={"filePath": path},
        )
    if step.tool == "view":
        return _payload(
            "PostToolUse",
            session,
            cwd,
            n,
            tool_name="Read",
            tool_input={"file_path": path},
            tool_response={"type": "text", "file": {"filePath": path, "content": step.output}},
        )
    command = step.command.replace("/testbed", cwd)
    output = step.output.replace("/testbed", cwd)
    code = _failed(step)
    if code is not None:
        return _payload(
            "PostToolUseFailure",
            session,
            cwd,
            n,
            tool_name="Bash",
            tool_input={"command": command},
            error=f"Exit code {code}\n{output}",
            is_interrupt=False,
        )
    return _payload(
        "PostToolUse",
        session,
        cwd,
        n,
        tool_name="Bash",
        tool_input={"command": command},
        tool_response={"stdout": output, "stderr": "", "interrupted": False, "isImage": False},
    )


def drafts(traj: Trajectory, session: str, repo: str) -> list[tuple[int, dict[str, Any]]]:
    """(step index, {kind, content, provenance}) for the prompt (index -1) and each step the
    hooks keep, in order."""
    cwd = checkout(repo)
    events = [(-1, _payload("UserPromptSubmit", session, cwd, 0, prompt=traj.task))]
    for i, step in enumerate(traj.steps):
        p = step_payload(step, session, cwd, i + 1)
        if p is not None:
            events.append((i, p))
    out = []
    for i, data in events:
        draft = to_draft(HookPayload(data), CONFIG, cwd)
        if draft is not None:
            out.append(
                (i, {"kind": draft.kind, "content": draft.content, "provenance": draft.provenance})
            )
    return out

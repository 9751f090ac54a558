"""OpenCode's capture: the plugin ``kindling init --opencode`` writes hands OpenCode's events to
``kindling hook --agent opencode``, and each lands as the right record.

The payloads are shaped exactly like ``@opencode-ai/plugin`` 1.18.33's ``Hooks`` arguments and
``@opencode-ai/sdk``'s ``Event`` types (``tool.execute.after`` input and output,
``chat.message``, ``EventMessagePartUpdated`` with a ``ToolPart`` in state "error",
``EventSessionIdle``, ``EventSessionError``). The plugin itself runs under Node (the runtime
OpenCode's Bun imitates for ``node:child_process``): its hooks return at once and never throw,
even when ``kindling`` cannot be started.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from kindling import Kindling, Scope
from kindling.agents import opencode
from kindling.hooks.config import DEFAULT_SKIP_TOOLS
from tests.support.hooks import run_hook, wait_for_refreshers
from tests.support.requires import require

KINDLING = str(Path(sys.executable).with_name("kindling"))
SESSION = "ses_6a1f0c2e9ffeABCDEF123456"
T = {"start": 1764079200000, "end": 1764079201234}


def after(repo: Path, tool: str, call: str, args: dict[str, Any], **out: Any) -> dict[str, Any]:
    """The two arguments of ``tool.execute.after``, as the plugin forwards them."""
    return {
        "hook_event_name": "tool.execute.after",
        "directory": str(repo),
        "input": {"tool": tool, "sessionID": SESSION, "callID": call, "args": args},
        "output": {"title": tool, "output": out["output"], "metadata": out["meta"]},
    }


def event(repo: Path, kind: str, properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "hook_event_name": kind,
        "directory": str(repo),
        "event": {"type": kind, "properties": properties},
        **extra,
    }


def prompt(repo: Path, text: str) -> dict[str, Any]:
    message = {
        "id": "msg_u1",
        "sessionID": SESSION,
        "role": "user",
        "time": {"created": T["start"]},
        "agent": "build",
        "model": {"providerID": "anthropic", "modelID": "claude-sonnet-4-5"},
    }
    part = {"id": "prt_1", "sessionID": SESSION, "messageID": "msg_u1", "type": "text"}
    return {
        "hook_event_name": "chat.message",
        "directory": str(repo),
        "input": {"sessionID": SESSION, "agent": "build", "messageID": "msg_u1"},
        "output": {
            "message": message,
            "parts": [
                {**part, "text": text},
                {**part, "id": "prt_2", "text": "<file>...</file>", "synthetic": True},
            ],
        },
    }


def tool_error(repo: Path, call: str) -> dict[str, Any]:
    part = {
        "id": "prt_9",
        "sessionID": SESSION,
        "messageID": "msg_a1",
        "type": "tool",
        "callID": call,
        "tool": "edit",
        "state": {
            "status": "error",
            "input": {"filePath": str(repo / "a.py"), "oldString": "x = 1", "newString": "x = 2"},
            "error": "Error: Could not find oldString in the file.",
            "time": T,
        },
    }
    return event(repo, "message.part.updated", {"part": part})


def session_payloads(repo: Path) -> list[dict[str, Any]]:
    bash = {"command": "pytest -q", "description": "Run the tests"}
    edit = {"filePath": str(repo / "a.py"), "oldString": "x = 1", "newString": "x = 2"}
    diff = "Index: a.py\n--- a.py\n+++ a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"
    return [
        prompt(repo, "Fix the failing test"),
        after(repo, "bash", "call_1", bash, output="3 passed", meta={"exit": 0, "output": "3"}),
        after(repo, "bash", "call_1", bash, output="3 passed", meta={"exit": 0}),  # twice: once
        after(repo, "bash", "call_2", {"command": "make"}, output="E42", meta={"exit": 2}),
        after(
            repo,
            "edit",
            "call_3",
            edit,
            output="Edit applied successfully.",
            meta={"diff": diff, "filediff": {"file": str(repo / "a.py"), "patch": diff}},
        ),
        after(repo, "read", "call_4", {"filePath": str(repo / "a.py")}, output="x", meta={}),
        after(repo, "kindling_retrieve", "call_5", {"query": "x"}, output="[]", meta={}),
        tool_error(repo, "call_6"),
        event(repo, "session.idle", {"sessionID": SESSION}, lastAssistantText="Fixed a.py."),
    ]


def stored() -> tuple[list[Any], Any]:
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        obs = list(reversed(kd.list_observations(scope=Scope(session_id=SESSION), limit=100)))
        [capsule] = kd.list_capsules(scope=Scope(session_id=SESSION))
        summary = kd.get_summary(capsule.summary_id) if capsule.summary_id else None
    return obs, summary


def check(obs: list[Any], summary: Any, *, ordered: bool = True) -> None:
    if not ordered:  # detached processes: each stamps its own time
        order = ["Fix", "$ pytest", "Bash failed", "---", "Edit failed"]
        obs = sorted(obs, key=lambda o: next(i for i, p in enumerate(order) if p in o.content))
    assert [(o.kind, o.provenance["source"]) for o in obs] == [
        ("message", "opencode"),
        ("command", "opencode"),
        ("error", "opencode"),
        ("file_diff", "opencode"),
        ("error", "opencode"),
    ]
    assert obs[0].content == "Fix the failing test"
    assert obs[1].content == "$ pytest -q\n[completed]\n3 passed"
    assert obs[2].content.startswith("Bash failed: make\n[exit 2]")
    assert "-x = 1\n+x = 2" in obs[3].content
    assert obs[4].content.startswith("Edit failed:")
    assert "Could not find oldString" in obs[4].content
    assert summary is not None
    assert summary.content == "Fixed a.py."


def test_opencode_events_land_as_observations(git_repo: Path) -> None:
    for data in session_payloads(git_repo):
        proc = run_hook(data["hook_event_name"], data, "--agent", "opencode")
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    wait_for_refreshers()
    check(*stored())
    assert not (Path(os.environ["KINDLING_HOME"]) / "hooks.log").exists()


def test_an_opencode_error_turn_is_never_the_summary(git_repo: Path) -> None:
    error = {"name": "APIError", "data": {"message": "Bad Request", "isRetryable": False}}
    data = event(git_repo, "session.error", {"sessionID": SESSION, "error": error})
    assert run_hook("session.error", data, "--agent", "opencode").returncode == 0
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        [obs] = kd.list_observations(scope=Scope(session_id=SESSION))
        assert kd.list_summaries() == []
    assert obs.kind == "error"
    assert obs.content.startswith("Turn ended by an API error: APIError\nBad Request")


@pytest.mark.parametrize(
    ("native", "data"),
    [
        ("tool.execute.after", {"input": "x", "output": [1]}),
        ("tool.execute.after", {"input": {"tool": 5, "args": "y"}, "output": {"metadata": 3}}),
        ("message.part.updated", {"event": {"properties": {"part": {"type": "text"}}}}),
        ("chat.message", {"output": {"parts": "no"}}),
        ("session.error", {"event": {"properties": {"error": "boom"}}}),
        ("session.compacted", {}),
    ],
)
def test_bad_opencode_payloads_exit_zero(native: str, data: dict[str, Any]) -> None:
    proc = run_hook(native, {"directory": "/nowhere", **data}, "--agent", "opencode")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def node() -> str:
    require("node")  # without it the plugin is not run (its payloads are tested above)
    return str(shutil.which("node"))


DRIVER = """
const [plugin, directory, payloads] = process.argv.slice(2);
const { KindlingPlugin } = await import(plugin);
const hooks = await KindlingPlugin({ directory, worktree: directory });
const session = %(session)r;
const calls = JSON.parse(payloads);
// What OpenCode publishes around them: the assistant message and its text, not forwarded.
await hooks.event({ event: { type: "message.updated", properties: { info: {
  id: "msg_a1", sessionID: session, role: "assistant" } } } });
await hooks.event({ event: { type: "message.part.updated", properties: { part: {
  id: "prt_t", sessionID: session, messageID: "msg_a1", type: "text", text: "Fixed a.py." },
  delta: "." } } });
for (const data of calls) {
  const name = data.hook_event_name;
  if (name === "tool.execute.after" || name === "chat.message") {
    await hooks[name](data.input, data.output);
  } else {
    await hooks.event({ event: data.event });
  }
  await new Promise((done) => setTimeout(done, 150)); // the order OpenCode sends them in
}
await hooks.event({ event: null }); // nonsense: ignored, never thrown
console.log("returned");
"""


def run_plugin(repo: Path, exe: str, payloads: list[dict[str, Any]]) -> str:
    plugin = opencode.plugin_path("project", str(repo))
    module = repo / "plugin.mjs"  # Node reads ES modules by extension; OpenCode (Bun) as .js
    module.write_text(plugin.read_text(encoding="utf-8"), encoding="utf-8")
    driver = repo / "driver.mjs"
    driver.write_text(DRIVER % {"session": SESSION}, encoding="utf-8")
    proc = subprocess.run(
        [node(), str(driver), module.as_uri(), str(repo), json.dumps(payloads)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (proc.returncode, proc.stderr) == (0, ""), proc
    return proc.stdout


def test_the_plugin_hands_each_event_to_kindling(git_repo: Path) -> None:
    opencode.install("project", str(git_repo), KINDLING)
    payloads = [p for p in session_payloads(git_repo) if p["hook_event_name"] != "session.idle"]
    properties = {"sessionID": SESSION}
    idle = {
        "hook_event_name": "session.idle",
        "event": {"type": "session.idle", "properties": properties},
    }
    assert run_plugin(git_repo, KINDLING, [*payloads, idle]) == "returned\n"
    deadline = time.monotonic() + 60  # the hooks run detached: wait for them to land
    while True:
        try:
            obs, summary = stored()
            check(obs, summary, ordered=False)
            break
        except (AssertionError, ValueError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
    wait_for_refreshers()


def test_the_plugin_never_throws_when_kindling_cannot_start(git_repo: Path) -> None:
    opencode.install("project", str(git_repo), str(git_repo / "no" / "kindling"))
    assert run_plugin(git_repo, "", session_payloads(git_repo)) == "returned\n"


def test_the_plugin_starts_no_hook_for_tools_kindling_never_records(
    git_repo: Path, tmp_path: Path
) -> None:
    """Read, Glob... (``skip_tools``) and Kindling's own MCP tools would record nothing: the
    plugin starts no process for them (a spy stands in for ``kindling``)."""
    log = tmp_path / "spy.log"
    spy = tmp_path / "spy"
    spy.write_text(f'#!/bin/sh\ncat > /dev/null\necho "$@" >> {log}\n', encoding="utf-8")
    spy.chmod(0o755)
    opencode.install("project", str(git_repo), str(spy), skip_tools=DEFAULT_SKIP_TOOLS)

    def call(tool: str) -> dict[str, Any]:
        inp = {"tool": tool, "sessionID": SESSION, "callID": f"call_{tool}", "args": {}}
        return {"hook_event_name": "tool.execute.after", "input": inp, "output": {"output": ""}}

    tools = ["read", "glob", "grep", "list", "todowrite", "kindling_retrieve", "bash"]
    assert run_plugin(git_repo, str(spy), [call(t) for t in tools]) == "returned\n"
    deadline = time.monotonic() + 30  # detached: bash's lands last; others would be before it
    while not (log.is_file() and "tool.execute.after" in log.read_text(encoding="utf-8")):
        assert time.monotonic() < deadline, "the plugin started no hook for bash"
        time.sleep(0.2)
    time.sleep(1)
    lines = log.read_text(encoding="utf-8").splitlines()
    assert [x for x in lines if "tool.execute.after" in x] == [
        "hook --agent opencode tool.execute.after"
    ], lines

"""Agent modules: every agent's ``init`` keeps the user's keys, backs up and uninstalls exactly
what it added; each agent's published hook payloads land as the right observation; agent
modules never import each other; the agent list exists once, and a sixth agent registered
from outside is recorded and gets its init flag with no other change."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

from kindling import Kindling
from kindling.agents import get, names
from kindling.agents.base import FileChange
from tests.support.hooks import run_hook
from tests.support.paths import ROOT

KINDLING = str(Path(sys.executable).with_name("kindling"))
AGENTS_DIR = ROOT / "src" / "kindling" / "agents"
FLAGS = {"claude-code": "--claude-code", "gemini": "--gemini", "codex": "--codex"}
FLAGS |= {"opencode": "--opencode", "cursor": "--cursor"}
SAY = {"hooks": [{"type": "command", "command": "say"}]}
# The user's own content in each file an agent's init writes.
USER_FILES: dict[str, dict[str, str]] = {
    "claude-code": {
        ".claude/settings.json": json.dumps({"model": "opus", "hooks": {"Stop": [SAY]}})
    },
    "gemini": {
        ".gemini/settings.json": json.dumps(
            {
                "theme": "Dracula",
                "mcpServers": {"github": {"command": "gh-mcp"}},
                "hooks": {
                    "enabled": True,
                    "AfterTool": [{"hooks": [{"type": "command", "command": "lint"}]}],
                },
            }
        )
    },
    "codex": {
        ".codex/config.toml": '# mine\nmodel = "o4"\n\n[mcp_servers.github]\ncommand = "gh-mcp"\n',
        ".codex/hooks.json": json.dumps({"hooks": {"Stop": [SAY]}}),
    },
    "opencode": {
        "opencode.json": '{"theme": "tokyonight", "mcp": {"gh": {"type": "remote", "url": "https://x"}}}'
    },
    "cursor": {
        ".cursor/mcp.json": '{"mcpServers": {"gh": {"command": "gh-mcp"}}}',
        ".cursor/hooks.json": '{"version": 1, "hooks": {"stop": [{"command": "./audit.sh"}]}}',
    },
}


def kindling(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KINDLING, *args], capture_output=True, text=True, cwd=cwd, timeout=60)


def test_every_agent_is_in_the_registry_and_has_an_init_flag() -> None:
    assert names() == ("claude-code", "codex", "cursor", "gemini", "opencode")
    for name in names():
        agent = get(name)
        assert (name, FLAGS[name]) == (agent.NAME, agent.FLAG)
        assert agent.WRITES
    with pytest.raises(ValueError, match="unknown agent 'vim'"):
        get("vim")


def _imports(path: Path) -> set[str]:
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
            imported.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
    return imported


def test_agent_modules_never_import_each_other_nor_the_hooks() -> None:
    agents = {name.replace("-", "_") for name in names()}
    for path in AGENTS_DIR.glob("*.py"):
        imported = _imports(path)
        siblings = {
            m
            for m in imported
            if m.startswith("kindling.agents.") and m.split(".")[2] in agents - {path.stem}
        }
        assert siblings == set(), f"{path.name} imports another agent: {siblings}"
        forbidden = {
            m
            for m in imported
            if m.startswith(("kindling.engine", "kindling.store", "kindling.hooks"))
        }
        assert forbidden == set(), f"{path.name} imports what an agent must not: {forbidden}"


def _texts(tree: ast.AST) -> list[str]:
    """The string constants of a module with their nodes, its docstrings left out."""
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
    ]


def test_the_agent_list_exists_once() -> None:
    """The registry (``agents/__init__.py``) is the one list of agents: every other list (the
    hook's help, init's flags and help, doctor) is read from it. Outside an agent's own module
    no module imports that agent, spells its ``init`` flag, compares a value with its name, or
    holds a string or a literal list naming two agents or more."""
    import re

    src = AGENTS_DIR.parent
    every = [get(name) for name in names()]
    modules = {a.NAME: f"kindling.agents.{a.NAME.replace('-', '_')}" for a in every}
    found: dict[str, set[str]] = {}
    for path in src.rglob("*.py"):
        rel = str(path.relative_to(src))
        if rel == "agents/__init__.py":
            continue  # the registry: the list itself
        tree = ast.parse(path.read_text(encoding="utf-8"))
        mine = {n for n, m in modules.items() if path.stem == m.rsplit(".", 1)[1]}
        others = [a for a in every if a.NAME not in mine]

        def named(text: str, others: list[Any] = others) -> set[str]:
            return {
                a.NAME
                for a in others
                if re.search(rf"(?<![\w-]){re.escape(a.NAME)}(?![\w-])", text) or a.LABEL in text
            }

        hits = {
            m
            for m in _imports(path)
            for n, mod in modules.items()
            if n not in mine and (m == mod or m.startswith(mod + "."))
        }
        for text in _texts(tree):
            hits |= {a.FLAG for a in others if a.FLAG in text}
            if len(named(text)) >= 2:
                hits.add(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.Tuple | ast.List | ast.Set):
                items = [e.value for e in node.elts if isinstance(e, ast.Constant)]
                names_in = set().union(*(named(t) for t in items if isinstance(t, str)))
                if len(names_in) >= 2:
                    hits.add(f"a literal list of {sorted(names_in)}")
            elif isinstance(node, ast.Compare):
                for side in [node.left, *node.comparators]:
                    if isinstance(side, ast.Constant) and side.value in {a.NAME for a in others}:
                        hits.add(f"a comparison with {side.value!r}")
        if hits:
            found[rel] = hits
    assert found == {}


class Zed:
    """A sixth agent, defined in this test only: an ``Agent`` is any object with its members."""

    NAME = "zed"
    LABEL = "Zed"
    FLAG = "--zed"
    WRITES = ".zed/settings.json (hooks)"
    SETUP_NOTE = None
    EVENTS: ClassVar[dict[str, str]] = {"toolDone": "PostToolUse"}

    def canonical(self, data: dict[str, Any], event: str) -> dict[str, Any] | None:
        return {
            "session_id": data["thread"],
            "cwd": data["dir"],
            "tool_name": "Bash",
            "tool_input": {"command": data["cmd"]},
            "tool_response": data["out"],
        }

    def render(self, event: str, output: dict[str, Any]) -> dict[str, Any] | None:
        return None

    def visiting(self, host: str, data: dict[str, Any]) -> bool | None:
        return None

    def missed(self, p: Any) -> Any:
        return [], None

    earlier = missed

    def noted(self, p: Any) -> None:
        return None

    def pending(self) -> str | None:
        return None

    def install(self, scope: Any, cwd: Any = None, exe: Any = None, *, skip_tools: Any = ()) -> Any:
        target = Path(cwd or os.getcwd()) / ".zed" / "settings.json"
        return [FileChange(target, True, None, ("hooks",))]

    def uninstall(self, scope: Any, cwd: Any = None) -> Any:
        return []

    def hook_file(self, scope: Any, cwd: Any = None) -> Path:
        return Path(cwd or os.getcwd()) / ".zed" / "settings.json"


# ``kindling`` itself, with Zed registered first (a test's agent lives in the test's process).
WITH_ZED = (
    "import sys; from kindling.agents import register; from tests.agents.test_agents import Zed;"
    " register(Zed()); from kindling.cli import main; main(sys.argv[1:])"
)


def test_a_sixth_agent_is_one_registration(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An agent registered from outside (here a test's) records through the common mapping,
    and ``kindling init`` and ``kindling hook --help`` offer it, with no other file changed."""
    import io

    from kindling.agents import register, unregister
    from kindling.hooks import run_hook_cli

    register(Zed())
    try:
        assert "zed" in names()
        event = {"thread": "z1", "dir": str(git_repo), "cmd": "zig build", "out": "ok"}
        stdin = io.TextIOWrapper(io.BytesIO(json.dumps(event).encode()))
        monkeypatch.setattr(sys, "stdin", stdin)
        assert run_hook_cli(["--agent", "zed", "toolDone"], exit_process=False) == 0
    finally:
        unregister("zed")
    assert "zed" not in names()
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        [obs] = kd.list_observations()
        [capsule] = kd.list_capsules()
    assert (obs.kind, obs.content, obs.provenance["source"]) == (
        "command",
        "$ zig build\n[completed]\nok",
        "zed",
    )
    assert capsule.intent.startswith("Zed session in")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PYTHONPATH": str(AGENTS_DIR.parents[2])}
        return subprocess.run(
            [sys.executable, "-c", WITH_ZED, *args],
            capture_output=True,
            text=True,
            cwd=git_repo,
            env=env,
            timeout=60,
        )

    help_text = " ".join(run("init", "--help").stdout.split())
    assert "--zed Also wire in Zed: .zed/settings.json (hooks)." in help_text
    assert "--zed .zed/settings.json (hooks)" in help_text
    report = json.loads(run("init", "--zed", "--json").stdout)
    assert report["agents"]["zed"][0]["path"] == str(git_repo / ".zed" / "settings.json")
    hook_help = run("hook", "--help").stdout
    assert "claude-code|codex|cursor|gemini|opencode|zed" in hook_help
    assert "--zed" in hook_help
    assert "zed" not in kindling("init", "--help", cwd=git_repo).stdout  # registered there only


def test_init_help_promises_only_what_each_agent_writes(git_repo: Path) -> None:
    """Claude Code gets hooks and no MCP config: its flag's help must not promise one."""
    help_text = " ".join(kindling("init", "--help", cwd=git_repo).stdout.split())
    assert "--claude-code Also wire in Claude Code: .claude/settings.json (hooks)." in help_text
    assert "Claude Code's MCP config" not in help_text
    assert "--gemini Also wire in Gemini CLI: .gemini/settings.json (mcpServers, hooks)." in (
        help_text
    )


@pytest.mark.parametrize("name", sorted(USER_FILES))
def test_init_keeps_the_users_keys_backs_up_and_uninstalls_exactly(
    name: str, git_repo: Path
) -> None:
    for rel, text in USER_FILES[name].items():
        (git_repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (git_repo / rel).write_text(text, encoding="utf-8")
    proc = kindling("init", FLAGS[name], "--json", cwd=git_repo)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)["agents"][name]
    assert all(c["changed"] for c in report)
    assert all(c["backup"] for c in report if c["path"].endswith(tuple(USER_FILES[name])))
    for rel, text in USER_FILES[name].items():
        now = (git_repo / rel).read_text(encoding="utf-8")
        assert "kindling" in now
        assert (
            Path(next(c["backup"] for c in report if c["path"].endswith(rel))).read_text() == text
        )
        if rel.endswith(".json"):
            mine = json.loads(text)
            merged = json.loads(now)
            for key, value in mine.items():
                if isinstance(value, dict):
                    for sub, inner in value.items():
                        if isinstance(inner, list):  # a hook list keeps the user's hooks first
                            assert merged[key][sub][: len(inner)] == inner
                        else:
                            assert merged[key][sub] == inner
                else:
                    assert merged[key] == value
        else:
            assert now.startswith(text)
    again = json.loads(kindling("init", FLAGS[name], "--json", cwd=git_repo).stdout)
    assert not any(c["changed"] for c in again["agents"][name])  # idempotent
    proc = kindling("init", FLAGS[name], "--uninstall", "--json", cwd=git_repo)
    assert proc.returncode == 0, proc.stderr
    for rel, text in USER_FILES[name].items():
        now = (git_repo / rel).read_text(encoding="utf-8")
        if rel.endswith(".json"):
            assert json.loads(now) == json.loads(text)
        else:
            assert now == text


@pytest.mark.parametrize("name", sorted(USER_FILES))
def test_a_file_that_does_not_parse_is_refused_and_left_untouched(
    name: str, git_repo: Path
) -> None:
    for rel in USER_FILES[name]:
        path = git_repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{broken = [", encoding="utf-8")
    for extra in ((), ("--uninstall",)):
        proc = kindling("init", FLAGS[name], *extra, "--json", cwd=git_repo)
        assert proc.returncode == 1
        assert json.loads(proc.stdout)["error"]["code"] == "invalid_input"
        assert "Traceback" not in proc.stderr
    for rel in USER_FILES[name]:
        assert (git_repo / rel).read_text(encoding="utf-8") == "{broken = ["
        assert not list((git_repo / rel).parent.glob("*.kindling-backup-*"))


@pytest.mark.parametrize(
    ("name", "rel", "text"),
    [
        ("gemini", ".gemini/settings.json", '{"mcpServers": {"kindling": {"command": "other"}}}'),
        ("codex", ".codex/config.toml", '[mcp_servers.kindling]\ncommand = "other"\n'),
        ("opencode", "opencode.json", '{"mcp": {"kindling": {"type": "remote", "url": "x"}}}'),
        ("cursor", ".cursor/mcp.json", '{"mcpServers": {"kindling": {"url": "x"}}}'),
    ],
)
def test_a_users_own_kindling_server_is_never_replaced(
    name: str, rel: str, text: str, git_repo: Path
) -> None:
    path = git_repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    proc = kindling("init", FLAGS[name], cwd=git_repo)
    assert proc.returncode == 1
    assert "left untouched" in proc.stderr
    assert path.read_text(encoding="utf-8") == text


def test_codex_server_gets_the_variables_that_choose_the_store(git_repo: Path) -> None:
    """Codex hands an MCP server only a few variables of its environment: the block forwards
    those that choose Kindling's store, so `kindling mcp` and the hooks use the same one."""
    import tomllib

    proc = kindling("init", "--codex", cwd=git_repo)
    assert proc.returncode == 0, proc.stderr
    config = tomllib.loads((git_repo / ".codex" / "config.toml").read_text(encoding="utf-8"))
    server = config["mcp_servers"]["kindling"]
    assert server["args"][-1] == "mcp"
    forwarded = set(server["env_vars"])
    assert {"KINDLING_DB", "KINDLING_HOME", "KINDLING_URL", "KINDLING_TOKEN"} <= forwarded
    assert "required" not in server  # Codex starts without Kindling if it cannot start


# Cursor's published formats (its CLI and editor are not on npm; test_cursor_sdk.py has its
# SDK's local agent, Cursor's own loaders, MCP client and hook runner, use these files): the
# hooks documentation (cursor.com/docs/agent/hooks): ``{"version": 1, "hooks": {EVENT: [{
# "command": ..., "timeout"?: seconds}]}}`` with its event names; the MCP documentation
# (cursor.com/docs/context/mcp): ``{"mcpServers": {NAME: {"command", "args"?, "env"?}}}``.
CURSOR_EVENTS = [
    "sessionStart",
    "sessionEnd",
    "preToolUse",
    "postToolUse",
    "postToolUseFailure",
    "subagentStart",
    "subagentStop",
    "beforeShellExecution",
    "afterShellExecution",
    "beforeMCPExecution",
    "afterMCPExecution",
    "beforeReadFile",
    "afterFileEdit",
    "beforeSubmitPrompt",
    "afterAgentResponse",
    "afterAgentThought",
    "preCompact",
    "stop",
    "beforeTabFileRead",
    "afterTabFileEdit",
]
CURSOR_HOOKS_SCHEMA = {
    "type": "object",
    "required": ["version", "hooks"],
    "properties": {
        "version": {"const": 1},
        "hooks": {
            "type": "object",
            "propertyNames": {"enum": CURSOR_EVENTS},
            "additionalProperties": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["command"],
                    "properties": {
                        "command": {"type": "string", "minLength": 1},
                        "timeout": {"type": "number", "exclusiveMinimum": 0},
                    },
                },
            },
        },
    },
}
CURSOR_MCP_SCHEMA = {
    "type": "object",
    "required": ["mcpServers"],
    "properties": {
        "mcpServers": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "required": ["command"],
                "properties": {
                    "command": {"type": "string", "minLength": 1},
                    "args": {"type": "array", "items": {"type": "string"}},
                    "env": {"type": "object", "additionalProperties": {"type": "string"}},
                },
                "additionalProperties": False,
            },
        }
    },
}


@pytest.mark.parametrize("scope", ["project", "user"])
def test_cursor_files_follow_cursors_published_formats(scope: str, git_repo: Path) -> None:
    """What is checked for Cursor without Cursor: the files ``init --cursor`` writes validate
    against the formats its documentation publishes, every hook runs `kindling hook --agent
    cursor` with an event Kindling maps, and the server runs `kindling mcp`."""
    import jsonschema

    proc = kindling("init", "--cursor", "--scope", scope, cwd=git_repo)
    assert proc.returncode == 0, proc.stderr
    folder = (git_repo if scope == "project" else Path(os.environ["HOME"])) / ".cursor"
    hooks = json.loads((folder / "hooks.json").read_text(encoding="utf-8"))
    mcp = json.loads((folder / "mcp.json").read_text(encoding="utf-8"))
    jsonschema.validate(hooks, CURSOR_HOOKS_SCHEMA)
    jsonschema.validate(mcp, CURSOR_MCP_SCHEMA)
    from kindling.agents import cursor

    assert set(hooks["hooks"]) == set(cursor.HOOKS)
    for event, entries in hooks["hooks"].items():
        [entry] = entries
        assert entry["command"].endswith(f"hook --agent cursor {event}")
    server = mcp["mcpServers"]["kindling"]
    assert server["args"][-1] == "mcp"


def test_uninstall_needs_an_agent_flag(git_repo: Path) -> None:
    proc = kindling("init", "--uninstall", cwd=git_repo)
    assert proc.returncode == 2
    assert "--uninstall goes with an agent flag" in proc.stderr


def test_file_change_report_shape(tmp_path: Path) -> None:
    change = FileChange(tmp_path / "x.json", True, None, ("mcp",))
    assert change.to_dict("install") == {
        "path": str(tmp_path / "x.json"),
        "changed": True,
        "backup": None,
        "items": ["mcp"],
        "action": "install",
    }


# ---------------------------------------------------------------- payloads as published


SESSION = "5b0c9a57-3f2e-4d1a-9c8b-7e6f5a4d3c2b"


def gemini_base(event: str, cwd: Path) -> dict[str, Any]:
    """``createBaseInput`` of Gemini CLI's hookEventHandler.ts."""
    return {
        "session_id": SESSION,
        "transcript_path": "",
        "cwd": str(cwd),
        "hook_event_name": event,
        "timestamp": "2026-11-25T14:00:00.000Z",
    }


def cursor_base(event: str, cwd: Path) -> dict[str, Any]:
    return {
        "conversation_id": SESSION,
        "generation_id": "gen-1",
        "hook_event_name": event,
        "workspace_roots": [str(cwd)],
        "cursor_version": "2.0.77",
    }


def codex_base(event: str, cwd: Path) -> dict[str, Any]:
    """The required fields of Codex's ``*.command.input`` schemas."""
    return {
        "session_id": SESSION,
        "transcript_path": None,
        "cwd": str(cwd),
        "hook_event_name": event,
        "model": "gpt-5",
        "permission_mode": "default",
    }


def replay(name: str, event: str, data: dict[str, Any]) -> None:
    proc = run_hook(event, data, "--agent", name) if name else run_hook(event, data)
    assert (proc.returncode, proc.stderr) == (0, ""), proc
    log = Path(os.environ["KINDLING_HOME"]) / "hooks.log"
    assert not log.exists() or event not in log.read_text(encoding="utf-8"), log.read_text()


def stored() -> list[Any]:
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        return list(reversed(kd.list_observations(limit=100)))


def test_gemini_payloads_land_as_observations(git_repo: Path) -> None:
    replay("gemini", "SessionStart", {**gemini_base("SessionStart", git_repo), "source": "startup"})
    shell = {
        **gemini_base("AfterTool", git_repo),
        "tool_name": "run_shell_command",
        "tool_input": {"command": "pytest -q", "description": "run the tests"},
        "tool_response": {"llmContent": "3 passed", "returnDisplay": "3 passed"},
    }
    replay("gemini", "AfterTool", shell)
    edit = {
        **gemini_base("AfterTool", git_repo),
        "tool_name": "replace",
        "tool_input": {
            "file_path": str(git_repo / "a.py"),
            "old_string": "x = 1",
            "new_string": "x = 2",
        },
        "tool_response": {"llmContent": "Successfully modified file", "returnDisplay": {}},
    }
    replay("gemini", "AfterTool", edit)
    failed = {
        **gemini_base("AfterTool", git_repo),
        "tool_name": "run_shell_command",
        "tool_input": {"command": "make"},
        "tool_response": {"llmContent": "", "error": {"message": "Exit code 2", "type": "x"}},
    }
    replay("gemini", "AfterTool", failed)
    mcp = {
        **gemini_base("AfterTool", git_repo),
        "tool_name": "retrieve",
        "tool_input": {"query": "x"},
        "tool_response": {"llmContent": "[]"},
        "mcp_context": {"server_name": "kindling", "tool_name": "retrieve"},
    }
    replay("gemini", "AfterTool", mcp)  # Kindling's own tool: skipped, not fed back
    read = {**shell, "tool_name": "read_file", "tool_input": {"file_path": "a.py"}}
    replay("gemini", "AfterTool", read)  # a routine read: skipped like Claude Code's Read
    agent = {
        **gemini_base("AfterAgent", git_repo),
        "prompt": "fix",
        "prompt_response": "Fixed a.py.",
    }
    replay("gemini", "AfterAgent", agent)
    replay("gemini", "SessionEnd", {**gemini_base("SessionEnd", git_repo), "reason": "exit"})
    obs = stored()
    assert [(o.kind, o.provenance["source"]) for o in obs] == [
        ("command", "gemini"),
        ("file_diff", "gemini"),
        ("error", "gemini"),
    ]
    assert obs[0].content.startswith("$ pytest -q\n[completed]\n3 passed")
    assert "-x = 1\n+x = 2" in obs[1].content
    assert obs[2].content.startswith("Bash failed: make\n[exit 2]")
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        [capsule] = kd.list_capsules()
        assert capsule.intent.startswith("Gemini CLI session in")
        assert capsule.status == "closed"
        assert kd.get_summary(capsule.summary_id or "").content == "Fixed a.py."


def test_gemini_session_start_prints_context_in_its_shape(git_repo: Path) -> None:
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        kd.append_observation(kind="error", content="KeyError user_id", scope=None)
        from kindling import Scope

        kd.append_observation(
            kind="error", content="pytest: KeyError user_id", scope=Scope(repo_id=str(git_repo))
        )
    data = {**gemini_base("SessionStart", git_repo), "source": "startup"}
    proc = run_hook("SessionStart", data, "--agent", "gemini")
    out = json.loads(proc.stdout)
    assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "KeyError user_id" in out["hookSpecificOutput"]["additionalContext"]


def test_codex_payloads_land_as_observations(git_repo: Path) -> None:
    replay("codex", "SessionStart", {**codex_base("SessionStart", git_repo), "source": "startup"})
    tool = {
        **codex_base("PostToolUse", git_repo),
        "turn_id": "t1",
        "tool_name": "Bash",
        "tool_input": {"command": "cargo test"},
        "tool_response": "test result: ok. 12 passed",
        "tool_use_id": "call_abc",
    }
    replay("codex", "PostToolUse", tool)
    replay("codex", "PostToolUse", tool)  # delivered twice: stored once (its tool_use_id)
    failed = {
        **tool,
        "tool_use_id": "call_def",
        "tool_response": {"output": "E0308", "exit_code": 101},
    }
    replay("codex", "PostToolUse", failed)
    stop = {**codex_base("Stop", git_repo), "turn_id": "t1", "stop_hook_active": False}
    replay("codex", "Stop", {**stop, "last_assistant_message": "All 12 tests pass."})
    obs = stored()
    assert [(o.kind, o.provenance["source"]) for o in obs] == [
        ("command", "codex"),
        ("error", "codex"),
    ]
    assert obs[0].content == "$ cargo test\n[completed]\ntest result: ok. 12 passed"
    assert obs[1].content == "Bash failed: cargo test\n[exit 101]\nE0308"
    with Kindling.open(Path(os.environ["KINDLING_DB"])) as kd:
        [capsule] = kd.list_capsules()
        assert kd.get_summary(capsule.summary_id or "").content == "All 12 tests pass."


def test_cursor_payloads_land_as_observations(git_repo: Path) -> None:
    replay("cursor", "sessionStart", cursor_base("sessionStart", git_repo))
    shell = {
        **cursor_base("afterShellExecution", git_repo),
        "command": "npm test",
        "output": "ok",
        "duration": 150,
    }
    replay("cursor", "afterShellExecution", shell)
    edit = {
        **cursor_base("afterFileEdit", git_repo),
        "file_path": str(git_repo / "main.ts"),
        "edits": [{"old_string": "const foo = 1", "new_string": "const foo = 2"}],
    }
    replay("cursor", "afterFileEdit", edit)
    mcp = {
        **cursor_base("afterMCPExecution", git_repo),
        "tool_name": "database_query",
        "tool_input": '{"query": "SELECT 1"}',
        "result_json": '{"rows": 1}',
        "duration": 250,
    }
    replay("cursor", "afterMCPExecution", mcp)
    own = {**mcp, "tool_name": "retrieve", "tool_input": '{"query": "bug"}'}
    replay("cursor", "afterMCPExecution", {**own, "mcp_server_name": "kindling"})  # not kept
    prompt = {
        **cursor_base("beforeSubmitPrompt", git_repo),
        "prompt": "Fix the bug",
        "attachments": [],
    }
    replay("cursor", "beforeSubmitPrompt", prompt)
    replay(
        "cursor",
        "afterAgentResponse",
        {**cursor_base("afterAgentResponse", git_repo), "text": "Fixed it."},
    )
    replay(
        "cursor", "stop", {**cursor_base("stop", git_repo), "status": "completed", "loop_count": 0}
    )
    obs = stored()
    assert [o.kind for o in obs] == ["command", "file_diff", "tool_call", "message"]
    assert {o.provenance["source"] for o in obs} == {"cursor"}
    assert obs[0].content == "$ npm test\n[completed]\nok"
    assert "-const foo = 1\n+const foo = 2" in obs[1].content
    assert obs[2].content.startswith("database_query query=SELECT 1\n")
    assert obs[3].content == "Fix the bug"
    assert all(o.scope.session_id == SESSION and o.scope.repo_id == str(git_repo) for o in obs)


@pytest.mark.parametrize(
    ("name", "event", "data"),
    [
        ("gemini", "AfterTool", {"tool_name": 3, "tool_response": [1, {"text": None}]}),
        ("gemini", "BeforeModel", {}),
        ("codex", "PostToolUse", {"tool_name": None, "tool_response": {"exit_code": True}}),
        ("cursor", "afterFileEdit", {"edits": "nope", "workspace_roots": [None]}),
        ("cursor", "afterMCPExecution", {"tool_input": "{not json", "result_json": 5}),
        ("vim", "Stop", {}),
    ],
)
def test_bad_agent_payloads_exit_zero_and_log(name: str, event: str, data: dict[str, Any]) -> None:
    proc = run_hook(event, {"session_id": "s", **data}, "--agent", name)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def test_opencode_init_writes_its_mcp_server_and_its_plugin(git_repo: Path) -> None:
    """The plugin lives in Kindling's home and ``opencode.json`` names it: OpenCode installs
    packages into every plugin folder it scans, so the repository gets no ``.opencode/``."""
    from kindling.agents import opencode

    config, plugin = opencode.install("project", str(git_repo), "kindling")
    assert (config.items, plugin.items) == (("mcp", "plugin"), ("plugin",))
    data = json.loads(config.path.read_text())
    assert data["mcp"]["kindling"] == {
        "type": "local",
        "command": ["kindling", "mcp"],
        "enabled": True,
    }
    assert "mcpServers" not in data  # the .mcp.json shape OpenCode rejects
    assert data["plugin"] == [plugin.path.as_uri()]
    home = Path(os.environ["KINDLING_HOME"])
    assert plugin.path.parent == home / "opencode"
    assert plugin.path.read_text(encoding="utf-8") == opencode.plugin_text(["kindling"])
    assert sorted(p.name for p in git_repo.iterdir()) == [".git", "opencode.json"]
    assert not any(c.changed for c in opencode.install("project", str(git_repo), "kindling"))
    moved = opencode.install("project", str(git_repo), "/opt/k/bin/kindling")[1]
    assert moved.changed  # a new path: rewritten, the old one kept
    assert moved.backup is not None
    assert '["/opt/k/bin/kindling"]' in plugin.path.read_text(encoding="utf-8")
    opencode.uninstall("project", str(git_repo))
    assert not plugin.path.exists()
    assert "plugin" not in json.loads(config.path.read_text())


def test_opencode_init_keeps_the_users_plugins_and_moves_its_old_one(git_repo: Path) -> None:
    """The user's own ``plugin`` entries stay; the plugin an earlier ``init`` wrote in the
    repository's plugin folder is taken out (a user's own file there is never touched)."""
    old = git_repo / ".opencode" / "plugins" / "kindling.js"
    old.parent.mkdir(parents=True)
    from kindling.agents import opencode

    old.write_text(opencode.plugin_text(["kindling"]), encoding="utf-8")
    mine = git_repo / ".opencode" / "plugins" / "mine.js"
    mine.write_text("export const Mine = async () => ({});\n", encoding="utf-8")
    (git_repo / "opencode.json").write_text('{"plugin": ["opencode-wakatime"]}', encoding="utf-8")
    proc = kindling("init", "--opencode", cwd=git_repo)
    assert proc.returncode == 0, proc.stderr
    data = json.loads((git_repo / "opencode.json").read_text(encoding="utf-8"))
    assert data["plugin"][0] == "opencode-wakatime"
    assert data["plugin"][1].endswith(".js")
    assert "/opencode/kindling-" in data["plugin"][1]
    assert not old.exists()
    assert mine.exists()
    proc = kindling("init", "--opencode", "--uninstall", cwd=git_repo)
    assert proc.returncode == 0, proc.stderr
    data = json.loads((git_repo / "opencode.json").read_text(encoding="utf-8"))
    assert data["plugin"] == ["opencode-wakatime"]


END = "</untrusted_context>"


@pytest.mark.parametrize(
    ("response", "event", "field", "value"),
    [
        (
            {"llmContent": "<untrusted_context>\nOutput: ok\nProcess Group PGID: 9\n" + END},
            "PostToolUse",
            "tool_response",
            {"stdout": "ok", "stderr": ""},
        ),
        (
            {"llmContent": "Output: boom\nExit Code: 2", "returnDisplay": "boom"},
            "PostToolUseFailure",
            "error",
            "Exit code 2\nboom",
        ),
        ({"llmContent": "", "error": "denied"}, "PostToolUseFailure", "error", "denied"),
    ],
)
def test_gemini_shell_results_as_claude_codes(
    response: dict[str, Any], event: str, field: str, value: Any
) -> None:
    data = {"tool_name": "run_shell_command", "tool_input": {"command": "x"}}
    out = get("gemini").canonical({**data, "tool_response": response}, "AfterTool")
    assert out is not None
    assert (out["hook_event_name"], out[field]) == (event, value)

"""Hook internals in-process: mapping, bounds, exclusions, config parsing, import leanness."""

from __future__ import annotations

import fnmatch
import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling import Kindling, Scope
from kindling.agents.events import last_assistant_text, parse_payload
from kindling.config import repo_root
from kindling.hooks.config import HookConfig, load_hook_config, parse_hook_config
from kindling.hooks.filters import (
    command_touches_excluded,
    fnmatchcase,
    is_excluded,
    is_skipped_tool,
)
from kindling.hooks.inject import HARD_CHAR_LIMIT, build_context
from kindling.hooks.mapping import Draft, bound, to_draft
from tests.support.paths import ROOT

SRC = ROOT / "src" / "kindling"
CFG = HookConfig()


def bash(stdout: str, stderr: str = "", **extra: object) -> dict[str, object]:
    return {
        "hook_event_name": "PostToolUse",
        "session_id": "s",
        "tool_name": "Bash",
        "tool_input": {"command": "make test"},
        "tool_response": {"stdout": stdout, "stderr": stderr, **extra},
    }


def draft(data: Mapping[str, object], cfg: HookConfig = CFG) -> Draft | None:
    return to_draft(parse_payload(json.dumps(data).encode(), None), cfg, "/repo")


def test_bound_keeps_head_and_tail() -> None:
    text = "HEAD " + "x" * 10_000 + " TAIL"
    kept, original = bound(text, 200)
    assert original == len(text)
    assert kept.startswith("HEAD ")
    assert kept.endswith(" TAIL")
    assert len(kept) <= 200
    assert bound("short", 200) == ("short", None)


def test_long_command_output_is_bounded_and_says_so() -> None:
    out = draft(bash("first line\n" + "noise\n" * 5000 + "3 failed, 10 passed"))
    assert out is not None
    assert out.kind == "command"
    assert len(out.content) < CFG.max_output_chars + 200
    assert "first line" in out.content
    assert out.content.endswith("3 failed, 10 passed")
    assert out.provenance["stdoutTruncatedFromChars"] > CFG.max_output_chars


def test_bash_with_stderr_and_interruption() -> None:
    out = draft(bash("", "boom", interrupted=True))
    assert out is not None
    assert out.content == "$ make test\n[interrupted]\n[stderr]\nboom"


@pytest.mark.parametrize(
    ("path", "excluded"),
    [
        ("/repo/.env", True),
        ("/repo/.env.production", True),
        ("/home/u/.ssh/id_rsa", True),
        ("/home/u/.ssh/id_ed25519.pub", True),
        ("C:\\keys\\server.pem", True),
        ("certs/tls.key", True),
        ("/repo/src/environment.py", False),
        ("/repo/keys.py", False),
        ("", False),
    ],
)
def test_excluded_paths(path: str, excluded: bool) -> None:
    assert is_excluded(path, CFG.excluded_paths) is excluded


def test_commands_touching_excluded_paths() -> None:
    patterns = CFG.excluded_paths
    assert command_touches_excluded("cat .env", patterns) == ".env"
    assert command_touches_excluded("source ./.env && run", patterns) == "./.env"
    assert command_touches_excluded("openssl x509 -in=cert.pem", patterns) == "cert.pem"
    assert command_touches_excluded("echo 'unbalanced", patterns) is None
    assert command_touches_excluded("pytest -q", patterns) is None


def test_skipped_tools() -> None:
    patterns = CFG.skip_tools
    assert is_skipped_tool("mcp__kindling__retrieve", {}, patterns)
    assert is_skipped_tool("Bash", {"command": "kindling search x"}, patterns)
    assert not is_skipped_tool("Bash", {"command": "pytest"}, patterns)
    assert not is_skipped_tool("mcp__github__search", {}, patterns)


def test_malformed_structured_patch_falls_back_to_a_computed_diff() -> None:
    data = {
        "hook_event_name": "PostToolUse",
        "tool_name": "Edit",
        "tool_input": {"file_path": "/repo/a.py", "old_string": "a = 1", "new_string": "a = 2"},
        "tool_response": {"structuredPatch": [{"lines": ["+x"], "oldStart": "1"}]},
    }
    out = draft(data)
    assert out is not None
    assert out.content == "Edit a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-a = 1\n+a = 2"


def test_tools_without_inputs_and_noise_events_give_nothing() -> None:
    assert draft({"hook_event_name": "PostToolUse", "tool_name": "Bash"}) is None
    assert draft({"hook_event_name": "UserPromptSubmit"}) is None
    assert draft({"hook_event_name": "Notification", "tool_name": "Bash"}) is None


def test_failure_on_excluded_path_withholds_the_error() -> None:
    data = {
        "hook_event_name": "PostToolUseFailure",
        "tool_name": "Edit",
        "tool_input": {"file_path": "/repo/.env"},
        "error": "EACCES: SECRET=abc",
    }
    out = draft(data)
    assert out is not None
    assert out.kind == "error"
    assert "SECRET" not in out.content


def test_config_parsing_reports_bad_values_and_keeps_defaults(tmp_path: Path) -> None:
    cfg = parse_hook_config(
        {"budget_tokens": -1, "min_relevance": 2, "inject_on_prompt": "yes", "bogus": 1}
    )
    assert cfg == HookConfig()
    assert len(cfg.problems) == 4
    good = parse_hook_config({"budget_tokens": 500, "excluded_paths": ["*.secret"]})
    assert good.budget_tokens == 500
    assert good.excluded_paths == ("*.secret",)
    broken = tmp_path / "config.json"
    broken.write_text("{oops")
    assert load_hook_config(str(broken)).problems
    assert load_hook_config(str(tmp_path / "missing.json")) == HookConfig()


def test_repo_root_walks_up_to_git_and_falls_back_to_cwd(git_repo: Path, tmp_path: Path) -> None:
    deep = git_repo / "a" / "b"
    deep.mkdir(parents=True)
    assert repo_root(str(deep)) == str(git_repo)
    (git_repo / "wt").mkdir()
    (git_repo / "wt" / ".git").write_text("gitdir: elsewhere")  # a worktree's .git file
    assert repo_root(str(git_repo / "wt")) == str(git_repo / "wt")
    plain = tmp_path / "plain"
    plain.mkdir()
    assert repo_root(str(plain)) == str(plain.resolve())


def test_transcript_tail_reading(tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    lines = [
        json.dumps(
            {"type": "assistant", "message": {"content": [{"type": "text", "text": "one"}]}}
        ),
        "{broken",
        json.dumps({"type": "user", "message": {"content": "hi"}}),
    ]
    transcript.write_text("\n".join(lines) + "\n")
    assert last_assistant_text(str(transcript)) == "one"
    assert last_assistant_text(str(tmp_path / "missing.jsonl")) is None
    assert last_assistant_text(None) is None


def test_build_context_threshold_and_hard_limit() -> None:
    with Kindling.open(":memory:") as kd:
        cfg = HookConfig(budget_tokens=10_000_000, max_candidates=100)
        assert build_context(kd, repo="/r", query="", cfg=cfg) is None
        for i in range(100):
            kd.append_observation(
                kind="error", content=f"error {i} " + "y" * 900, scope=Scope(repo_id="/r")
            )
        injection = build_context(kd, repo="/r", query="", cfg=cfg)
        assert injection is not None
        assert len(injection.text) <= HARD_CHAR_LIMIT
        assert build_context(kd, repo="/r", query="zebra", cfg=cfg) is None
        assert build_context(kd, repo="/other", query="", cfg=cfg) is None


def test_the_hook_path_imports_neither_click_nor_mcp(tmp_path: Path) -> None:
    code = (
        "import sys, os\n"
        "sys.stdin = open(os.devnull)\n"
        "from kindling.hooks import run_hook_cli\n"
        "run_hook_cli(['SessionStart'])\n"
        "heavy = {'click', 'mcp', 'pydantic', 'anyio'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert proc.stdout.strip() == "[]"


# Which modules the hooks may import is checked with every module's imports in
# tests/docs/test_architecture.py (the layer table of docs/architecture.md).


def test_bash_failure_keeps_the_exit_code() -> None:
    data = {
        "hook_event_name": "PostToolUseFailure",
        "tool_name": "Bash",
        "tool_input": {"command": "npm test"},
        "error": "Command failed with exit code 2: 3 tests failed",
    }
    out = draft(data)
    assert out is not None
    assert out.provenance["exitCode"] == 2
    assert out.content == (
        "Bash failed: npm test\n[exit 2]\nCommand failed with exit code 2: 3 tests failed"
    )


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "session_id": JSON,
        "cwd": JSON,
        "prompt": JSON,
        "tool_name": st.sampled_from(["Bash", "Edit", "MultiEdit", "Write", "Read", "Grep", "X"]),
        "tool_input": JSON
        | st.dictionaries(
            st.sampled_from(
                ["command", "file_path", "old_string", "new_string", "edits", "content"]
            ),
            JSON,
        ),
        "tool_response": JSON,
        "error": JSON,
        "last_assistant_message": JSON,
    },
)


@given(
    event=st.sampled_from(
        ["UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "SubagentStop"]
    ),
    data=FIELDS,
)
@settings(max_examples=300, deadline=None)
def test_any_payload_maps_without_raising(event: str, data: dict[str, object]) -> None:
    payload = parse_payload(json.dumps(data).encode(), event)
    out = to_draft(payload, CFG, "/repo")
    if out is not None:
        assert out.kind in ("message", "command", "file_diff", "tool_call", "error")
        assert isinstance(out.content, str)
        json.dumps(out.provenance)


GLOB_CHARS = "ab.*?[]!/-\\\n"


@settings(max_examples=400)
@given(
    name=st.text(alphabet=GLOB_CHARS, max_size=8),
    pattern=st.text(alphabet=GLOB_CHARS, max_size=6)
    | st.sampled_from(["*", "Bash", "id_rsa*", "*.pem", ".env.*", "mcp__kindling__*", "a*b"]),
)
def test_glob_matching_is_fnmatchcase(name: str, pattern: str) -> None:
    # The hooks match plain words and one-star globs without compiling a pattern.
    assert fnmatchcase(name, pattern) is fnmatch.fnmatchcase(name, pattern)
    assert fnmatchcase(pattern, name) is fnmatch.fnmatchcase(pattern, name)

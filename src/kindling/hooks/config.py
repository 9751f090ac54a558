"""Hook settings, read from the ``"hooks"`` key of ``<data dir>/config.json``.

A missing or broken file means defaults, never an error: a hook must not fail because of a
typo in a config file (the problem is logged instead). The data directory and database paths
come from ``kindling.config``.

Must not import click, the CLI or the MCP server; imports only the standard library, and no
dataclasses, typing or pathlib (each hook process pays for every import).
"""

from __future__ import annotations

import json
import os

from kindling.config import kindling_home

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Never store the contents of these files (matched on the file name, or on the whole path when
# the pattern has a "/"): they hold credentials far more often than not.
DEFAULT_EXCLUDED_PATHS: tuple[str, ...] = (
    ".env",
    ".env.*",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    ".netrc",
    ".pgpass",
)
# Tools not recorded by default. Routine look-ups (reads, searches, tool discovery, to-do
# lists) are most of a session's events and its noise: what they led to shows up as edits,
# commands, errors and prompts. Kindling's own tools would feed memory back into memory.
# "Tool:glob" entries match a Bash command line. ``kindling init --claude-code`` turns the
# plain tool names into the PostToolUse matcher, so Claude Code starts no process for them.
DEFAULT_SKIP_TOOLS: tuple[str, ...] = (
    "Read",
    "Glob",
    "Grep",
    "LS",
    "TodoWrite",
    "ToolSearch",
    "TaskList",
    "TaskGet",
    "ListMcpResourcesTool",
    "ReadMcpResourceTool",
    "mcp__kindling__*",
    "Bash:kindling *",
)


def config_path() -> str:
    return os.path.join(kindling_home(), "config.json")


class HookConfig:
    """Hook settings; every field can be set under ``"hooks"`` in ``config.json``."""

    __slots__ = (
        "budget_tokens",
        "excluded_paths",
        "inject_on_prompt",
        "max_candidates",
        "max_diff_chars",
        "max_output_chars",
        "max_result_chars",
        "min_relevance",
        "problems",
        "skip_tools",
    )

    def __init__(self, **values: Any) -> None:
        # Injected context budget in tokens (the retrieval tokenizer's estimate: 4 chars a token).
        self.budget_tokens: int = values.get("budget_tokens", 1500)
        # A candidate is injected for a prompt only when its text relevance (in [0, 1],
        # independent of the other hits and of the store's size) reaches this. None: the
        # shared "nothing relevant" cut, ``kindling.model.RELEVANCE_THRESHOLD``.
        self.min_relevance: float | None = values.get("min_relevance")
        # Prompt-time injection costs context (and a database round trip) on every turn, so
        # it is opt-in.
        self.inject_on_prompt: bool = values.get("inject_on_prompt", False)
        # How many ranked candidates to consider per injection.
        self.max_candidates: int = values.get("max_candidates", 8)
        # Bounds on what one observation keeps (characters): command output, diffs, results.
        self.max_output_chars: int = values.get("max_output_chars", 6000)
        self.max_diff_chars: int = values.get("max_diff_chars", 12000)
        self.max_result_chars: int = values.get("max_result_chars", 2000)
        self.excluded_paths: tuple[str, ...] = values.get("excluded_paths", DEFAULT_EXCLUDED_PATHS)
        self.skip_tools: tuple[str, ...] = values.get("skip_tools", DEFAULT_SKIP_TOOLS)
        # Problems met while reading the config file; the hook logs them.
        self.problems: tuple[str, ...] = values.get("problems", ())

    def _settings(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__ if name != "problems")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HookConfig) and self._settings() == other._settings()

    def __hash__(self) -> int:
        return hash(self._settings())

    def __repr__(self) -> str:
        return f"HookConfig{self._settings()!r}"


_INTS = (
    "budget_tokens",
    "max_candidates",
    "max_output_chars",
    "max_diff_chars",
    "max_result_chars",
)
_BOOLS = ("inject_on_prompt",)
_LISTS = ("excluded_paths", "skip_tools")
_RETIRED = {
    "inject_on_precompact": "Claude Code rejects output from PreCompact hooks, so it is ignored",
}


def parse_hook_config(data: object) -> HookConfig:
    """Read the ``"hooks"`` object; bad values fall back to defaults and are reported."""
    if not isinstance(data, dict):
        return HookConfig(problems=("config.json: 'hooks' must be an object",) if data else ())
    values: dict[str, Any] = {}
    problems: list[str] = []
    known = {*HookConfig.__slots__} - {"problems"}
    for key, value in data.items():
        if key in _RETIRED:
            problems.append(f"config.json: hooks.{key} is no longer used: {_RETIRED[key]}")
        elif key not in known:
            problems.append(f"config.json: unknown hooks setting {key!r}")
        elif key in _INTS:
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                values[key] = value
            else:
                problems.append(f"config.json: hooks.{key} must be a positive integer")
        elif key in _BOOLS:
            if isinstance(value, bool):
                values[key] = value
            else:
                problems.append(f"config.json: hooks.{key} must be true or false")
        elif key in _LISTS:
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                values[key] = tuple(value)
            else:
                problems.append(f"config.json: hooks.{key} must be a list of strings")
        elif key == "min_relevance":
            if isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1:
                values[key] = float(value)
            else:
                problems.append("config.json: hooks.min_relevance must be a number in [0, 1]")
    return HookConfig(**values, problems=tuple(problems))


def load_hook_config(path: str | None = None) -> HookConfig:
    target = path or config_path()
    try:
        with open(target, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        return HookConfig()
    except (OSError, UnicodeDecodeError) as exc:
        return HookConfig(problems=(f"cannot read {target}: {exc}",))
    try:
        data = json.loads(text)
    except ValueError as exc:
        return HookConfig(problems=(f"{target} is not valid JSON ({exc}); using defaults",))
    if not isinstance(data, dict):
        return HookConfig(problems=(f"{target} must hold a JSON object; using defaults",))
    return parse_hook_config(data.get("hooks", {}))

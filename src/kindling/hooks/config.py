"""Where Kindling keeps its data, and the hook settings read from ``config.json``.

The data directory is ``$KINDLING_HOME``, else ``~/.kindling``; the database is ``$KINDLING_DB``,
else ``<data dir>/kindling.db`` (the same rule as the CLI, repeated here because the hook path
must not import click). Hook settings live under the ``"hooks"`` key of
``<data dir>/config.json``; a missing or broken file means defaults, never an error: a hook
must not fail because of a typo in a config file (the problem is logged instead).

Must not import click, the CLI or the MCP server; imports only the standard library.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

DEFAULT_HOME = "~/.kindling"

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
# Kindling's own tools: recording them would feed memory back into memory. "Tool:glob" entries
# match a Bash command line.
DEFAULT_SKIP_TOOLS: tuple[str, ...] = ("mcp__kindling__*", "Bash:kindling *")


def kindling_home() -> Path:
    return Path(os.environ.get("KINDLING_HOME") or DEFAULT_HOME).expanduser()


def default_db_path() -> Path:
    if env := os.environ.get("KINDLING_DB"):
        return Path(env).expanduser()
    return kindling_home() / "kindling.db"


def config_path() -> Path:
    return kindling_home() / "config.json"


@dataclass(frozen=True, slots=True)
class HookConfig:
    """Hook settings; every field can be set under ``"hooks"`` in ``config.json``."""

    # Injected context budget in tokens (the retrieval tokenizer's estimate: 4 chars a token).
    budget_tokens: int = 1500
    # A candidate is injected for a prompt only when its text relevance (in [0, 1], independent
    # of the other hits) reaches this: below 0.2 a hit shares only a common word with the prompt.
    min_relevance: float = 0.2
    # Prompt-time injection costs context on every turn, so it is opt-in.
    inject_on_prompt: bool = False
    # Claude Code rejects hookSpecificOutput for PreCompact (it fires SessionStart with source
    # "compact" after compacting, and that injection is what reaches the model); opt-in for
    # agents that accept it.
    inject_on_precompact: bool = False
    # How many ranked candidates to consider per injection.
    max_candidates: int = 8
    # Bounds on what one observation keeps (characters): command output, diffs, tool results.
    max_output_chars: int = 6000
    max_diff_chars: int = 12000
    max_result_chars: int = 2000
    excluded_paths: tuple[str, ...] = DEFAULT_EXCLUDED_PATHS
    skip_tools: tuple[str, ...] = DEFAULT_SKIP_TOOLS
    # Problems met while reading the config file; the hook logs them.
    problems: tuple[str, ...] = field(default=(), compare=False)


_INTS = (
    "budget_tokens",
    "max_candidates",
    "max_output_chars",
    "max_diff_chars",
    "max_result_chars",
)
_BOOLS = ("inject_on_prompt", "inject_on_precompact")
_LISTS = ("excluded_paths", "skip_tools")


def parse_hook_config(data: object) -> HookConfig:
    """Read the ``"hooks"`` object; bad values fall back to defaults and are reported."""
    if not isinstance(data, dict):
        return HookConfig(problems=("config.json: 'hooks' must be an object",) if data else ())
    values: dict[str, Any] = {}
    problems: list[str] = []
    known = {f.name for f in fields(HookConfig)} - {"problems"}
    for key, value in data.items():
        if key not in known:
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


def load_hook_config(path: Path | None = None) -> HookConfig:
    target = path or config_path()
    try:
        text = target.read_text(encoding="utf-8")
    except FileNotFoundError:
        return HookConfig()
    except OSError as exc:
        return HookConfig(problems=(f"cannot read {target}: {exc}",))
    try:
        data = json.loads(text)
    except ValueError as exc:
        return HookConfig(problems=(f"{target} is not valid JSON ({exc}); using defaults",))
    if not isinstance(data, dict):
        return HookConfig(problems=(f"{target} must hold a JSON object; using defaults",))
    return parse_hook_config(data.get("hooks", {}))

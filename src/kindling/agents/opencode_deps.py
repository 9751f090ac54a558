"""OpenCode's own install of ``@opencode-ai/plugin`` into its config folder, as OpenCode 1.18
checks it at each start (``Npm.install``): done when the folder holds ``node_modules`` and its
``package-lock.json`` lists the package, with every dependency of its ``package.json``, among
the root's dependencies. Until then any configured plugin makes each start wait for that
install before plugins load, about 70 s offline (npm's retries), so ``init --opencode`` and
``doctor`` say it (``pending``). Read only: Kindling writes nothing in OpenCode's folder.

Must not import click, the CLI, the MCP server, the engine or a store; only the standard
library at module level.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

OWN_PACKAGE = "@opencode-ai/plugin"  # what OpenCode installs into each of its config folders
DEPENDENCIES = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _names(path: Path, *keys: str) -> set[str]:
    """The package names of a ``package.json`` (or, under ``keys``, of a lockfile's entry)."""
    import json

    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    for key in keys:
        data = _dict(data).get(key)
    return {name for kind in DEPENDENCIES for name in _dict(_dict(data).get(kind))}


def pending() -> str | None:
    """``pending`` of ``agents.opencode``: what to say while OpenCode's own folder
    (``$XDG_CONFIG_HOME/opencode``, else ``~/.config/opencode``) lacks its install."""
    import os
    from pathlib import Path

    folder = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "opencode"
    if folder.is_dir() and not os.access(folder, os.W_OK):
        return None  # OpenCode installs nothing where it cannot write
    wanted = _names(folder / "package.json") | {OWN_PACKAGE}
    if (folder / "node_modules").is_dir() and wanted <= _names(
        folder / "package-lock.json", "packages", ""
    ):
        return None
    return (
        f"OpenCode has not installed {OWN_PACKAGE} into {folder} yet (it does at its first "
        "start online); until it has, every OpenCode start offline waits about 70 s for that "
        "install before it loads any plugin, Kindling's included, unless OpenCode starts with "
        "npm_config_offline=true in its environment"
    )

"""Settings read at entry points (CLI, bridge, hooks, MCP) and passed down; never read by the core.

Imports only ``os``: the hook process reads these on every tool call of an agent.
Must not import anything from Kindling.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

DEFAULT_HOME = "~/.kindling"
DEFAULT_DB = "~/.kindling/kindling.db"
# The variables that choose the store, the server and the model Kindling uses. An agent that
# starts an MCP server with a few variables of its own environment (Codex, Cursor) is told to
# pass these on, so `kindling mcp` opens the store the hooks, which get all of it, write to.
SERVER_ENV = (
    "KINDLING_DB",
    "KINDLING_HOME",
    "KINDLING_URL",
    "KINDLING_TOKEN",
    "KINDLING_SEMANTIC_MODEL",
    "KINDLING_MODELS_DIR",
    "KINDLING_MODEL_BASE_URL",
    "XDG_CACHE_HOME",
)


def is_placeholder(value: str) -> bool:
    """True for one ``${...}`` reference (``${KINDLING_DB:-}``, ``${env:KINDLING_DB}``): what
    an agent's config forwards, left as written by a client that did not expand it."""
    text = value.strip()
    return text.startswith("${") and text.endswith("}") and "}" not in text[2:-1]


def setting(name: str) -> str | None:
    """Environment variable ``name``, or None when it is unset, blank or an unexpanded
    placeholder (``is_placeholder``): a forwarded variable that the agent's own environment
    lacked arrives empty or as its placeholder, and means "not set", never a path or URL."""
    value = os.environ.get(name)
    if value is None or not value.strip() or is_placeholder(value):
        return None
    return value


def is_postgres_url(target: object) -> bool:
    """True for a PostgreSQL database's URL (``postgresql://`` or ``postgres://``): the one test
    of which backend a database name means (``store.backends``, ``entry.connect``, the CLI)."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def kindling_home() -> str:
    """The data directory: ``$KINDLING_HOME``, else ``~/.kindling``."""
    return os.path.expanduser(setting("KINDLING_HOME") or DEFAULT_HOME)


def default_db_file() -> str:
    """``$KINDLING_DB``, else ``$KINDLING_HOME/kindling.db``, else ``~/.kindling/kindling.db``."""
    if env := setting("KINDLING_DB"):
        return os.path.expanduser(env)
    return os.path.join(kindling_home(), "kindling.db")


def default_db_path() -> Path:
    from pathlib import Path

    return Path(default_db_file())


def canonical_path(path: str) -> str:
    """The one spelling of a local path in Kindling's ids: ``~`` expanded, absolute, symlinks
    resolved (``realpath``). Repository ids (CLI, hooks, MCP) and bridge workspaces both go
    through it, so the same directory is the same id whichever adapter wrote it."""
    return os.path.realpath(os.path.expanduser(path))


def repo_root(cwd: str | None) -> str:
    """The nearest ancestor of ``cwd`` holding a ``.git`` entry (a directory, or the file of a
    worktree or submodule), else ``cwd`` itself; canonical (``canonical_path``). Walking the
    tree costs microseconds; spawning ``git rev-parse`` would cost more than a whole hook."""
    start = canonical_path(cwd or os.getcwd())
    here = start
    while True:
        if os.path.lexists(os.path.join(here, ".git")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return start
        here = parent

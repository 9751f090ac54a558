"""Settings read at entry points (CLI, bridge, hooks) and passed down; never read by the core.

Must not import anything from Kindling.
"""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_DB = "~/.kindling/kindling.db"


def default_db_path() -> Path:
    """``$KINDLING_DB``, else ``$KINDLING_HOME/kindling.db``, else ``~/.kindling/kindling.db``."""
    if env := os.environ.get("KINDLING_DB"):
        return Path(env).expanduser()
    if home := os.environ.get("KINDLING_HOME"):
        return Path(home).expanduser() / "kindling.db"
    return Path(DEFAULT_DB).expanduser()

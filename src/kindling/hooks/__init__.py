"""Agent hooks (Claude Code). Filled in by the integrations issue.

``run_hook_cli(args)`` is called by ``kindling hook ...`` without importing click.
"""

from __future__ import annotations

import sys


def run_hook_cli(args: list[str]) -> int:
    sys.stderr.write("kindling hook: not available yet\n")
    return 0

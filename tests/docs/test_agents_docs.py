"""docs/agents.md names every MCP tool ``kindling mcp`` serves and every agent flag of
``kindling init``, from their one list each (``mcp.catalog``, the agent registry)."""

from __future__ import annotations

import re

from kindling.mcp import catalog
from tests.support.cli import run
from tests.support.paths import ROOT

DOC = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")


def test_the_tool_table_is_the_servers_list() -> None:
    table = re.findall(r"^\| `(\w+)` \| (.+) \|$", DOC, re.M)
    assert table == list(catalog.tools())


def test_the_catalog_is_what_the_server_lists() -> None:
    """Nine tools, two of them opening a hit (``timeline``, ``get``)."""
    assert len(catalog.names()) == 9
    assert {"retrieve", "timeline", "get", "forget"} <= set(catalog.names())


def test_kindling_mcp_help_lists_every_tool() -> None:
    out = run("mcp", "--help", env={"COLUMNS": "200"})
    assert out.code == 0
    assert f"Tools: {', '.join(catalog.names())}." in " ".join(out.stdout.split())


def test_every_init_flag_has_its_agent_here() -> None:
    out = run("init", "--help", env={"COLUMNS": "200"})
    flags = set(re.findall(r"--(claude-code|gemini|codex|opencode|cursor)\b", out.stdout))
    assert flags == {"claude-code", "gemini", "codex", "opencode", "cursor"}
    for flag in flags:
        assert f"--{flag}" in DOC

"""Cursor's MCP server environment: ``init --cursor`` forwards Kindling's variables to
`kindling mcp` as ``${NAME:-}``, which a client may pass on expanded to "" or not expanded at
all: both mean "unset" (``config.setting``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kindling.config import SERVER_ENV, default_db_file, is_placeholder, kindling_home, setting

KINDLING = str(Path(sys.executable).with_name("kindling"))
AGENT = "agent-e1aa1370-3e4a-4866-8dd9-48791aa90e20"  # the SDK's conversation (and session) id
PROMPT = "Recall marker-cursor and print it with the shell"


def kindling(*args: str, cwd: Path, env: dict[str, str] | None = None) -> Any:
    return subprocess.run(
        [KINDLING, *args], capture_output=True, text=True, cwd=cwd, timeout=60, env=env
    )


# ---------------------------------------------------------------- the MCP server's environment


@pytest.mark.parametrize(
    ("value", "unset"),
    [
        ("${KINDLING_DB:-}", True),
        ("${env:KINDLING_DB}", True),
        ("${KINDLING_DB}", True),
        (" ${KINDLING_DB:-} ", True),
        ("", True),
        ("   ", True),
        ("/data/k.db", False),
        ("${HOME}/k.db", False),  # a path around a reference, not a bare placeholder
        ("$KINDLING_DB", False),
        ("${a}${b}", False),
        ("${", False),
    ],
)
def test_an_empty_or_unexpanded_variable_is_unset(
    monkeypatch: pytest.MonkeyPatch, value: str, unset: bool
) -> None:
    monkeypatch.setenv("KINDLING_DB", value)
    assert setting("KINDLING_DB") == (None if unset else value)
    if value.strip():
        assert is_placeholder(value) == unset
    home = os.environ["KINDLING_HOME"]
    assert default_db_file() == (os.path.join(home, "kindling.db") if unset else value)


def test_a_placeholder_home_is_the_default_home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KINDLING_HOME", "${KINDLING_HOME:-}")
    assert kindling_home() == os.path.expanduser("~/.kindling")


def test_kindling_with_its_variables_left_as_placeholders_uses_its_defaults(
    git_repo: Path,
) -> None:
    """What `kindling mcp` gets from a client that did not expand the ``env`` init wrote:
    every command runs on the default store, locally (not a server named ``${...}``)."""
    env = {**os.environ, **{name: f"${{{name}:-}}" for name in SERVER_ENV}}
    env["KINDLING_URL"] = "${env:KINDLING_URL}"
    del env["KINDLING_DB"]
    home = Path(env["HOME"])
    env["KINDLING_HOME"] = "${KINDLING_HOME:-}"
    proc = kindling("log", "note from the mcp side", "--repo", ".", cwd=git_repo, env=env)
    assert proc.returncode == 0, proc.stderr
    assert (home / ".kindling" / "kindling.db").is_file()
    assert not list(git_repo.glob("$*"))  # no file or folder named after a placeholder


def mcp_json(repo: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((repo / ".cursor" / "mcp.json").read_text("utf-8"))
    return data


def test_init_cursor_forwards_kindlings_variables_to_its_server(git_repo: Path) -> None:
    """The server entry forwards each variable as ``${NAME:-}``; a re-run upgrades an entry
    an earlier init wrote without it, in place, once; --uninstall takes it out and leaves
    the user's own server."""
    (git_repo / ".cursor").mkdir()
    old = {"command": KINDLING, "args": ["mcp"]}
    gh = {"command": "gh-mcp"}
    (git_repo / ".cursor" / "mcp.json").write_text(
        json.dumps({"mcpServers": {"gh": gh, "kindling": old}}), "utf-8"
    )
    first = kindling("init", "--cursor", "--json", cwd=git_repo)
    assert first.returncode == 0, first.stderr
    [change, _] = json.loads(first.stdout)["agents"]["cursor"]
    assert (change["changed"], change["items"], bool(change["backup"])) == (True, ["mcp"], True)
    server = mcp_json(git_repo)["mcpServers"]["kindling"]
    assert server["env"] == {name: "${" + name + ":-}" for name in SERVER_ENV}
    assert {"KINDLING_DB", "KINDLING_HOME", "KINDLING_URL", "KINDLING_TOKEN"} <= set(server["env"])
    assert server["args"][-1] == "mcp"
    assert mcp_json(git_repo)["mcpServers"]["gh"] == gh
    again = kindling("init", "--cursor", "--json", cwd=git_repo)
    assert again.returncode == 0, again.stderr
    [change, _] = json.loads(again.stdout)["agents"]["cursor"]
    assert (change["changed"], change["items"]) == (False, [])
    assert mcp_json(git_repo)["mcpServers"]["kindling"] == server
    gone = kindling("init", "--cursor", "--uninstall", cwd=git_repo)
    assert gone.returncode == 0, gone.stderr
    assert mcp_json(git_repo) == {"mcpServers": {"gh": gh}}

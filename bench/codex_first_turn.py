"""How often a headless ``codex exec`` finds Kindling's tools in its first turn without waiting
for `kindling mcp` (issue 34, item 8: with `kindling mcp` taking 1.5-7 s to list its tools, 1
run in 6 offered none). Codex does not wait for an optional MCP server before its first model
request; ``init`` does not make Kindling's required (Codex would then refuse to start without
it).

    python bench/codex_first_turn.py [--runs 20]

Each run: a fresh HOME and repository, ``kindling init --codex``, then ``codex exec`` against
the stand-in model (``tests/support/fake_openai.py``) that searches its deferred tools first
(``tool_search``): a run finds them when Codex's search answer holds the ``mcp__kindling``
namespace. Needs the Codex CLI (``scripts/agent_clis.sh``). Prints each run, the load, and
the count.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root: `tests`


def one() -> tuple[bool, int]:
    from tests.support.agents import CODEX_MODEL, KINDLING, cli
    from tests.support.fake_openai import FakeOpenAI

    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        home, repo = Path(tmp) / "home", Path(tmp) / "repo"
        home.mkdir()
        repo.mkdir()
        subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
        env = dict(
            os.environ,
            HOME=str(home),
            KINDLING_HOME=str(home / ".kindling"),
            KINDLING_DB=str(home / ".kindling" / "kindling.db"),
            CODEX_HOME=str(home / ".codex"),
            NO_COLOR="1",
            FAKE_OPENAI_KEY="not-a-key",
        )
        for key in ("KINDLING_URL", "KINDLING_TOKEN"):
            env.pop(key, None)
        init = [KINDLING, "init", "--codex"]
        subprocess.run(init, cwd=repo, env=env, check=True, capture_output=True)
        with FakeOpenAI(search="kindling memory retrieve", call="retrieve") as api:
            (home / ".codex").mkdir(exist_ok=True)
            (home / ".codex" / "config.toml").write_text(
                f'model = "{CODEX_MODEL}"\nmodel_provider = "fake"\n'
                f'[model_providers.fake]\nname = "fake"\nbase_url = "{api.url}"\n'
                'wire_api = "responses"\nenv_key = "FAKE_OPENAI_KEY"\n'
                f'[projects."{repo}"]\ntrust_level = "trusted"\n',
                encoding="utf-8",
            )
            argv = [*cli("codex"), "exec", "--dangerously-bypass-approvals-and-sandbox"]
            argv += ["--dangerously-bypass-hook-trust", "Recall marker-codex"]
            subprocess.run(
                argv, cwd=repo, env=env, capture_output=True, timeout=180, stdin=subprocess.DEVNULL
            )
            bodies = api.bodies
    searched = [
        item
        for body in bodies[1:2]
        for item in body.get("input", [])
        if item.get("type") == "tool_search_output"
    ]
    found = any(t.get("name") == "mcp__kindling" for i in searched for t in i.get("tools", []))
    return found, len(bodies)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    found = 0
    for n in range(args.runs):
        ok, requests = one()
        found += ok
        state = "found" if ok else "MISSING"
        load = os.getloadavg()[0]
        print(f"run {n + 1}: Kindling's tools {state} ({requests} requests, load {load:.1f})")
    print(f"{found} of {args.runs} first turns found Kindling's tools")


if __name__ == "__main__":
    main()

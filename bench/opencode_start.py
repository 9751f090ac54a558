"""How long ``opencode run`` takes after ``kindling init --opencode``, offline, and what it left
in the repository (issue 34: OpenCode installed ``@opencode-ai/plugin`` into a plugin folder
``init`` made in the repository, and waited 70-90 s for the network at every start).

    python bench/opencode_start.py [--runs 3] [--online] [--kindling PATH] [--opencode PATH]

Offline is a private network namespace with only loopback (``unshare -n``, as root), where the
stand-in model (``tests/support/fake_anthropic.py``) runs too. ``--variants init,no-plugin,bare``
runs
the config ``init`` wrote, without its plugin, and without plugin and MCP server (OpenCode's own
start), one after the other in each round. Prints each run's wall time, the load, and the
files in the repository that are not ``init``'s own config. The caller's environment passes
through (``npm_config_offline=true python bench/opencode_start.py --fresh``: npm's own settings
for OpenCode's install of ``@opencode-ai/plugin``). Needs the opencode CLI
(``scripts/agent_clis.sh``); uses a private HOME in a temporary directory.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root: `tests`

CACHE = Path.home() / ".cache" / "kindling-npm" / "node_modules"
OWN = {"opencode.json"}  # what `init --opencode` may leave in the repository


def used_online(folder: Path, version: str = "1.18.33") -> None:
    """OpenCode's own config folder as its first start online leaves it: it installs
    ``@opencode-ai/plugin`` there (for the plugins it may hold) and, offline, waits for that
    install at every start whenever any plugin is configured, its own or Kindling's. Its check
    reads only the manifest, the lockfile's root and that ``node_modules`` exists."""
    deps = {"@opencode-ai/plugin": version}
    (folder / "node_modules").mkdir(parents=True, exist_ok=True)
    (folder / "package.json").write_text(json.dumps({"dependencies": deps}), encoding="utf-8")
    lock = {"lockfileVersion": 3, "packages": {"": {"dependencies": deps}}}
    (folder / "package-lock.json").write_text(json.dumps(lock), encoding="utf-8")


# What each variant takes out of the config ``init`` wrote (``--variants``, run interleaved).
VARIANTS = {
    "init": (),  # as `kindling init --opencode` leaves it
    "no-plugin": ("plugin",),  # Kindling's MCP server only
    "bare": ("plugin", "mcp"),  # OpenCode alone: its own start
}


def _config(repo: Path, written: dict[str, Any], api_url: str, variant: str) -> None:
    """``opencode.json``: what ``init`` wrote, less the variant's keys, with the stand-in."""
    data = dict(written)
    for key in VARIANTS[variant]:
        data.pop(key, None)
    data["provider"] = {
        "fake": {
            "npm": "@ai-sdk/anthropic",
            "name": "Fake",
            "options": {"baseURL": f"{api_url}/v1", "apiKey": "not-a-key"},
            "models": {"claude-fake": {"name": "Claude Fake", "tool_call": True}},
        }
    }
    (repo / "opencode.json").write_text(json.dumps(data), encoding="utf-8")


def _runs(args: argparse.Namespace) -> None:
    from tests.support.fake_anthropic import FakeAnthropic

    variants = args.variants.split(",") if args.variants else []
    variants = variants or (["no-plugin"] if args.no_plugin else ["init"])
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        (repo / ".git").mkdir(parents=True)
        env = dict(os.environ, HOME=tmp, KINDLING_HOME=f"{tmp}/.kindling", PWD=str(repo))
        for key in ("KINDLING_DB", "KINDLING_URL"):
            env.pop(key, None)
        env |= {
            f"XDG_{k}_HOME": f"{tmp}/{v}"
            for k, v in (
                ("CONFIG", ".config"),
                ("DATA", ".local/share"),
                ("CACHE", ".cache"),
                ("STATE", ".local/state"),
            )
        }
        if not args.as_user:
            env |= {"OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_MODELS_FETCH": "1"}
        if not args.fresh:
            used_online(Path(env["XDG_CONFIG_HOME"]) / "opencode")
        subprocess.run(
            [args.kindling, "init", "--opencode"],
            cwd=repo,
            env=env,
            check=True,
            capture_output=True,
        )
        written = json.loads((repo / "opencode.json").read_text(encoding="utf-8"))
        with FakeAnthropic() as api:
            for n in range(args.runs):
                for variant in variants:
                    _config(repo, written, api.url, variant)
                    _one(args, repo, env, api, f"run {n + 1} {variant}")
        left = sorted(
            str(p.relative_to(repo))
            for p in repo.rglob("*")
            if ".git" not in p.parts and p.is_file() and p.name not in OWN
        )
        print(f"left in the repository beside {sorted(OWN)}: {left or 'nothing'}")


def _one(args: argparse.Namespace, repo: Path, env: dict[str, str], api: Any, name: str) -> None:
    argv = [args.opencode, "run", "-m", "fake/claude-fake", "Print marker-bench"]
    argv += ["--print-logs"] if args.verbose else []
    seen, start, first = api.requests, time.monotonic(), None
    proc = subprocess.Popen(
        argv,
        cwd=repo,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    while proc.poll() is None:
        if first is None and api.requests > seen:
            first = time.monotonic() - start
        time.sleep(0.05)
    total = time.monotonic() - start
    at = f"{first:.1f} s" if first is not None else "never"
    load = os.getloadavg()[0]
    print(f"{name}: first model request at {at}, done in {total:.1f} s (load {load:.1f})")
    if args.verbose and proc.stdout is not None:
        print(proc.stdout.read()[-6000:])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--online", action="store_true")
    parser.add_argument("--kindling", default=str(Path(sys.executable).with_name("kindling")))
    parser.add_argument("--opencode", default=str(CACHE / "opencode-ai" / "bin" / "opencode.exe"))
    parser.add_argument("--no-plugin", action="store_true", help="the baseline: no plugin")
    parser.add_argument(
        "--variants", help=f"comma-separated, run interleaved: {', '.join(VARIANTS)}"
    )
    parser.add_argument(
        "--as-user", action="store_true", help="without the OPENCODE_DISABLE_* variables"
    )
    parser.add_argument("--fresh", action="store_true", help="OpenCode never started online")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.online or args.inside:
        _runs(args)
        return
    argv = [sys.executable, *sys.argv, "--inside"]
    inner = "ip link set lo up && exec " + " ".join(f"'{a}'" for a in argv)
    sys.exit(subprocess.run(["unshare", "-n", "sh", "-c", inner]).returncode)


if __name__ == "__main__":
    main()

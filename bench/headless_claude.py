"""What headless ``claude -p`` runs leave in Kindling: N runs against a local stand-in for the
Messages API (``tests/support/fake_anthropic.py``), each ending right after a tool call.

    python bench/headless_claude.py [--runs 20] [--compactions 5] [--kindling PATH] [--claude PATH]

``--compactions N`` also runs N headless sessions fed three prompts and then ``/compact``
(``--input-format stream-json``, as an SDK client does) and counts the compaction summaries
stored (once each, from PostCompact) and the sessions left with more than one capsule.

``--kindling`` picks the installation whose ``init --claude-code`` and hooks are measured (for
a before/after comparison). Prints the tool calls and summaries stored, the duplicates, and how
many tool calls came from the transcript reconciliation (their hook was cancelled). Needs the
claude CLI (``scripts/agent_clis.sh``); uses a private HOME in a temporary directory.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root: `tests`

from tests.support.fake_anthropic import FakeAnthropic

CACHE = Path.home() / ".cache" / "kindling-npm" / "node_modules"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--compactions", type=int, default=0)
    parser.add_argument("--kindling", default=str(Path(sys.executable).with_name("kindling")))
    default_claude = CACHE / "@anthropic-ai" / "claude-code" / "bin" / "claude.exe"
    parser.add_argument("--claude", default=str(default_claude))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        (repo / ".git").mkdir(parents=True)
        env = dict(os.environ, HOME=tmp, KINDLING_HOME=f"{tmp}/.kindling")
        env.pop("KINDLING_DB", None)
        env.pop("KINDLING_URL", None)
        subprocess.run(
            [args.kindling, "init", "--claude-code"],
            cwd=repo,
            env=env,
            check=True,
            capture_output=True,
        )
        env |= {
            "ANTHROPIC_API_KEY": "sk-ant-bench-not-a-key",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
        }
        sessions = {}
        with FakeAnthropic() as api:
            env["ANTHROPIC_BASE_URL"] = api.url
            for n in range(args.runs):
                marker = f"marker-run-{n}"
                argv = [
                    args.claude,
                    "-p",
                    f"Print {marker} with Bash",
                    "--allowedTools",
                    "Bash",
                    "--output-format",
                    "json",
                ]
                out = subprocess.run(
                    argv,
                    cwd=repo,
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=120,
                    stdin=subprocess.DEVNULL,
                )
                sessions[marker] = json.loads(out.stdout)["session_id"]
            compacted = [compact(args.claude, repo, env, n) for n in range(args.compactions)]
        listing = subprocess.run(
            [
                args.kindling,
                "list",
                "observations",
                "--kind",
                "command",
                "--limit",
                "1000",
                "--json",
            ],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        commands = json.loads(listing.stdout)
        everything = json.loads(
            subprocess.run(
                [args.kindling, "list", "observations", "--limit", "1000", "--json"],
                cwd=repo,
                env=env,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        caps = json.loads(
            subprocess.run(
                [args.kindling, "list", "capsules", "--limit", "1000", "--json"],
                cwd=repo,
                env=env,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
    commands = [c for c in commands if "marker-run-" in c["content"]]
    stored = {m for m in sessions if any(f"$ echo {m}\n" in c["content"] for c in commands)}
    runs = set(sessions.values())
    summaries = sum(1 for c in caps if c.get("summaryId") and c["scopeIds"]["sessionId"] in runs)
    reconciled = sum(1 for c in commands if c["provenance"].get("reconciled"))
    if args.compactions:
        found = [o for o in everything if o["provenance"].get("role") == "compaction"]
        where = [o["scopeIds"]["sessionId"] for o in found]
        once = sum(1 for sid in compacted if where.count(sid) == 1)
        per_session = [sum(1 for c in caps if c["scopeIds"]["sessionId"] == s) for s in compacted]
        print(
            f"compactions {args.compactions}: summaries stored once {once}/{args.compactions},"
            f" sessions with more than one capsule {sum(n > 1 for n in per_session)}"
        )
    print(
        f"runs {args.runs}: tool calls stored {len(stored)}/{args.runs}, "
        f"summaries {summaries}/{args.runs}, duplicates {len(commands) - len(stored)}, "
        f"from the transcript {reconciled}"
    )


def compact(claude: str, repo: Path, env: dict[str, str], n: int) -> str:
    """One headless session: three prompts, then ``/compact``; its session id."""
    argv = [claude, "-p", "--input-format", "stream-json", "--output-format", "stream-json"]
    argv += ["--verbose", "--allowedTools", "Bash"]
    prompts = [f"Print marker-compact-{n}-{k} with Bash" for k in range(3)] + ["/compact"]
    session = ""
    with subprocess.Popen(
        argv,
        cwd=repo,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as proc:
        assert proc.stdin is not None
        assert proc.stdout is not None

        def ask() -> None:
            assert proc.stdin is not None
            message = {"role": "user", "content": prompts.pop(0)}
            proc.stdin.write(json.dumps({"type": "user", "message": message}) + "\n")
            proc.stdin.flush()

        ask()
        for line in proc.stdout:
            event = json.loads(line)
            if event.get("type") == "result":
                session = event["session_id"]
                if prompts:
                    ask()
                else:
                    proc.stdin.close()
        proc.wait(timeout=120)
    return session


if __name__ == "__main__":
    main()

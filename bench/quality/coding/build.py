"""Regenerate the coding-session quality set from fetched mirrors of public trajectories.

``python -m bench.quality.coding.build`` reads the trajectories listed in ``SOURCES`` with
``git show`` from ``/work/.mirror/<owner>+<name>/repo`` (bring them with the ``fetch`` tool),
records each as one Claude Code session (``payloads``), gives the sessions seeded start times
spread over eight weeks and the steps seconds apart, derives the questions (``rules``) and
writes three gzip JSON-lines files to ``data/``. Everything is seeded: two runs write the
same bytes. The harness reads only ``data/``.

Must not be imported by the harness (it needs the mirrors; CI has no network).
"""

from __future__ import annotations

import gzip
import json
import random
import re
import sys
import uuid
from pathlib import Path
from typing import Any

from bench.quality.coding import payloads, rules
from bench.quality.coding.readers import read_openhands, read_pretty, read_runs
from bench.quality.coding.sources import (
    Source,
    Trajectory,
    git_show,
    patch_from_steps,
    read_mini,
    read_sweagent,
)

DATA = Path(__file__).resolve().parent / "data"
SEED = 23
START_MS = 1_756_717_200_000  # 2025-09-01T09:00:00Z
DAY_MS = 86_400_000
SPREAD_DAYS = 56
NS = uuid.UUID("5a1e6c0d-3c2b-4f7e-9d1a-6b0c2e4f8a10")

LIVE = "RussellRyanH/CSCI-635-LiveSWE-Agent"
CONSISTENCY = "amanmehta-maniac/agent-consistency"
OPENHANDS = "gsmoon97/swe-agent-eval"
OPENHANDS_DIR = "evaluation/python/verified/20250329_OpenHands_Claude-3.5-Sonnet(Oct)"
OPENHANDS_SAMPLE = 80  # of 500, seeded
SOURCES = (
    Source(
        LIVE,
        "2813cfb19465bb9f57d50ebd0798550480a2f836",
        "MIT (live-swe-agent/LICENSE); trajectories carry no separate licence",
        "live-SWE-agent (mini-SWE-agent, tool calling)",
        "tune",
        (("results/llm-ablation/gpt-5-mini", "gpt-5-mini"),),
    ),
    Source(
        "lgetter/swe-agent-trajectory-analysis",
        "b63a1fe6ec11271b2c90730c242c3c562622b6d2",
        "none stated",
        "SWE-agent 1.0.1",
        "heldout",
        (("trajs", "unnamed (SWE-agent run)"), ("pretty_trajs", "unnamed (SWE-agent run)")),
    ),
    Source(
        "apurv-sawant15/SWE-Agent-Trajectory-Analysis",
        "c3da9e5359dbb0ec9d1e19d5365e533bfda2fac0",
        "none stated",
        "SWE-agent 1.0.1",
        "heldout",
        (
            ("Qwen-2.5-Coder-Instruct-trajs", "Qwen2.5-Coder-Instruct"),
            ("claude-sonnet-trajs", "Claude Sonnet"),
        ),
    ),
    Source(
        "RLin8103/cs598-swe-agent-trajectory-analysis-group8",
        "f6ccbefc064c0478e2fc9ce7fd9793277cbdbcf1",
        "none stated",
        "SWE-agent 1.0.1",
        "heldout",
        (("trajs/sweagent_lm", "SWE-agent-LM"),),
    ),
    Source(
        CONSISTENCY,
        "3e7f58d37abbb7250c479f9eddcdf22fc3921c54",
        "none stated",
        "mini-SWE-agent-style bash agent (agent-consistency study)",
        "heldout",
        (
            ("swe-bench/results_claude_10", "Claude Sonnet 4.5"),
            ("swe-bench/results_llama_10", "Llama 3.1 70B Instruct"),
            ("swe-bench/results_gpt5_snowflake", "GPT-5"),
        ),
    ),
    Source(
        OPENHANDS,
        "2b8d930540ddaf0ae1290e718f1bd0741c70005e",
        "none stated (a copy of a published SWE-bench submission)",
        "MopenHands (OpenHands CodeAct)",
        "tune",
        ((OPENHANDS_DIR + "/trajs", "Claude 3.5 Sonnet (Oct)"),),
    ),
    Source(
        "SWE-agent/SWE-agent",
        "3ea751c087f32b16e039a2233dd6eefecef325d5",
        "MIT",
        "SWE-agent (0.x and 1.x demonstrations)",
        "heldout",
        (
            ("tests/test_data/trajectories", "GPT-4"),
            (
                "trajectories/demonstrations/replay__marshmallow-code__marshmallow-1867__"
                "function_calling_replace__install-1",
                "replay demonstration",
            ),
        ),
    ),
)


TRAJ_FILES = (".traj", ".traj.json", "_formatted.txt")


def _ls(src: Source, under: str, ends: tuple[str, ...] | str = TRAJ_FILES) -> list[str]:
    import subprocess

    git = payloads_git(src)
    out = subprocess.run(
        ["git", "-C", git, "ls-tree", "-r", "-l", src.commit, under + "/"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    files = []
    for line in out.splitlines():
        meta, path = line.split("\t", 1)
        size = meta.split()[3]
        if path.endswith(ends) and size.isdigit():
            files.append(path)
    return sorted(files)


def payloads_git(src: Source) -> str:
    from bench.quality.coding.sources import MIRRORS

    return str(MIRRORS / src.repo.replace("/", "+") / "repo")


def read_all() -> list[Trajectory]:
    out: list[Trajectory] = []
    for src in SOURCES:
        preds: dict[str, Any] = {}
        for k, (under, model) in enumerate(src.paths):
            if src.repo == CONSISTENCY:
                # The same ten tasks were run by three models: the i-th task (by name) is
                # taken from model i mod 3, its first run only.
                for i, path in enumerate(_ls(src, under, ".json")):
                    if i % len(src.paths) == k:
                        doc = json.loads(git_show(src.repo, src.commit, path))
                        out.append(read_runs(doc, src, path, model))
                continue
            if src.repo == OPENHANDS:
                continue  # read last: its sample avoids every other source's tasks
            if src.repo == LIVE:
                preds = json.loads(git_show(src.repo, src.commit, f"{under}/preds.json"))
            for path in _ls(src, under):
                raw = git_show(src.repo, src.commit, path)
                if path.endswith("_formatted.txt"):
                    out.append(read_pretty(raw.decode("utf-8"), src, path, model))
                    continue
                doc = json.loads(raw)
                if "messages" in doc:
                    iid = doc.get("instance_id") or Path(path).parent.name
                    patch = str((preds.get(iid) or {}).get("model_patch") or "")
                    out.append(read_mini(doc, src, path, model, patch))
                else:
                    out.append(read_sweagent(doc, src, path, model))
    out.extend(read_openhands_sample({t.instance_id for t in out}))
    seen: set[tuple[str, str]] = set()
    tuned = {t.instance_id for t in out if t.split == "tune"}
    kept = []
    for t in out:  # one session per (split, task): two runs of one task would share a title
        if (t.split, t.instance_id) in seen or not t.task or not t.steps:
            continue
        if t.split == "heldout" and t.instance_id in tuned:
            print(f"left out (a tuned task): {t.source}", file=sys.stderr)
            continue  # a held-out session never repeats a task of the tuning split
        if not t.patch.strip():
            t.patch, t.patch_from = patch_from_steps(t) or patch_from_commands(t), "steps"
        seen.add((t.split, t.instance_id))
        kept.append(t)
    return kept


def read_openhands_sample(taken: set[str]) -> list[Trajectory]:
    """``OPENHANDS_SAMPLE`` OpenHands runs, drawn (seeded) from the tasks no other source
    covers, so that adding them leaves the other sessions, and the held-out split, as they are."""
    src = next(s for s in SOURCES if s.repo == OPENHANDS)
    ((under, model),) = src.paths
    files = [p for p in _ls(src, under, ".json") if Path(p).parent.name not in taken]
    out = []
    for path in sorted(random.Random(SEED).sample(files, OPENHANDS_SAMPLE)):
        doc = json.loads(git_show(src.repo, src.commit, path))
        out.append(read_openhands(doc, src, path, model))
    return out


SOURCE_PATH = re.compile(r"(?:/testbed/)?((?:[\w.-]+/)+[\w.-]+\.py)\b")


def patch_from_commands(t: Trajectory) -> str:
    """Headers for the source files that shell commands wrote to (``rules.WRITE_OP``), for a
    bash-only agent whose final patch was not kept."""
    files: list[str] = []
    for step in t.steps:
        if step.tool == "bash" and rules.WRITE_OP.search(step.command):
            files.extend(SOURCE_PATH.findall(step.command.split("<<", 1)[0] + step.command))
    files = [f for f in dict.fromkeys(files) if f in rules.fixed_files(_headers(files))]
    return _headers(files)


def _headers(files: list[str]) -> str:
    return "".join(f"diff --git a/{f} b/{f}\n" for f in dict.fromkeys(files))


def repo_of(instance_id: str) -> str:
    """``django__django-11066`` -> ``django/django``; anything else keeps its name."""
    head = instance_id.rsplit("-", 1)[0]
    return head.replace("__", "/") if "__" in head else f"local/{head or instance_id}"


MAX_CHUNK = 20_000


def trim_patch(patch: str) -> str:
    """The final patch's chunks for the fixed source files only, each cut at ``MAX_CHUNK``
    (a patch may drag in build output); the rules read nothing else."""
    keep = set(rules.fixed_files(patch))
    chunks = re.split(r"(?=^diff --git )", patch, flags=re.MULTILINE)
    out = []
    for chunk in chunks:
        head = rules.DIFF_FILE.search(chunk)
        if head is not None and head.group(2) in keep:
            out.append(chunk[:MAX_CHUNK])
    return "".join(out)


def record_one(
    t: Trajectory, rng: random.Random, short: str, split: str | None = None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One trajectory as one session: a seeded start within the eight weeks, steps 4-45 s
    apart, the hooks' mapping of each step, the agent's last words as the summary."""
    sid = str(uuid.uuid5(NS, t.source))
    repo = repo_of(t.instance_id)
    repo_id = payloads.checkout(repo)
    ts = START_MS + rng.randrange(SPREAD_DAYS) * DAY_MS + rng.randrange(9 * 3600) * 1000
    opened = ts - 1000
    observations = []
    for n, (_, draft) in enumerate(payloads.drafts(t, sid, repo)):
        ts += rng.randint(4, 45) * 1000 if n else 0
        observations.append(
            {"id": f"cs-{short}-{n:03d}", "session_id": sid, "repo_id": repo_id, "ts": ts, **draft}
        )
    last_thought = next((s.thought for s in reversed(t.steps) if s.thought.strip()), "")
    session = {
        "session_id": sid,
        "short": short,
        "repo_id": repo_id,
        "split": split or t.split,
        "source": t.source,
        "agent": t.agent,
        "model": t.model,
        "instance_id": t.instance_id,
        "title": t.title,
        "patch_from": t.patch_from,
        "patch": trim_patch(t.patch),
        "opened_at": opened,
        "closed_at": ts + 5000,
        "summary": last_thought[:4000],
    }
    return session, observations


def record(trajs: list[Trajectory]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    rng = random.Random(SEED)
    sessions, observations = [], []
    counters = {"tune": 0, "heldout": 0}
    for t in trajs:
        counters[t.split] += 1
        session, steps = record_one(t, rng, f"{t.split[0]}{counters[t.split]:03d}")
        sessions.append(session)
        observations.extend(steps)
    return sessions, observations


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    text = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows)
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz:
        gz.write(text.encode("utf-8"))


def main() -> int:
    trajs = read_all()
    sessions, observations = record(trajs)
    by_session: dict[str, list[dict[str, Any]]] = {}
    for o in observations:
        by_session.setdefault(o["session_id"], []).append(o)
    questions = [
        q.to_json() for s in sessions for q in rules.derive(s, by_session.get(s["session_id"], []))
    ]
    DATA.mkdir(exist_ok=True)
    write_jsonl(DATA / "sessions.jsonl.gz", sessions)
    write_jsonl(DATA / "observations.jsonl.gz", observations)
    write_jsonl(DATA / "questions.jsonl.gz", questions)
    for split in ("tune", "heldout"):
        ss = [s for s in sessions if s["split"] == split]
        ids = {s["session_id"] for s in ss}
        print(
            f"{split}: {len(ss)} sessions, "
            f"{sum(o['session_id'] in ids for o in observations)} observations, "
            f"{sum(q['session_id'] in ids for q in questions)} questions",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

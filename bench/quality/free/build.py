"""Regenerate the free-question set's extra sessions from fetched mirrors.

The free-question set's store is the coding set's (``bench/quality/coding/data``) plus the
sessions written here: the first run of each agent-consistency task by the two models the
coding set did not take (``coding.build`` takes the i-th task from model i mod 3), so every
one of those ten astropy tasks was worked on in three sessions, by three models. They are
recorded exactly as the coding set's sessions are (``coding.build.record``'s rules: the real
hook mapping, seeded times within the same eight weeks).

``python -m bench.quality.free.build`` needs ``/work/.mirror/amanmehta-maniac+agent-consistency``;
the harness reads only ``data/``.
"""

from __future__ import annotations

import json
import random
import sys
import uuid
from pathlib import Path
from typing import Any

from bench.quality.coding import build, payloads
from bench.quality.coding.readers import read_runs
from bench.quality.coding.sources import Trajectory, git_show

DATA = Path(__file__).resolve().parent / "data"
SEED = 31


def extra_runs() -> list[Trajectory]:
    src = next(s for s in build.SOURCES if s.repo == build.CONSISTENCY)
    out = []
    for k, (under, model) in enumerate(src.paths):
        for i, path in enumerate(build._ls(src, under, ".json")):
            if i % len(src.paths) != k:  # the coding set took this one
                doc = json.loads(git_show(src.repo, src.commit, path))
                t = read_runs(doc, src, path, model)
                if t.task and t.steps:
                    out.append(t)
    return sorted(out, key=lambda t: (t.instance_id, t.model))


def record(trajs: list[Trajectory]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    rng = random.Random(SEED)
    sessions, observations = [], []
    for n, t in enumerate(trajs, 1):
        short = f"x{n:03d}"
        sid = str(uuid.uuid5(build.NS, t.source))
        repo_id = payloads.checkout(build.repo_of(t.instance_id))
        ts = build.START_MS + rng.randrange(build.SPREAD_DAYS) * build.DAY_MS
        ts += rng.randrange(9 * 3600) * 1000
        opened = ts - 1000
        for i, (_, draft) in enumerate(payloads.drafts(t, sid, build.repo_of(t.instance_id))):
            ts += rng.randint(4, 45) * 1000 if i else 0
            observations.append(
                {"id": f"cs-{short}-{i:03d}", "session_id": sid, "repo_id": repo_id, "ts": ts}
                | draft
            )
        if not t.patch.strip():
            t.patch = build.patch_from_commands(t)
        last = next((s.thought for s in reversed(t.steps) if s.thought.strip()), "")
        sessions.append(
            {
                "session_id": sid,
                "short": short,
                "repo_id": repo_id,
                "split": "extra",
                "source": t.source,
                "agent": t.agent,
                "model": t.model,
                "instance_id": t.instance_id,
                "title": t.title,
                "patch_from": t.patch_from,
                "patch": build.trim_patch(t.patch),
                "opened_at": opened,
                "closed_at": ts + 5000,
                "summary": last[:4000],
            }
        )
    return sessions, observations


def main() -> int:
    sessions, observations = record(extra_runs())
    DATA.mkdir(exist_ok=True)
    build.write_jsonl(DATA / "extra_sessions.jsonl.gz", sessions)
    build.write_jsonl(DATA / "extra_observations.jsonl.gz", observations)
    print(f"{len(sessions)} sessions, {len(observations)} observations", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

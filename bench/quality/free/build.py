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
from pathlib import Path
from typing import Any

from bench.quality.coding import build
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
    """The extra sessions, recorded as the coding set's are (``coding.build.record_one``)."""
    rng = random.Random(SEED)
    sessions, observations = [], []
    for n, t in enumerate(trajs, 1):
        if not t.patch.strip():
            t.patch = build.patch_from_commands(t)
        session, steps = build.record_one(t, rng, f"x{n:03d}", "extra")
        sessions.append(session)
        observations.extend(steps)
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

"""Memory browser page times: server time plus HTML, on a cached synthetic store.

    python -m bench.ui_pages --size 100k --repeats 20

Opens the bench store of ``--size`` observations (built first if missing, as ``python -m
bench`` does), serves ``kindling ui``'s application in-process (Starlette's test client, so
the time is the request through routing, the library calls and rendering; no network, no
browser paint) and times each page: the repositories; the biggest repository's first
timeline page (its newest sessions and 50 observations) and a page 100 pages deep (keyset:
as cheap as the first); everything newest first; one item; status; and a search page for
each of the corpus's queries, scoped to their repository. Prints JSON (p50/p95/max in ms).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.testclient import TestClient

from bench.corpus import parse_size, queries
from bench.latency import ensure_store, percentiles
from kindling import Kindling
from kindling.ui.app import create_local_app
from kindling.ui.guard import LocalLogin

BUDGET_MS = 300.0


def timed(client: TestClient, path: str, repeats: int) -> list[float]:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        r = client.get(path)
        samples.append(time.perf_counter() - start)
        if r.status_code != 200:
            raise SystemExit(f"{path}: HTTP {r.status_code}: {r.text[:300]}")
    return samples


def deep_cursor(kd: Kindling, repo: str, pages: int) -> str:
    """The cursor of the ``pages``-th page of a repository's timeline (walked once, untimed)."""
    from kindling import Scope

    before: tuple[int, str] | None = None
    for _ in range(pages):
        page = kd.list_observations(scope=Scope(repo_id=repo), limit=50, before=before)
        if len(page) < 50:
            break
        before = (page[-1].ts, page[-1].id)
    assert before is not None
    return f"{before[0]}:{before[1]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ui_pages")
    parser.add_argument("--size", default="100k")
    parser.add_argument("--data", type=Path, default=Path("bench/data"))
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--per-class", type=int, default=4, help="search queries per class")
    args = parser.parse_args(argv)
    size = parse_size(args.size)
    path, meta = ensure_store(args.data, size, args.seed)
    report: dict[str, Any] = {"observations": meta["observations"], "budgetMs": BUDGET_MS}
    with Kindling.open(path) as kd:
        repos = kd.list_repos(limit=1000)
        repo = max(repos, key=lambda r: r.observations)  # the biggest: the deepest pages
        depth = min(100, repo.observations // 50 - 1)
        obs = kd.list_observations(limit=1)[0].id
        cursor = deep_cursor(kd, repo.repo_id, depth)
        report["repository"] = {"id": repo.repo_id, "observations": repo.observations}
        login = LocalLogin()
        app = create_local_app(kd, login=login)
        with TestClient(app, base_url="http://127.0.0.1:8000") as client:
            client.get(f"/?code={login.new_code()}")
            pages = {
                "repositories": "/",
                "repo timeline, first page": f"/repo?repo={quote(repo.repo_id)}",
                f"repo timeline, page {depth + 1}": (
                    f"/repo?repo={quote(repo.repo_id)}&before={quote(cursor)}"
                ),
                "everything, first page": "/timeline",
                "one observation": f"/item?id={obs}",
                "status": "/status",
            }
            times = {name: timed(client, p, args.repeats) for name, p in pages.items()}
            searches: list[float] = []
            for q in queries(size, args.seed, args.per_class):
                p = f"/search?q={quote(q.text)}&repo={quote(q.repo_id)}"
                searches += timed(client, p, max(1, args.repeats // 5))
            times["search page (scoped to a repository)"] = searches
    report["pages"] = {
        name: {**percentiles(s), "max": round(max(s) * 1000, 3)} for name, s in times.items()
    }
    report["withinBudget"] = all(
        v["p95"] < BUDGET_MS
        for k, v in report["pages"].items()
        if k in ("repo timeline, first page", "search page (scoped to a repository)")
    )
    print(json.dumps(report, indent=1))
    return 0 if report["withinBudget"] else 1


if __name__ == "__main__":
    sys.exit(main())

"""Latin-script cost of the CJK segments (issue 23, item 4), before and after in one run.

For Latin text the segments change nothing in the store (the same index rows, the same MATCH
strings): what they add is work in Python, on the query path (``store.fts`` asks
``segment_query`` and ``query_words`` of every word, snippets ask ``segment_spans``) and on
the write path (``searchable_parts`` asks ``has_segments``, and the index's view asks
``with_segments`` of each new row's context and intent). So "before" is this code with
those calls replaced by what the code did without them, and both sides run interleaved on the
same 100k store (the order alternates each repeat):

- repository-scoped ``retrieve()`` of the corpus's Latin queries (every class), p50/p95;
- ``append_many`` capture into copies of the store, alternating before/after;
- the Python work alone: searchable parts per row, query reading and snippet spans per query.

    .venv/bin/python -m bench.segments_ab [--size 100k] [--repeats 5] [--capture 20000]
        [--data bench/data] [--out bench/out]

Writes ``segments_ab.json`` to ``--out``. Nothing here is imported by ``src/kindling``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import kindling.retrieval.snippets as snippets
import kindling.store.fts as fts
import kindling.store.sqlite.index as sqlite_index
from bench.corpus import ObservationRecord, end_ms, generate, parse_size, queries
from bench.latency import _relabel, ensure_store, percentiles
from bench.loader import SettableClock, load
from kindling import Kindling, Scope
from kindling.store.documents import searchable_parts
from kindling.store.identifiers import identifier_parts

OUT = Path(__file__).parent / "out"
DATA = Path(__file__).parent / "data"


@contextmanager
def before() -> Iterator[None]:
    """The code as it was without the segments (identity spellings, no segment spans)."""
    saved: list[tuple[Any, str, Callable[..., Any]]] = [
        (fts, "segment_query", fts.segment_query),
        (fts, "query_words", fts.query_words),
        (snippets, "segment_spans", snippets.segment_spans),
        (sqlite_index, "searchable_parts", sqlite_index.searchable_parts),
        (sqlite_index, "with_segments", sqlite_index.with_segments),
    ]
    fts.segment_query = lambda text: text  # type: ignore[assignment]
    fts.query_words = lambda word: [word]  # type: ignore[assignment]
    snippets.segment_spans = lambda content, words: []  # type: ignore[assignment]
    sqlite_index.searchable_parts = identifier_parts  # type: ignore[assignment]
    sqlite_index.with_segments = lambda text: text  # type: ignore[assignment]
    try:
        yield
    finally:
        for module, name, value in saved:
            setattr(module, name, value)


@contextmanager
def after() -> Iterator[None]:
    yield


SIDES = {"before": before, "after": after}


def measure_queries(path: Path, size: int, seed: int, repeats: int) -> dict[str, Any]:
    qs = queries(size, seed, per_class=20)
    now = end_ms(size, seed)
    samples: dict[str, list[float]] = {"before": [], "after": []}
    results: dict[str, list[str]] = {"before": [], "after": []}
    with Kindling.open(path, read_only=True) as kd:
        for q in qs:  # warm-up
            kd.retrieve(q.text, scope=Scope(repo_id=q.repo_id), now=now)
        for rep in range(repeats):
            for q in qs:
                order = ("before", "after") if rep % 2 == 0 else ("after", "before")
                for side in order:
                    with SIDES[side]():
                        t = time.perf_counter()
                        res = kd.retrieve(q.text, scope=Scope(repo_id=q.repo_id), now=now)
                        samples[side].append(time.perf_counter() - t)
                    if rep == 0:
                        results[side].append(json.dumps(res.to_dict(), sort_keys=True))
    return {
        "queries": len(qs),
        "repeats": repeats,
        "before": percentiles(samples["before"]),
        "after": percentiles(samples["after"]),
        "identicalResults": results["before"] == results["after"],
    }


def measure_python_work(size: int, seed: int, rows: int, repeats: int) -> dict[str, Any]:
    """What the segments add in Python alone, where the load of a shared machine matters
    least: per row, the searchable parts of its content (``searchable_parts`` against
    ``identifier_parts``); per query, reading it and finding its snippet spans."""
    contents = [r.content for r in generate(rows, seed + 7) if isinstance(r, ObservationRecord)]
    qs = [q.text for q in queries(size, seed, per_class=20)]
    row_s: dict[str, list[float]] = {"before": [], "after": []}
    query_s: dict[str, list[float]] = {"before": [], "after": []}
    for rep in range(repeats):
        for side in ("before", "after") if rep % 2 == 0 else ("after", "before"):
            parts = identifier_parts if side == "before" else searchable_parts
            t = time.perf_counter()
            for text in contents:
                parts(text)
            row_s[side].append(time.perf_counter() - t)
            with SIDES[side]():
                t = time.perf_counter()
                for q in qs:
                    plan = fts.build_query(q)
                    for text in contents[:20]:
                        snippets.find_terms(text, plan.words)
                query_s[side].append(time.perf_counter() - t)
    # The fastest repeat: CPU-only work on a shared machine is only ever slowed by others.
    return {
        "rows": len(contents),
        "queries": len(qs),
        "repeats": repeats,
        "partsMicrosecondsPerRow": {
            k: round(min(v) / len(contents) * 1e6, 2) for k, v in row_s.items()
        },
        "queryAndSnippetsMicrosecondsPerQuery": {
            k: round(min(v) / len(qs) * 1e6, 1) for k, v in query_s.items()
        },
    }


def measure_capture(path: Path, seed: int, n: int, rounds: int) -> dict[str, Any]:
    out: dict[str, list[float]] = {"before": [], "after": []}
    for r in range(rounds):
        for side in ("before", "after") if r % 2 == 0 else ("after", "before"):
            with tempfile.TemporaryDirectory(dir=path.parent) as tmp:
                copy = Path(tmp) / "capture.db"
                shutil.copyfile(path, copy)
                clock = SettableClock()
                records = list(_relabel(generate(n, seed + 1 + r), f"ab{r}{side}-"))
                with SIDES[side](), Kindling.open(copy, clock=clock) as kd:
                    kd.append_observation(kind="message", content="warm-up", id=f"w{r}{side}")
                    stats = load(kd, records, clock=clock, batch_size=2000, bulk=True)
                out[side].append(round(stats.obs_per_second, 1))
    return {"observations": n, "appendManyObsPerSecond": out}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.segments_ab")
    parser.add_argument("--size", default="100k")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--capture", type=int, default=10_000)
    parser.add_argument("--capture-rounds", type=int, default=4)
    parser.add_argument("--data", type=Path, default=DATA, help="store cache (python -m bench)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    size = parse_size(args.size)
    path, meta = ensure_store(args.data, size, args.seed)
    report = {
        "store": meta,
        "loadAverage": os.getloadavg(),
        "pythonWork": measure_python_work(size, args.seed, 20_000, max(2, 2 * args.repeats)),
        "retrieveRepoScoped": (
            measure_queries(path, size, args.seed, args.repeats) if args.repeats else None
        ),
        "capture": (
            measure_capture(path, args.seed, args.capture, args.capture_rounds)
            if args.capture
            else None
        ),
        "loadAverageAfter": os.getloadavg(),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "segments_ab.json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

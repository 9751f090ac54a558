"""``python -m bench.semantic_cost``: what the semantic signal costs, in one process.

- ``retrieve()`` p50/p95 for repository-scoped natural-language questions on the latency
  corpus (``bench.latency``, 100k observations by default), semantic off and on, interleaved
  query by query (the order rotates every question). "on" is the re-rank, "union" adds the
  question's nearest neighbours in its repository (``retrieval.union``: every vector of the
  scope read and compared). "on" embeds the question on the threads
  the product chooses (``semantic.threads.for_question``: the idle cores, at most 4), "on1" on
  one BLAS thread (what every question cost before); ``--forced`` adds "onN", min(cores, 4)
  threads whatever else runs (its spinning BLAS threads then count against the next call's
  idle cores, so it is not in the default run). Every observation and summary gets a
  vector; their values are seeded random int8 (what a vector holds does not change what
  reading and comparing it costs), while the question is embedded by the real model, its cache
  cleared before every call, so each timed call pays the model;
- the model alone: the cost of embedding one question;
- backfill: ``kindling.semantic.indexer.backfill`` over the newest ``--backfill`` observations of
  the corpus with the real model: texts per second, and the process's peak RSS after loading the
  model and after the backfill.

Must import Kindling's public API and ``kindling.semantic`` only (plus sqlite3 to fill vectors).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import sqlite3
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from bench.corpus import end_ms, queries
from bench.latency import ensure_store, percentiles
from kindling import Kindling, NewObservation, Scope
from kindling.retrieval.provider import LocalFtsProvider
from kindling.retrieval.scoring import DEFAULT_WEIGHTS
from kindling.retrieval.union import UnionSettings
from kindling.semantic import threads
from kindling.semantic.indexer import backfill
from kindling.semantic.install import require_installed
from kindling.semantic.models import model_spec


def rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def fill_vectors(path: Path, model: str, dim: int, seed: int) -> int:
    rng = random.Random(seed)
    con = sqlite3.connect(path)
    n = 0
    for table, key, parent in (
        ("observation_vectors", "observation_id", "observations"),
        ("summary_vectors", "summary_id", "summaries"),
    ):
        ids = [r[0] for r in con.execute(f"SELECT id FROM {parent}")]
        con.executemany(
            f"INSERT OR REPLACE INTO {table} ({key}, model, vector) VALUES (?, ?, ?)",
            ((i, model, rng.randbytes(dim)) for i in ids),
        )
        n += len(ids)
    con.commit()
    con.close()
    return n


def _scope_sizes(path: Path, qs: list[Any]) -> dict[str, int]:
    """How many vectors the questions' repositories hold (what a union reads and compares)."""
    con = sqlite3.connect(path)
    sizes = [
        con.execute(
            "SELECT COUNT(*) FROM observation_vectors v JOIN observations o"
            " ON o.id = v.observation_id WHERE o.repo_id = ?",
            (q.repo_id,),
        ).fetchone()[0]
        for q in qs
    ]
    con.close()
    ordered = sorted(sizes)
    return {"min": ordered[0], "median": ordered[len(ordered) // 2], "max": ordered[-1]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.semantic_cost", description=__doc__)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--data", type=Path, default=Path("/tmp/kindling-semantic-cost"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--backfill", type=int, default=100, metavar="N")
    parser.add_argument("--model", default="all-MiniLM-L6-v2")
    parser.add_argument("--forced", action="store_true", help="add the onN arm (see above)")
    args = parser.parse_args(argv)
    spec = model_spec(args.model)
    require_installed(spec)
    source, meta = ensure_store(args.data, args.size, args.seed)
    path = args.data / f"semantic-{args.size}.db"
    shutil.copyfile(source, path)
    vectors = fill_vectors(path, spec.key, spec.dim, args.seed)
    now = end_ms(args.size, args.seed)
    qs = [q for q in queries(args.size, args.seed) if q.cls == "question"]
    report: dict[str, Any] = {"size": args.size, "model": spec.key, "vectors": vectors}
    with Kindling.open(path) as off, Kindling.open(path, semantic="on") as opened:
        scorer: Any = opened.provider.semantic  # type: ignore[attr-defined]
        on = Kindling(opened.store, provider=LocalFtsProvider(opened.store, semantic=scorer))
        united = Kindling(
            opened.store,
            provider=LocalFtsProvider(
                opened.store, DEFAULT_WEIGHTS, semantic=scorer, union=UnionSettings()
            ),
        )
        report["scopeVectors"] = _scope_sizes(path, qs)
        start = time.perf_counter()
        assert scorer.encoder is not None  # loads the model
        report["modelLoadSeconds"] = round(time.perf_counter() - start, 2)
        report["rssAfterLoadMB"] = rss_mb()
        for q in qs[:3]:  # warm-up, untimed
            off.retrieve(q.text, scope=Scope(repo_id=q.repo_id), now=now)
            on.retrieve(q.text, scope=Scope(repo_id=q.repo_id), now=now)
        # the union's first question in a scope reads the scope's vectors (what a fresh
        # process, or one after a write, pays once a scope): timed here, then kept (warm, the
        # steady state of a long-lived process, is what the interleaved arms below time)
        cold: list[float] = []
        for repo in dict.fromkeys(q.repo_id for q in qs):
            c = time.process_time()
            scorer.neighbours("warm", Scope(repo_id=repo), limit=10, until=now, exclude_ids=())
            cold.append(time.process_time() - c)
        report["unionScopeReadCpu"] = percentiles(cold)
        report["rssAfterScopesMB"] = rss_mb()
        # wall time, and the process's CPU time (every BLAS thread's; what the call costs on
        # an idle machine: on one shared with other work the wall time is mostly waiting)
        arms = {
            "off": (off, threads.for_question),
            "on": (on, threads.for_question),
            "union": (united, threads.for_question),
        }
        if args.forced:
            arms["onN"] = (on, lambda: min(threads.cores(), threads.QUESTION_THREADS))
        times: dict[str, list[float]] = {k: [] for k in (*arms, "embed")}
        times.update({f"{k}Cpu": [] for k in (*arms, "embed")})
        chosen: list[int] = []
        loads = [threads.load_average()]
        names = list(arms)
        for rep in range(args.repeats):
            for n, q in enumerate(qs):
                scope = Scope(repo_id=q.repo_id)
                turn = (rep * len(qs) + n) % len(names)
                for side in names[turn:] + names[:turn]:
                    kd, policy = arms[side]
                    scorer.question_threads = policy
                    scorer.clear_cache()
                    if side == "on":
                        chosen.append(threads.for_question() or 0)
                    t, c = time.perf_counter(), time.process_time()
                    kd.retrieve(q.text, scope=scope, now=now)
                    times[side].append(time.perf_counter() - t)
                    times[side + "Cpu"].append(time.process_time() - c)
                scorer.question_threads = threads.for_question
                scorer.clear_cache()
                t, c = time.perf_counter(), time.process_time()
                scorer.query_vector(q.text)
                times["embed"].append(time.perf_counter() - t)
                times["embedCpu"].append(time.process_time() - c)
            loads.append(threads.load_average())
        for name, samples in times.items():
            report[name] = percentiles(samples)
        report["ratioP95"] = round(report["on"]["p95"] / report["off"]["p95"], 2)
        report["ratioP95Cpu"] = round(report["onCpu"]["p95"] / report["offCpu"]["p95"], 2)
        report["unionRatioP95"] = round(report["union"]["p95"] / report["off"]["p95"], 2)
        report["unionRatioP95Cpu"] = round(report["unionCpu"]["p95"] / report["offCpu"]["p95"], 2)
        report["questions"] = len(qs) * args.repeats
        report["cores"] = threads.cores()
        report["questionThreads"] = {str(k): chosen.count(k) for k in sorted(set(chosen))}
        report["loadAverage"] = [round(x, 2) for x in loads]
    if args.backfill:
        with Kindling.open(source, read_only=True) as kd:
            texts = [o.content for o in kd.list_observations(limit=args.backfill)]
        bf = args.data / "backfill.db"
        bf.unlink(missing_ok=True)
        encoder = scorer.encoder  # the model already loaded: one copy in this process
        with Kindling.open(bf) as kd:
            kd.append_many([NewObservation("message", t) for t in texts])
            store: Any = kd.store.inner if hasattr(kd.store, "inner") else kd.store
            cpu = time.process_time()
            done = backfill(store, encoder)
            cpu = time.process_time() - cpu
        report["backfill"] = {
            **done.to_dict(),
            "cpuSeconds": round(cpu, 1),
            "perCpuSecond": round(done.embedded / cpu, 2) if cpu else None,
            "meanChars": round(statistics.fmean(len(t) for t in texts), 1),
            "peakRssMB": rss_mb(),
        }
    report["corpus"] = meta
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

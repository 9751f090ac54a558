"""The latency harness: build (or reuse) a corpus store, then time retrieval against bare FTS5.

For each size it measures, in one process:

- ``retrieve()`` p50/p95/p99 for natural-language questions unscoped, repo-scoped and
  session-scoped, for the empty query (repo-scoped and unscoped), and for the other query
  classes (word, identifier, path, error) repo-scoped;
- the naive baseline: a plain one-column FTS5 index of the observations' content (built into
  the bench store, never used by Kindling) queried with the question's words OR'ed, stop words
  dropped, joined to the rows for the scope filter, bm25 order, top 50; plus the same on
  summaries. Through a second read-only connection, interleaved with the retrievals (the
  order alternates every repeat so neither side always gets the warmer cache); and the ratios;
- capture throughput into a copy of the store (so with its index at full size): ``append_many``
  batches, single appends batched in transactions, and one transaction per observation;
- database bytes per observation;
- the wall time of a cold ``kindling search`` process, when the CLI has that command.

Stores are cached under ``bench/data`` keyed by size, seed and corpus version, so a second
run only queries.

Must import Kindling's public API only (plus sqlite3 for the bare baseline).
"""

from __future__ import annotations

import dataclasses
import json
import os
import platform
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.corpus import (
    MIX_CLASSES,
    NEED_CLASSES,
    QUERY_CLASSES,
    CapsuleRecord,
    ObservationRecord,
    Query,
    Record,
    end_ms,
    generate,
    queries,
)
from bench.loader import LoadStats, SettableClock, load
from kindling import Kindling, Scope
from kindling.store.fts import STOPWORDS

# Bump when the generator's output changes, so cached stores are rebuilt.
CORPUS_VERSION = 3  # 2: the plain baseline index; 3: joined identifier forms
TOP_K = 50


@dataclass(frozen=True, slots=True)
class Config:
    """One measured retrieval setting: which queries, and how they are scoped."""

    name: str
    classes: tuple[str, ...]
    scope: Callable[[Query], Scope]
    empty: bool = False


CONFIGS = (
    Config("nl_unscoped", ("question",), lambda q: Scope()),
    Config("nl_repo", ("question",), lambda q: Scope(repo_id=q.repo_id)),
    Config(
        "nl_session", ("question",), lambda q: Scope(repo_id=q.repo_id, session_id=q.session_id)
    ),
    Config("empty_repo", ("question",), lambda q: Scope(repo_id=q.repo_id), empty=True),
    Config("empty_unscoped", ("question",), lambda q: Scope(), empty=True),
    Config("word_repo", ("word",), lambda q: Scope(repo_id=q.repo_id)),
    Config("identifier_repo", ("identifier",), lambda q: Scope(repo_id=q.repo_id)),
    Config("path_repo", ("path",), lambda q: Scope(repo_id=q.repo_id)),
    Config("error_repo", ("error",), lambda q: Scope(repo_id=q.repo_id)),
    # Every question shape at once, repository-scoped, in equal shares: single words, pairs,
    # identifiers, dotted names, paths, pasted errors, quoted phrases, natural questions and
    # the questions that trigger each need; then each need class alone.
    Config(
        "mix_repo",
        (*QUERY_CLASSES, *MIX_CLASSES),
        lambda q: Scope(repo_id=q.repo_id),
    ),
    *(
        Config(
            f"need_{c}_repo".replace("need_need_", "need_"),
            (c,),
            lambda q: Scope(repo_id=q.repo_id),
        )
        for c in NEED_CLASSES
    ),
)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Building the store


def db_path(data_dir: Path, size: int, seed: int) -> Path:
    return data_dir / f"corpus-v{CORPUS_VERSION}-{size}-s{seed}.db"


def ensure_store(data_dir: Path, size: int, seed: int) -> tuple[Path, dict[str, Any]]:
    """The cached store for (size, seed), built first if missing. Returns it and its meta."""
    path = db_path(data_dir, size, seed)
    meta_path = path.with_suffix(".json")
    if path.exists() and meta_path.exists():
        meta: dict[str, Any] = json.loads(meta_path.read_text())
        meta["cached"] = True
        return path, meta
    data_dir.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".building")
    for leftover in data_dir.glob(tmp.name + "*"):
        leftover.unlink()
    log(f"building {size} observations (seed {seed}) -> {path}")
    clock = SettableClock()
    last = [0.0]

    def progress(stats: LoadStats) -> None:
        if stats.seconds - last[0] >= 30:
            last[0] = stats.seconds
            log(f"  {stats.observations} obs, {stats.obs_per_second:.0f} obs/s")

    with Kindling.open(tmp, clock=clock) as kd:
        stats = load(
            kd, generate(size, seed), clock=clock, batch_size=2000, progress=progress, bulk=True
        )
    _build_plain_index(tmp)
    _checkpoint(tmp)
    os.replace(tmp, path)
    meta = {
        "size": size,
        "seed": seed,
        "corpusVersion": CORPUS_VERSION,
        "observations": stats.observations,
        "capsules": stats.capsules,
        "summaries": stats.summaries,
        "pins": stats.pins,
        "buildSeconds": round(stats.seconds, 2),
        "buildObsPerSecond": round(stats.obs_per_second, 1),
        "bytes": path.stat().st_size,
    }
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    meta["cached"] = False
    return path, meta


def _build_plain_index(path: Path) -> None:
    """The naive design's index: content only, external content on ``observations``."""
    con = sqlite3.connect(path)
    try:
        con.execute(
            "CREATE VIRTUAL TABLE bench_plain_fts USING fts5(content, content='observations',"
            " content_rowid='rowid', tokenize='porter unicode61')"
        )
        con.execute("INSERT INTO bench_plain_fts(bench_plain_fts) VALUES ('rebuild')")
        con.commit()
    finally:
        con.close()


def _checkpoint(path: Path) -> None:
    """Fold the WAL into the main file so its size is the store's size."""
    con = sqlite3.connect(path)
    try:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        con.close()
    for suffix in ("-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)


# ---------------------------------------------------------------------------------------------
# The bare FTS5 baseline


class BareFts:
    """The naive baseline: a plain FTS5 OR query with stop words dropped, scope by join."""

    def __init__(self, path: Path) -> None:
        self.con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)

    def close(self) -> None:
        self.con.close()

    def run(self, text: str, scope: Scope) -> int:
        obs_where, obs_args = _where(scope, "o")
        cap_where, cap_args = _where(scope, "c")
        match = or_query(text)
        if match is None:
            obs = (
                f"SELECT o.id FROM observations o WHERE o.redacted = 0{obs_where}"
                " ORDER BY o.ts DESC LIMIT ?"
            )
            sums = (
                "SELECT s.id FROM summaries s JOIN capsules c ON c.id = s.capsule_id"
                f" WHERE 1{cap_where} ORDER BY s.created_at DESC LIMIT ?"
            )
            a = self.con.execute(obs, [*obs_args, TOP_K]).fetchall()
            b = self.con.execute(sums, [*cap_args, TOP_K]).fetchall()
            return len(a) + len(b)
        obs = (
            "SELECT o.id, bm25(bench_plain_fts) AS b FROM bench_plain_fts"
            " JOIN observations o ON o.rowid = bench_plain_fts.rowid"
            f" WHERE bench_plain_fts MATCH ? AND o.redacted = 0{obs_where}"
            " ORDER BY b LIMIT ?"
        )
        sums = (
            "SELECT s.id, bm25(summaries_fts) AS b FROM summaries_fts"
            " JOIN summaries s ON s.rowid = summaries_fts.rowid"
            " JOIN capsules c ON c.id = s.capsule_id"
            f" WHERE summaries_fts MATCH ?{cap_where} ORDER BY b LIMIT ?"
        )
        a = self.con.execute(obs, [match, *obs_args, TOP_K]).fetchall()
        b = self.con.execute(sums, [match, *cap_args, TOP_K]).fetchall()
        return len(a) + len(b)


def or_query(text: str) -> str | None:
    """Every word of ``text`` quoted and OR'ed, stop words dropped (kept if nothing else is)."""
    words = list(dict.fromkeys(re.findall(r"[^\W_]+", text.lower())))
    content = [w for w in words if w not in STOPWORDS] or words
    return " OR ".join(f'"{w}"' for w in content) or None


def _where(scope: Scope, alias: str) -> tuple[str, list[str]]:
    items = scope.items()
    return "".join(f" AND {alias}.{name} = ?" for name, _ in items), [v for _, v in items]


# ---------------------------------------------------------------------------------------------
# Measuring


def percentiles(samples: Sequence[float]) -> dict[str, float]:
    """p50/p95/p99 in milliseconds (inclusive method: exact for tiny samples)."""
    if len(samples) == 1:
        v = round(samples[0] * 1000, 3)
        return {"p50": v, "p95": v, "p99": v, "n": 1}
    q = statistics.quantiles(samples, n=100, method="inclusive")
    return {
        "p50": round(q[49] * 1000, 3),
        "p95": round(q[94] * 1000, 3),
        "p99": round(q[98] * 1000, 3),
        "n": len(samples),
    }


def measure_config(
    kd: Kindling,
    bare: BareFts,
    config: Config,
    qs: Sequence[Query],
    now: int,
    repeats: int,
) -> dict[str, Any]:
    chosen = [q for q in qs if q.cls in config.classes]
    engine: list[float] = []
    base: list[float] = []
    engine_cpu: list[float] = []
    base_cpu: list[float] = []
    candidates: list[int] = []
    for q in chosen:  # warm-up, untimed
        kd.retrieve(query="" if config.empty else q.text, scope=config.scope(q), now=now)
    for rep in range(repeats):
        for q in chosen:
            text = "" if config.empty else q.text
            scope = config.scope(q)
            for side in ("engine", "bare") if rep % 2 == 0 else ("bare", "engine"):
                t = time.perf_counter()
                c = time.process_time()
                if side == "engine":
                    res = kd.retrieve(query=text, scope=scope, now=now, max_candidates=TOP_K)
                    engine.append(time.perf_counter() - t)
                    engine_cpu.append(time.process_time() - c)
                    candidates.append(len(res.candidates))
                else:
                    bare.run(text, scope)
                    base.append(time.perf_counter() - t)
                    base_cpu.append(time.process_time() - c)
    e, b = percentiles(engine), percentiles(base)
    ec, bc = percentiles(engine_cpu), percentiles(base_cpu)
    return {
        "queries": len(chosen),
        "repeats": repeats,
        "retrieve": e,
        "bareFts": b,
        "ratioP50": round(e["p50"] / b["p50"], 2) if b["p50"] else None,
        "ratioP95": round(e["p95"] / b["p95"], 2) if b["p95"] else None,
        # CPU time of this process (``time.process_time``): on a loaded machine the wall
        # clock also counts the time other processes held the CPU.
        "retrieveCpu": ec,
        "bareFtsCpu": bc,
        "cpuRatioP50": round(ec["p50"] / bc["p50"], 2) if bc["p50"] else None,
        "cpuRatioP95": round(ec["p95"] / bc["p95"], 2) if bc["p95"] else None,
        "meanCandidates": round(statistics.fmean(candidates), 1) if candidates else 0,
    }


def _relabel(records: Iterable[Record], prefix: str) -> Iterator[Record]:
    """The records with fresh ids, sessions and capsule keys, to append to a built store."""
    for r in records:
        if isinstance(r, ObservationRecord):
            key = None if r.capsule_key is None else prefix + r.capsule_key
            yield dataclasses.replace(
                r, id=prefix + r.id, session_id=prefix + r.session_id, capsule_key=key
            )
        elif isinstance(r, CapsuleRecord):
            yield dataclasses.replace(r, key=prefix + r.key, session_id=prefix + r.session_id)
        elif hasattr(r, "capsule_key"):
            yield dataclasses.replace(r, capsule_key=prefix + r.capsule_key)  # type: ignore[arg-type]
        # pins name observations of the original stream: skipped


def measure_capture(path: Path, seed: int, n: int) -> dict[str, Any]:
    """Observations per second appended to a copy of the built store (full-size index, secret
    scrubbing on): ``append_many`` in batches of 2,000 records, single appends batched in the
    same transactions, and one transaction per observation (a tenth as many). Steady state: a
    first untimed append pays the store's quick check, which runs once an hour per database
    (``quickCheckSeconds`` reports what it cost)."""
    out: dict[str, Any] = {"observations": n, "intoStoreOf": path.name}
    modes = (
        ("appendMany", 2000, True, n),
        ("batched", 2000, False, n),
        ("perObservation", None, False, n // 10),
    )
    for i, (name, batch, bulk, count) in enumerate(modes):
        with tempfile.TemporaryDirectory(dir=path.parent) as tmp:
            copy = Path(tmp) / "capture.db"
            shutil.copyfile(path, copy)
            clock = SettableClock()
            with Kindling.open(copy, clock=clock) as kd:
                started = time.perf_counter()
                kd.append_observation(kind="message", content="warm-up", id=f"x{i}-warm-up")
                out["quickCheckSeconds"] = round(time.perf_counter() - started, 3)
                # Generated before the clock starts: the synthetic corpus is not capture.
                records = list(_relabel(generate(count, seed + 1 + i), f"x{i}-"))
                stats = load(kd, records, clock=clock, batch_size=batch, bulk=bulk)
            out[name] = {
                "observations": stats.observations,
                "seconds": round(stats.seconds, 3),
                "obsPerSecond": round(stats.obs_per_second, 1),
            }
    return out


def measure_cli(path: Path, qs: Sequence[Query], now: int, runs: int = 5) -> dict[str, Any]:
    """Wall time of a cold ``kindling search`` process, if the CLI has the command."""
    exe = shutil.which("kindling", path=str(Path(sys.executable).parent)) or shutil.which(
        "kindling"
    )
    if exe is None:
        return {"skipped": "no kindling executable on PATH"}
    env = os.environ | {"KINDLING_DB": str(path)}
    probe = subprocess.run(
        [exe, "search", "--help"], capture_output=True, text=True, env=env, check=False
    )
    if probe.returncode != 0:
        return {"skipped": "the CLI has no `kindling search` command yet"}
    text = next(q.text for q in qs if q.cls == "question")
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        done = subprocess.run(
            [exe, "search", text, "--now", str(now)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        times.append(time.perf_counter() - t)
        if done.returncode != 0:
            return {"skipped": f"`kindling search` failed: {done.stderr.strip()[:200]}"}
    return {"query": text, "runs": runs, "wallMs": percentiles(times)}


def run_size(
    size: int,
    seed: int,
    data_dir: Path,
    *,
    repeats: int,
    per_class: int,
    capture_n: int,
    cli: bool,
) -> dict[str, Any]:
    path, meta = ensure_store(data_dir, size, seed)
    qs = queries(size, seed, per_class=per_class)
    now = end_ms(size, seed)
    result: dict[str, Any] = {"size": size, "seed": seed, "store": meta}
    result["loadAverageBefore"] = round(os.getloadavg()[0], 2)
    result["bytesPerObservation"] = round(path.stat().st_size / max(1, meta["observations"]), 1)
    clock = SettableClock(now)
    kd = Kindling.open(path, clock=clock)
    bare = BareFts(path)
    try:
        result["retrieval"] = {}
        for config in CONFIGS:
            log(f"  size {size}: {config.name}")
            result["retrieval"][config.name] = measure_config(kd, bare, config, qs, now, repeats)
    finally:
        bare.close()
        kd.close()
    result["loadAverageAfter"] = round(os.getloadavg()[0], 2)
    result["capture"] = (
        measure_capture(path, seed, capture_n) if capture_n else {"skipped": "--capture 0"}
    )
    result["cli"] = measure_cli(path, qs, now) if cli else {"skipped": "disabled (--no-cli)"}
    return result


def environment() -> dict[str, Any]:
    return {
        # The machine may be shared: a high load average means noisy latencies.
        "loadAverage1m": round(os.getloadavg()[0], 2),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
    }


# ---------------------------------------------------------------------------------------------
# Report


def markdown(report: dict[str, Any]) -> str:
    lines = [
        f"Kindling benchmark (seed {report['seed']}; Python {report['environment']['python']}, "
        f"SQLite {report['environment']['sqlite']}, {report['environment']['cpus']} CPUs; "
        "1-min load average before/after each size's queries: "
        + ", ".join(
            f"{s['size']}: {s['loadAverageBefore']}/{s['loadAverageAfter']}"
            for s in report["sizes"]
        )
        + ")",
        "",
        "Latency in ms: retrieve() vs the naive baseline (plain one-column FTS5 index, the "
        "question's words OR'ed without stop words, scope by join, bm25 order, top 50).",
        "",
        "| size | setting | n | retrieve p50 | p95 | p99 | baseline p50 | p95 | p99 "
        "| ratio p50 | ratio p95 | candidates |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for size in report["sizes"]:
        for name, m in size["retrieval"].items():
            e, b = m["retrieve"], m["bareFts"]
            lines.append(
                f"| {size['size']} | {name} | {e['n']} | {e['p50']} | {e['p95']} | {e['p99']} "
                f"| {b['p50']} | {b['p95']} | {b['p99']} | {m['ratioP50']} | {m['ratioP95']} "
                f"| {m['meanCandidates']} |"
            )
    lines += [
        "",
        "The same runs in CPU time of the process (`time.process_time`, ms; a loaded machine "
        "inflates the wall clock above, not this):",
        "",
        "| size | setting | retrieve p50 | p95 | baseline p50 | p95 | ratio p50 | ratio p95 |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for size in report["sizes"]:
        for name, m in size["retrieval"].items():
            e, b = m["retrieveCpu"], m["bareFtsCpu"]
            lines.append(
                f"| {size['size']} | {name} | {e['p50']} | {e['p95']} | {b['p50']} | {b['p95']} "
                f"| {m['cpuRatioP50']} | {m['cpuRatioP95']} |"
            )
    lines += [
        "",
        "| size | build s | build obs/s | bytes/obs | append_many obs/s | batched appends obs/s "
        "| 1 tx/obs obs/s | cold `kindling search` |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for size in report["sizes"]:
        store, cap, cli = size["store"], size["capture"], size["cli"]
        cli_text = cli.get("skipped") or f"p50 {cli['wallMs']['p50']} ms"
        build = f"{store['buildSeconds']}" + (" (cached)" if store.get("cached") else "")
        rates = [
            str(cap[k]["obsPerSecond"]) if k in cap else "-"
            for k in ("appendMany", "batched", "perObservation")
        ]
        lines.append(
            f"| {size['size']} | {build} | {store['buildObsPerSecond']} "
            f"| {size['bytesPerObservation']} | {' | '.join(rates)} | {cli_text} |"
        )
    return "\n".join(lines) + "\n"


def run(
    sizes: Sequence[int],
    *,
    seed: int,
    out: Path,
    data_dir: Path,
    repeats: int = 3,
    per_class: int = 20,
    capture_n: int = 5000,
    cli: bool = True,
) -> dict[str, Any]:
    report: dict[str, Any] = {"seed": seed, "environment": environment(), "sizes": []}
    for size in sizes:
        report["sizes"].append(
            run_size(
                size,
                seed,
                data_dir,
                repeats=repeats,
                per_class=per_class,
                capture_n=capture_n,
                cli=cli,
            )
        )
    out.mkdir(parents=True, exist_ok=True)
    (out / "bench.json").write_text(json.dumps(report, indent=1) + "\n")
    (out / "bench.md").write_text(markdown(report))
    return report

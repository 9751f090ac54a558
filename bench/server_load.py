"""Load test of ``kindling serve``: the real server on loopback, many clients, mixed traffic.

    python -m bench.server_load --db postgresql://postgres@127.0.0.1/test --clients 50 --seconds 60

Starts ``kindling --db DB serve`` on 127.0.0.1 (a free port; never another host), creates a
team token with the real CLI, then runs ``--clients`` threads for ``--seconds`` (and at most
``--max-requests`` requests in all): each request is a write (``POST /v1/observations``, with
probability ``--write-share``) or a repository-scoped retrieve. Then it stops the server,
opens the database directly and reads back every acknowledged id. Reports throughput, p50/p95
latency per operation, errors and lost writes as JSON. Without ``--db`` it uses a fresh
SQLite file in a temp directory. ``--schema NAME`` creates (and afterwards drops) a throw-away
schema on a PostgreSQL ``--db``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.pgschema import scratch_schema
from kindling import Kindling

KINDLING = Path(sys.executable).with_name("kindling")
REPO = "/bench/webapp"
WORDS = [
    "login",
    "token",
    "jwt",
    "session",
    "cache",
    "flaky",
    "test",
    "migration",
    "deploy",
    "timeout",
    "retry",
    "webhook",
    "invoice",
    "parser",
    "config",
    "docker",
    "build",
    "lint",
    "schema",
    "index",
    "query",
    "latency",
    "memory",
    "leak",
    "refactor",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Client(threading.Thread):
    def __init__(self, port: int, token: str, args: argparse.Namespace, budget: Any) -> None:
        super().__init__(daemon=True)
        self.port, self.token, self.args, self.budget = port, token, args, budget
        self.rng = random.Random(args.seed + id(self) % 10_000)
        self.latency: dict[str, list[float]] = {"write": [], "retrieve": []}
        self.errors: list[str] = []
        self.acked: list[str] = []

    def request(self, conn: http.client.HTTPConnection, path: str, body: Any) -> Any:
        conn.request(
            "POST",
            path,
            body=json.dumps(body),
            headers={"authorization": f"Bearer {self.token}", "content-type": "application/json"},
        )
        response = conn.getresponse()
        data = json.loads(response.read())
        if response.status >= 300:
            raise RuntimeError(f"{path} {response.status} {data}")
        return data

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        deadline = time.monotonic() + self.args.seconds
        while time.monotonic() < deadline and self.budget.take():
            words = " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(3, 12)))
            write = self.rng.random() < self.args.write_share
            start = time.perf_counter()
            try:
                if write:
                    body = {"kind": "message", "content": words, "scope": {"repoId": REPO}}
                    self.acked.append(self.request(conn, "/v1/observations", body)["id"])
                else:
                    query = " ".join(words.split()[:3])
                    ask = {"query": query, "scope": {"repoId": REPO}, "max_candidates": 10}
                    self.request(conn, "/v1/retrieve", ask)
            except Exception as exc:  # counted and reported, never hidden
                self.errors.append(f"{type(exc).__name__}: {exc}"[:200])
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                continue
            self.latency["write" if write else "retrieve"].append(time.perf_counter() - start)
        conn.close()


class Budget:
    """At most ``n`` requests in all, across threads."""

    def __init__(self, n: int) -> None:
        self.left = n
        self.lock = threading.Lock()

    def take(self) -> bool:
        with self.lock:
            self.left -= 1
            return self.left >= 0


def kindling(db: str, *args: str) -> str:
    out = subprocess.run(
        [str(KINDLING), "--db", db, *args], capture_output=True, text=True, check=True
    )
    return out.stdout


def run(args: argparse.Namespace, db: str) -> dict[str, Any]:
    token = kindling(db, "token", "create", "--user", "bench", "--team", "bench").split()[-1]
    kindling(db, "token", "grant", "--team", "bench", "--repo", REPO)
    port = free_port()
    server = subprocess.Popen(
        [str(KINDLING), "--db", db, "serve", "--host", "127.0.0.1", "--port", str(port)],
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        budget = Budget(args.max_requests)
        clients = [Client(port, token, args, budget) for _ in range(args.clients)]
        started = time.perf_counter()
        for c in clients:
            c.start()
        for c in clients:
            c.join(args.seconds + 60)
        elapsed = time.perf_counter() - started
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
    acked = [i for c in clients for i in c.acked]
    with Kindling.open(db) as kd:
        found = kd.store.get_observations(acked)
    report: dict[str, Any] = {
        "clients": args.clients,
        "seconds": round(elapsed, 1),
        "requests": sum(len(v) for c in clients for v in c.latency.values()),
        "errors": sum(len(c.errors) for c in clients),
        "firstErrors": [e for c in clients for e in c.errors][:5],
        "acknowledgedWrites": len(acked),
        "lostWrites": len(set(acked) - set(found)),
    }
    report["throughputPerS"] = round(report["requests"] / elapsed, 1)
    for op in ("write", "retrieve"):
        ms = [x * 1000 for c in clients for x in c.latency[op]]
        report[op] = {
            "count": len(ms),
            "p50Ms": round(statistics.median(ms), 1) if ms else None,
            "p95Ms": round(pct(ms, 0.95), 1) if ms else None,
        }
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.server_load", description=__doc__)
    parser.add_argument("--db", help="SQLite path or postgresql:// URL (default: temp SQLite)")
    parser.add_argument("--schema", help="throw-away schema to create in a PostgreSQL --db")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--max-requests", type=int, default=200_000)
    parser.add_argument("--write-share", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "load.db")
        if args.schema and db.startswith("postgresql://"):
            with scratch_schema(db, args.schema) as url:
                report = run(args, url)
        else:
            report = run(args, db)
    print(json.dumps(report, indent=2))
    return 0 if report["errors"] == 0 and report["lostWrites"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

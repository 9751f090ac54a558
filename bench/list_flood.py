"""A list in a request body that repeats one id (issue 32): what it costs the server, and
another team meanwhile.

    python -m bench.list_flood [--db postgresql://postgres@127.0.0.1/test --schema kd_flood]

Starts ``kindling --db DB serve`` on 127.0.0.1 (a free port) with two teams. Team ``api`` (the
bystander) searches its repository in a loop, one request at a time: first alone, for
``--warmup`` seconds not counted (caches fill, the server settles), then for
``--idle-seconds`` (its idle p50/p95), then while team ``web`` (the flood) sends, back to back
(or ``--gap`` seconds apart), ``--rounds`` times each: a summary, a capsule close and an import
whose ``evidence_refs`` (and the import's capsule ``observationIds``) repeat one id
``--repeats`` times (100,000: about 4 MB, under the body cap), and a summary citing
``--repeats`` different ids (over the cap of distinct ids: a 400). Reports each flood
request's status and time, and the bystander's p50/p95 alone and during the flood, as JSON.
Without ``--db``: a fresh SQLite file in a temp directory. ``--schema NAME`` creates (and
afterwards drops) a throw-away schema on a PostgreSQL ``--db``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.pgschema import scratch_schema
from bench.server_load import free_port, kindling, pct

KINDLING = Path(sys.executable).with_name("kindling")
API_REPO, WEB_REPO = "/bench/api", "/bench/web"


def call(port: int, token: str, method: str, path: str, body: Any) -> tuple[int, Any, float]:
    """One request on a fresh connection: status, decoded answer, seconds (``body``: JSON, or
    bytes already encoded, so that this process's own work does not slow the bystander)."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    started = time.perf_counter()
    conn.request(
        method, path, data, {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    )
    response = conn.getresponse()
    answer = json.loads(response.read() or b"null")
    took = time.perf_counter() - started
    conn.close()
    return response.status, answer, took


class Bystander(threading.Thread):
    """Team api's searches, one after another, each timed with the phase it ran in."""

    def __init__(self, port: int, token: str) -> None:
        super().__init__(daemon=True)
        self.port, self.token = port, token
        self.phase = "warmup"
        self.stop = threading.Event()
        self.latency: dict[str, list[float]] = {"warmup": [], "idle": [], "flood": []}
        self.errors: list[str] = []

    def run(self) -> None:
        body = {"query": "login token cache", "scope": {"repoId": API_REPO}}
        while not self.stop.is_set():
            phase = self.phase
            status, answer, took = call(self.port, self.token, "POST", "/v1/retrieve", body)
            if status != 200:
                self.errors.append(f"{status} {answer}")
            elif phase == self.phase:  # a search that straddles two phases is not counted
                self.latency[phase].append(took)


def flood_bodies(port: int, token: str, repeats: int) -> list[tuple[str, str, Any]]:
    """The flood's requests: (label, path, body), each on capsules of its own."""
    scope = {"repoId": WEB_REPO}
    status, obs, _ = call(
        port,
        token,
        "POST",
        "/v1/observations",
        {"kind": "message", "content": "cited", "scope": scope},
    )
    assert status == 201, obs
    refs = [obs["id"]] * repeats

    def capsule() -> str:
        status, cap, _ = call(
            port,
            token,
            "POST",
            "/v1/capsules",
            {"intent": "flood", "scope": scope, "type": "pocketflow_node"},
        )
        assert status == 201, cap
        return str(cap["id"])

    stamp = time.time_ns()
    bundle = {
        "bundleVersion": "1.0",
        "exportedAt": 1,
        "dataset": {
            "version": "1.0",
            "scope": {},
            "observations": [],
            "capsules": [
                {
                    "id": f"flood-cap-{stamp}",
                    "type": "pocketflow_node",
                    "intent": "i",
                    "status": "open",
                    "openedAt": 1,
                    "scopeIds": scope,
                    "observationIds": refs,
                }
            ],
            "summaries": [
                {
                    "id": f"flood-sum-{stamp}",
                    "capsuleId": f"flood-cap-{stamp}",
                    "content": "s",
                    "confidence": 0.5,
                    "createdAt": 2,
                    "evidenceRefs": refs,
                }
            ],
            "pins": [],
        },
    }
    distinct = [f"obs-{n}" for n in range(repeats)]
    return [
        (
            "summary, one id repeated",
            "/v1/summaries",
            {"capsule_id": capsule(), "content": "s", "evidence_refs": refs},
        ),
        (
            "close, one id repeated",
            f"/v1/capsules/{capsule()}/close",
            {"summary": "s", "evidence_refs": refs},
        ),
        ("import, one id repeated", "/v1/import", bundle),
        (
            "summary, distinct ids",
            "/v1/summaries",
            {"capsule_id": capsule(), "content": "s", "evidence_refs": distinct},
        ),
    ]


def run(args: argparse.Namespace, db: str) -> dict[str, Any]:
    api = kindling(db, "token", "create", "--user", "ann", "--team", "api").split()[-1]
    web = kindling(db, "token", "create", "--user", "wes", "--team", "web").split()[-1]
    kindling(db, "token", "grant", "--team", "api", "--repo", API_REPO)
    kindling(db, "token", "grant", "--team", "web", "--repo", WEB_REPO)
    port = free_port()
    server = subprocess.Popen(
        [str(KINDLING), "--db", db, "serve", "--host", "127.0.0.1", "--port", str(port)],
        stderr=subprocess.DEVNULL,
    )
    flood: list[dict[str, Any]] = []
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        words = ["login", "token", "cache", "flaky", "deploy", "parser", "retry", "schema"]
        batch = [
            {
                "kind": "message",
                "content": f"{words[n % 8]} {words[(n * 3) % 8]} note {n}",
                "scope": {"repoId": API_REPO},
            }
            for n in range(2000)
        ]
        status, answer, _ = call(
            port, api, "POST", "/v1/observations/batch", {"observations": batch}
        )
        assert status == 201, answer
        bystander = Bystander(port, api)
        bystander.start()
        time.sleep(args.warmup)
        bystander.phase = "idle"
        time.sleep(args.idle_seconds)
        bodies = [
            [(label, path, json.dumps(body).encode()) for label, path, body in round_bodies]
            for round_bodies in (flood_bodies(port, web, args.repeats) for _ in range(args.rounds))
        ]
        bystander.phase = "flood"
        for round_bodies in bodies:
            for label, path, body in round_bodies:
                status, answer, took = call(port, web, "POST", path, body)
                time.sleep(args.gap)
                flood.append(
                    {
                        "request": label,
                        "status": status,
                        "seconds": round(took, 3),
                        "error": (answer or {}).get("error", {}).get("message", "")[:80]
                        if isinstance(answer, dict)
                        else "",
                    }
                )
        bystander.phase = "done"
        bystander.stop.set()
        bystander.join(60)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
    report: dict[str, Any] = {"repeats": args.repeats, "rounds": args.rounds, "flood": flood}
    for phase in ("idle", "flood"):
        ms = [x * 1000 for x in bystander.latency[phase]]
        report[f"bystander_{phase}"] = {
            "searches": len(ms),
            "p50Ms": round(pct(ms, 0.5), 1),
            "p95Ms": round(pct(ms, 0.95), 1),
        }
    idle = report["bystander_idle"]["p95Ms"] or 1.0
    report["bystander_p95_ratio"] = round(report["bystander_flood"]["p95Ms"] / idle, 2)
    report["slowest_flood_request_s"] = max(f["seconds"] for f in flood)
    report["bystander_errors"] = bystander.errors[:5]
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.list_flood", description=__doc__)
    parser.add_argument("--db", help="SQLite path or postgresql:// URL (default: temp SQLite)")
    parser.add_argument("--schema", help="throw-away schema to create in a PostgreSQL --db")
    parser.add_argument("--repeats", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds searched, not counted")
    parser.add_argument("--idle-seconds", type=float, default=5.0)
    parser.add_argument("--gap", type=float, default=0.0, help="seconds between flood requests")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "flood.db")
        if args.schema and db.startswith("postgresql://"):
            with scratch_schema(db, args.schema) as url:
                report = run(args, url)
        else:
            report = run(args, db)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

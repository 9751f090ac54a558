"""How soon ``kindling mcp`` lists its tools after it starts, against ``python -c pass`` (the
floor of any Python process) and the SDK answering alone (``KINDLING_MCP_FRONT=off``).

    python bench/mcp_start.py [--runs 10]

Each run starts the server, sends ``initialize``, ``notifications/initialized`` and
``tools/list``, and stops the clock at the tool list; then the first ``tools/call`` (``status``,
answered by the SDK, which the front hands the session to). Prints the median and the worst
of each, in seconds. Issue 34: the list must come within 0.5 s on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

KINDLING = str(Path(sys.executable).with_name("kindling"))
HELLO = {
    "protocolVersion": "2025-06-18",
    "capabilities": {},
    "clientInfo": {"name": "b", "version": "0"},
}


def one(env: dict[str, str]) -> tuple[float, float]:
    start = time.monotonic()
    proc = subprocess.Popen(
        [KINDLING, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
    )
    assert proc.stdin is not None
    assert proc.stdout is not None

    def rpc(message: dict[str, object]) -> None:
        assert proc.stdin is not None
        assert proc.stdout is not None
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
        proc.stdin.flush()
        if "id" in message:
            proc.stdout.readline()

    rpc({"id": 1, "method": "initialize", "params": HELLO})
    rpc({"method": "notifications/initialized"})
    rpc({"id": 2, "method": "tools/list"})
    listed = time.monotonic() - start
    rpc({"id": 3, "method": "tools/call", "params": {"name": "status", "arguments": {}}})
    called = time.monotonic() - start
    proc.stdin.close()
    proc.wait()
    proc.stdout.close()
    return listed, called


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    floor = []
    for _ in range(args.runs):
        start = time.monotonic()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        floor.append(time.monotonic() - start)
    rows = {"python -c pass": (floor, floor)}
    for label, extra in (("kindling mcp", {}), ("SDK alone", {"KINDLING_MCP_FRONT": "off"})):
        runs = [one({**os.environ, **extra}) for _ in range(args.runs)]
        rows[label] = ([r[0] for r in runs], [r[1] for r in runs])
    print(f"load average: {os.getloadavg()[0]:.1f}")
    print(f"{'':16} {'tools listed (median / worst)':32} first tools/call (median / worst)")
    for label, (listed, called) in rows.items():
        a = f"{statistics.median(listed):.3f} / {max(listed):.3f}"
        b = (
            f"{statistics.median(called):.3f} / {max(called):.3f}"
            if label != "python -c pass"
            else "-"
        )
        print(f"{label:16} {a:32} {b}")


if __name__ == "__main__":
    main()

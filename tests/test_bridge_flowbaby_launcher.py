"""``kindling-flowbaby-python``, the interpreter Flowbaby's ``pythonPath`` points at, driven
the way Flowbaby's client drives its own bridge (groupzer0/flowbaby, extension/src: the
daemon manager of v0.7.x, ``bridge/PythonBridgeDaemonManager.ts``, and ``runPythonScript``):

- v0.7.4 and v0.7.5 spawn ``PYTHON <ext>/bridge/daemon.py`` with ``FLOWBABY_WORKSPACE_PATH``
  set and the workspace as working directory, send ``health`` as the readiness handshake, then
  ``retrieve`` with ``query``, ``max_results``, ``max_tokens``, ``half_life_days``,
  ``include_superseded``, ``top_k`` and ``session_id``, one JSON-RPC 2.0 object per line;
- every version spawns ``PYTHON <ext>/bridge/retrieve.py ARGS`` in spawn mode;
- v0.7.x probe ``PYTHON -c "import cognee ..."`` before a spawn.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bridge_support import RETRIEVE, ingest_ok, make_env, retrieve, seed_filler

LAUNCHER = [sys.executable, "-m", "kindling.bridge.flowbaby"]


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    path = tmp_path / "workspace"
    path.mkdir()
    return path.resolve()


@pytest.fixture
def env(tmp_path: Path, ws: Path) -> dict[str, str]:
    env = make_env(tmp_path / "bridge.db")
    env["FLOWBABY_WORKSPACE_PATH"] = str(ws)
    env["FLOWBABY_DAEMON_MODE"] = "true"
    return env


def daemon(ws: Path, env: dict[str, str], *requests: Any) -> list[dict[str, Any]]:
    lines = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in requests)
    proc = subprocess.run(
        [*LAUNCHER, "/opt/flowbaby/extension/bridge/daemon.py"],
        input=lines.encode(),
        capture_output=True,
        cwd=ws,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.decode().splitlines()]


def rpc(request_id: str, method: str, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


def test_the_daemon_answers_health_and_retrieve_as_the_bridge_does(
    ws: Path, env: dict[str, str]
) -> None:
    seed_filler(Path(env["KINDLING_DB"]), ws)
    ids = [ingest_ok(ws, {"topic": f"release train step {i}"}, env=env) for i in range(3)]
    params = {
        "query": "release train",
        "max_results": 2,
        "max_tokens": 32000,
        "half_life_days": 7,
        "include_superseded": False,
        "top_k": 10,
        "session_id": "5f0c6f0e-8a1b-4f37-9a52-2c1d3e4f5a6b",
    }
    health, found, bye = daemon(
        ws, env, rpc("h1", "health"), rpc("r1", "retrieve", **params), rpc("s1", "shutdown")
    )
    assert (health["id"], health["result"]["status"]) == ("h1", "ok")
    assert found["id"] == "r1"
    RETRIEVE.validate(found["result"])
    assert found["result"]["success"] is True
    assert [r["id"] for r in found["result"]["results"]] == [
        r["id"] for r in retrieve(str(ws), "release train", "2", "32000", "7", "false", "10",
                                  env=env).out["results"]
    ]  # fmt: skip
    assert {r["id"] for r in found["result"]["results"]} <= set(ids)
    assert bye["result"] == {"status": "ok"}


def test_the_daemon_refuses_what_is_not_its_job_and_survives_bad_lines(
    ws: Path, env: dict[str, str]
) -> None:
    answers = daemon(
        ws,
        env,
        "not json",
        '["a list"]',
        rpc("i1", "ingest", mode="sync", summary_json="{}"),
        rpc("u1", "teleport"),
        {"jsonrpc": "2.0", "id": "p1", "method": "retrieve", "params": [1]},
        rpc("e1", "retrieve", query="   "),  # the bridge's own error
        rpc("h2", "health"),
    )
    codes = [a.get("error", {}).get("code") for a in answers]
    assert codes == [-32700, -32600, -32601, -32601, -32602, -32000, None]
    assert "kindling bridge ingest" in answers[2]["error"]["message"]
    assert answers[-1]["result"]["status"] == "ok"  # still serving
    assert all(a["jsonrpc"] == "2.0" for a in answers)


def test_spawn_mode_runs_retrieve_py_with_the_same_bytes(ws: Path, env: dict[str, str]) -> None:
    seed_filler(Path(env["KINDLING_DB"]), ws)
    ingest_ok(ws, {"topic": "cache invalidation"}, env=env)
    request = json.dumps({"workspace_path": str(ws), "query": "cache", "search_top_k": 10})
    proc = subprocess.run(
        [*LAUNCHER, "/opt/flowbaby/extension/bridge/retrieve.py", "--json", request],
        capture_output=True, cwd=ws, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == retrieve("--json", request, env=env).stdout


def test_the_cognee_probe_gets_a_true_answer(ws: Path, env: dict[str, str]) -> None:
    """Anything but a bridge script runs in this Python as it is: no Cognee here, so the
    v0.7.x probe (``-c``) reports it missing instead of pretending."""
    probe = (
        "import json\ntry:\n    import cognee\n    print(json.dumps({'cognee_importable': True}))"
        "\nexcept ImportError as e:\n    print(json.dumps({'cognee_importable': False}))"
    )
    proc = subprocess.run(
        [*LAUNCHER, "-c", probe], capture_output=True, env=env, timeout=60, check=False
    )
    assert json.loads(proc.stdout) == {"cognee_importable": False}

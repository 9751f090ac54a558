"""``kindling-flowbaby-python``, the interpreter Flowbaby's ``pythonPath`` points at, driven
the way Flowbaby's client drives its own bridge (groupzer0/flowbaby, extension/src: the
daemon manager of v0.7.x, ``bridge/PythonBridgeDaemonManager.ts``, and ``runPythonScript``):

- v0.7.4 and v0.7.5 spawn ``PYTHON <ext>/bridge/daemon.py`` with ``FLOWBABY_WORKSPACE_PATH``
  set and the workspace as working directory, send ``health`` as the readiness handshake, then
  ``retrieve`` with ``query``, ``max_results``, ``max_tokens``, ``half_life_days``,
  ``include_superseded``, ``top_k`` and ``session_id``, one JSON-RPC 2.0 object per line;
- every version spawns ``PYTHON <ext>/bridge/retrieve.py ARGS`` in spawn mode;
- v0.7.x send ``ingest`` to the daemon: ``summary_json`` (camelCase) or a conversation turn;
- v0.7.x probe ``PYTHON -c "import cognee ..."`` before a spawn.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.bridge import RETRIEVE, ingest_ok, make_env, retrieve, seed_filler

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
        rpc("i1", "cognify"),
        rpc("u1", "teleport"),
        {"jsonrpc": "2.0", "id": "p1", "method": "retrieve", "params": [1]},
        rpc("e1", "retrieve", query="   "),  # the bridge's own error
        rpc("h2", "health"),
    )
    codes = [a.get("error", {}).get("code") for a in answers]
    assert codes == [-32700, -32600, -32601, -32601, -32602, -32000, None]
    assert "Cognee's" in answers[2]["error"]["message"]
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


def test_the_daemon_stores_flowbabys_summaries_and_turns(ws: Path, env: dict[str, str]) -> None:
    summary = {
        "topic": "Plan 014 structured summaries",
        "context": "Migrating summaries to DataPoints",
        "decisions": ["Store summaries with metadata"],
        "rationale": [],
        "openQuestions": ["How to rank?"],
        "nextSteps": ["Implement Plan 015"],
        "references": [],
        "timeScope": "Nov 17 14:00-16:30",
        "topicId": "plan-014",
        "sessionId": None,
        "planId": "014",
        "status": "Active",
        "sourceCreatedAt": "2025-12-31T14:00:00.000Z",  # a day before NOW
        "createdAt": None,
        "updatedAt": None,
        "workspace_path": str(ws),
        "__user_session_id": "5f0c6f0e-8a1b-4f37-9a52-2c1d3e4f5a6b",
    }
    stored, turn, bad, found = daemon(
        ws,
        env,
        rpc("i1", "ingest", mode="sync", summary_json=json.dumps(summary), workspace_path=str(ws)),
        rpc("i2", "ingest", user_message="Where do tokens live?", assistant_message="In Redis.",
            importance=0.5, workspace_path=str(ws)),
        rpc("i3", "ingest", mode="sync", summary_json="[1]"),
        rpc("r1", "retrieve", query="structured summaries", max_results=3),
    )  # fmt: skip
    assert stored["result"]["success"] is True
    assert turn["result"]["success"] is True
    assert bad["error"]["code"] == -32000
    (hit,) = [r for r in found["result"]["results"] if r["id"] == stored["result"]["id"]]
    assert hit["topic"] == "Plan 014 structured summaries"
    assert hit["topic_id"] == "plan-014"
    assert hit["decisions"] == ["Store summaries with metadata"]
    words = daemon(ws, env, rpc("r2", "retrieve", query="Redis"))[0]["result"]["results"]
    assert [r["id"] for r in words] == [turn["result"]["id"]]

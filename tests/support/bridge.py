"""Helpers for the bridge tests: run the real commands, check every output against the schema."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

from jsonschema import Draft202012Validator

from tests.support.paths import ROOT

SCHEMA_PATH = ROOT / "docs" / "bridge.schema.json"
SCHEMA: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
BIN = Path(sys.executable).parent
NOW = 1_767_225_600_000  # 2026-01-01T00:00:00Z
DAY = 86_400_000


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator({**SCHEMA, "$ref": f"#/$defs/{name}"})


RETRIEVE = validator("retrieve_response")
INGEST = validator("ingest_response")
ERROR = validator("error_response")


@dataclass
class Run:
    out: dict[str, Any]
    code: int
    stdout: bytes
    stderr: str


def _run(argv: list[str], env: dict[str, str], stdin: bytes | None, cwd: Path | None) -> Run:
    proc = subprocess.run(
        argv, input=stdin or b"", capture_output=True, env=env, cwd=cwd, check=False
    )
    return _one_line(proc.stdout, proc.returncode, proc.stderr.decode("utf-8", "replace"))


def _one_line(stdout: bytes, code: int, stderr: str) -> Run:
    text = stdout.decode("utf-8")
    assert text.endswith("\n"), f"not one JSON line: {text!r}"
    assert text.count("\n") == 1, f"not one JSON line: {text!r}"
    out = json.loads(text)
    assert isinstance(out, dict)
    return Run(out, code, stdout, stderr)


def kindling(
    *args: str, env: dict[str, str], stdin: bytes | None = None, cwd: Path | None = None
) -> Run:
    return _run([str(BIN / "kindling"), *args], env, stdin, cwd)


def retrieve(*args: str, env: dict[str, str], cwd: Path | None = None) -> Run:
    """``kindling bridge retrieve``; every response must validate against the schema."""
    run = kindling("bridge", "retrieve", *args, env=env, cwd=cwd)
    RETRIEVE.validate(run.out)
    assert (run.code == 0) == run.out["success"]
    return run


def retrieve_module(*args: str, env: dict[str, str], cwd: Path | None = None) -> Run:
    """``python -m kindling.bridge.retrieve``."""
    run = _run([sys.executable, "-m", "kindling.bridge.retrieve", *args], env, None, cwd)
    RETRIEVE.validate(run.out)
    return run


def retrieve_module_here(*args: str, env: dict[str, str]) -> Run:
    """``python -m kindling.bridge.retrieve``'s ``main`` in this process, with ``env`` as the
    whole environment (the process form itself runs in the tests of the real commands)."""
    from kindling.bridge import retrieve as module

    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    stderr = io.StringIO()
    with (
        mock.patch.dict(os.environ, env, clear=True),
        contextlib.redirect_stdout(stdout),
        contextlib.redirect_stderr(stderr),
    ):
        code = module.main(list(args))
    stdout.flush()
    run = _one_line(stdout.buffer.getvalue(), code, stderr.getvalue())
    RETRIEVE.validate(run.out)
    return run


def ingest_raw_here(workspace: str | Path, raw: bytes, *, env: dict[str, str]) -> Run:
    """What ``kindling bridge ingest WORKSPACE`` does with ``raw`` on stdin, in this process:
    the bridge's handler and the same printing (``emit``)."""
    from kindling.bridge.handler import emit, run_ingest

    outcome = run_ingest(
        [str(workspace)], default_db=Path(env["KINDLING_DB"]), stdin=io.BytesIO(raw), env=env
    )
    stdout, stderr = io.BytesIO(), io.StringIO()
    code = emit(outcome, stdout, stderr)
    run = _one_line(stdout.getvalue(), code, stderr.getvalue())
    INGEST.validate(run.out)
    assert (run.code == 0) == run.out["success"]
    return run


def ingest(
    workspace: str | Path, memory: Any, *, env: dict[str, str], raw: bytes | None = None
) -> Run:
    payload = raw if raw is not None else json.dumps(memory).encode("utf-8")
    run = kindling("bridge", "ingest", str(workspace), env=env, stdin=payload)
    INGEST.validate(run.out)
    assert (run.code == 0) == run.out["success"]
    return run


def ingest_ok(workspace: str | Path, memory: Any, *, env: dict[str, str]) -> str:
    run = ingest(workspace, memory, env=env)
    assert run.code == 0, run.out
    memory_id: str = run.out["id"]
    return memory_id


def ingest_here(workspace: str | Path, memory: Any, *, env: dict[str, str]) -> str:
    """What ``kindling bridge ingest`` runs (the bridge's handler, with ``env`` and its
    ``KINDLING_DB``), in this process: for a test's set-up, where a process per memory would
    only repeat what the tests of the real command already check."""
    from kindling.bridge.handler import run_ingest

    payload = io.BytesIO(json.dumps(memory).encode("utf-8"))
    outcome = run_ingest(
        [str(workspace)], default_db=Path(env["KINDLING_DB"]), stdin=payload, env=env
    )
    assert outcome.exit_code == 0, outcome.body
    assert isinstance(outcome.body, dict)
    out = json.loads(json.dumps(outcome.body))
    INGEST.validate(out)
    memory_id: str = out["id"]
    return memory_id


def assert_error(run: Run, *, code: int, contains: str) -> None:
    ERROR.validate(run.out)
    assert run.code == code, run.out
    assert list(run.out)[:2] == ["success", "error"]
    assert run.out["results"] == []
    assert run.out["total_results"] == 0
    assert run.out["total_tokens"] == 0
    assert contains.lower() in run.out["error"].lower(), run.out["error"]
    assert run.stderr.startswith("kindling bridge: ")


def make_env(db: Path, now: int | None = NOW) -> dict[str, str]:
    env = dict(os.environ)
    env["KINDLING_DB"] = str(db)
    env.pop("KINDLING_NOW", None)
    if now is not None:
        env["KINDLING_NOW"] = str(now)
    return env


def summary_count(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        count: int = conn.execute("SELECT COUNT(*) FROM summaries").fetchone()[0]
    return count


FILLER = [
    "kubernetes helm chart upgrade rollback",
    "postgres vacuum autovacuum tuning",
    "css grid layout responsive breakpoints",
    "terraform state lock dynamodb",
    "redis eviction policy lru",
    "graphql schema stitching federation",
    "docker layer cache buildkit",
    "oauth pkce flow mobile",
]


def seed_filler(db: Path, workspace: str | Path) -> None:
    """Unrelated memories, so that query terms are rare and BM25 gives real relevance."""
    from kindling import Kindling

    with Kindling.open(db, clock=lambda: NOW) as kd:
        for text in FILLER:
            kd.add_memory(str(Path(workspace).resolve()), text)

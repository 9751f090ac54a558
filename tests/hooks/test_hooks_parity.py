"""The local and the remote mode share one mapping: the same event sequence, replayed once
against a local database and once through ``kindling serve``, stores the same records (kinds,
contents, provenance, the summary and its confidence, the closed capsule)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from kindling import Kindling, Scope
from tests.support.hooks import payload, run_hook
from tests.support.server import kindling, running_server

pytest.importorskip("uvicorn")

SESSION = "9f1c2a7e-5b3d-4c8e-a1f0-2d6b8e4c3a10"
EVENTS: list[tuple[str, str, dict[str, Any]]] = [
    ("SessionStart", "session_start", {}),
    ("UserPromptSubmit", "user_prompt_submit", {}),
    ("PostToolUse", "post_tool_use_bash", {}),
    ("PostToolUse", "post_tool_use_edit", {}),
    ("PostToolUseFailure", "post_tool_use_failure", {}),
    ("PostCompact", "post_compact", {}),
    ("SubagentStop", "subagent_stop", {}),
    ("StopFailure", "stop_failure", {}),
    ("Stop", "stop", {"last_assistant_message": "API Error: 400 bad request"}),
    ("Stop", "stop", {}),
    ("SessionEnd", "session_end", {}),
]


def replay(repo: Path) -> None:
    for event, name, extra in EVENTS:
        proc = run_hook(event, payload(name, repo, **extra))
        assert proc.returncode == 0, proc.stderr
    log = Path(os.environ["KINDLING_HOME"]) / "hooks.log"
    assert not log.exists(), log.read_text(encoding="utf-8")


def snapshot(db: str) -> dict[str, Any]:
    with Kindling.open(db) as kd:
        obs = kd.list_observations(scope=Scope(session_id=SESSION), limit=100)
        [capsule] = kd.list_capsules(scope=Scope(session_id=SESSION), limit=10)
        summary = kd.get_summary(capsule.summary_id) if capsule.summary_id else None
    return {
        "observations": sorted(
            (o.kind, o.content, json.dumps(o.provenance, sort_keys=True)) for o in obs
        ),
        "joined": sorted(capsule.observation_ids) == sorted(o.id for o in obs),
        "status": capsule.status,
        "intent": capsule.intent,
        "summary": (summary.content, summary.confidence) if summary else None,
    }


def test_local_and_remote_store_the_same_records(
    git_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    replay(git_repo)
    local = snapshot(os.environ["KINDLING_DB"])

    remote_db = str(tmp_path / "server.db")
    token = kindling(remote_db, "token", "create", "--user", "alice").stdout.split()[-1]
    monkeypatch.setenv("KINDLING_HOME", str(tmp_path / "client-home"))
    monkeypatch.setenv("KINDLING_TOKEN", token)
    with running_server(remote_db) as (url, _proc):
        monkeypatch.setenv("KINDLING_URL", url)
        replay(git_repo)
    remote = snapshot(remote_db)

    assert local["observations"], local
    assert remote == local
    assert local["status"] == "closed"
    assert local["joined"] is True
    assert local["summary"][1] == 0.4  # one confidence for a summary, whichever the mode
    assert not local["summary"][0].startswith("API Error")
    kinds = [kind for kind, _, _ in local["observations"]]
    assert "error" in kinds  # the StopFailure, in both modes

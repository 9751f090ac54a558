"""Read the quality set (histories and judged queries) into typed values and corpus records.

Histories are JSON: capsules with an ISO ``opened_at``, observations whose ``t`` is minutes
after that, an optional ``close`` (with an optional summary), an optional ``summary`` for a
capsule left open, and pins. They become the same records the synthetic corpus yields, so one
loader serves both.

Must not import Kindling.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.corpus import (
    CapsuleRecord,
    CloseRecord,
    ObservationRecord,
    PinRecord,
    Record,
    SummaryRecord,
)

HERE = Path(__file__).resolve().parent
HISTORIES = HERE / "histories"
QUERIES = HERE / "queries.json"
MINUTE_MS = 60_000


def iso_ms(text: str) -> int:
    """``2025-03-03T09:00:00Z`` -> epoch milliseconds."""
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


@dataclass(frozen=True, slots=True)
class History:
    name: str
    repo_id: str
    records: tuple[Record, ...]
    # judged summary id (e.g. "pay-3-sum") -> the key of the capsule it summarises
    summary_capsules: dict[str, str]
    # every judged id -> (repo_id, session_id), to check judgements against query scopes
    entity_scopes: dict[str, tuple[str, str]]


@dataclass(frozen=True, slots=True)
class JudgedQuery:
    id: str
    cls: str
    text: str
    repo_id: str | None
    session_id: str | None
    now: int
    qrels: dict[str, int]
    note: str = ""


def read_history(path: Path) -> History:
    doc = json.loads(path.read_text(encoding="utf-8"))
    repo = doc["repo_id"]
    records: list[Record] = []
    summaries: dict[str, str] = {}
    scopes: dict[str, tuple[str, str]] = {}
    for cap in doc["capsules"]:
        key, session = cap["id"], cap["session_id"]
        opened = iso_ms(cap["opened_at"])
        records.append(CapsuleRecord(key, cap["type"], cap["intent"], session, repo, opened))
        for obs in cap["observations"]:
            records.append(_observation(obs, opened, session, repo, key))
            scopes[obs["id"]] = (repo, session)
        close: dict[str, Any] | None = cap.get("close")
        open_summary: dict[str, Any] | None = cap.get("summary")
        if open_summary is not None:
            records.append(
                SummaryRecord(
                    key,
                    opened + open_summary["t"] * MINUTE_MS,
                    open_summary["content"],
                    open_summary["confidence"],
                    tuple(open_summary["evidence"]),
                )
            )
            summaries[open_summary["id"]] = key
            scopes[open_summary["id"]] = (repo, session)
        if close is not None:
            summary = close.get("summary")
            records.append(
                CloseRecord(
                    key,
                    opened + close["t"] * MINUTE_MS,
                    summary["content"] if summary else None,
                    summary["confidence"] if summary else None,
                    tuple(summary["evidence"]) if summary else (),
                )
            )
            if summary:
                summaries[summary["id"]] = key
                scopes[summary["id"]] = (repo, session)
    for pin in doc.get("pins", []):
        expires = pin.get("expires_at")
        records.append(
            PinRecord(
                pin["target"],
                pin["reason"],
                iso_ms(pin["at"]),
                iso_ms(expires) if expires else None,
            )
        )
    return History(doc["name"], repo, tuple(records), summaries, scopes)


def _observation(
    obs: dict[str, Any], opened: int, session: str, repo: str, key: str
) -> ObservationRecord:
    return ObservationRecord(
        id=obs["id"],
        kind=obs["kind"],
        content=obs["content"],
        provenance=obs.get("provenance", {}),
        ts=opened + obs["t"] * MINUTE_MS,
        session_id=session,
        repo_id=repo,
        capsule_key=key,
    )


def read_histories(directory: Path = HISTORIES) -> list[History]:
    return [read_history(p) for p in sorted(directory.glob("*.json"))]


def all_records(histories: list[History]) -> list[Record]:
    """Every history's records, history by history. Timestamps are explicit, so the order
    only decides rowids, never a score."""
    return [r for h in histories for r in h.records]


def read_queries(path: Path = QUERIES) -> list[JudgedQuery]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    default_now = iso_ms(doc["default_now"])
    out = []
    for q in doc["queries"]:
        scope = q.get("scope", {})
        out.append(
            JudgedQuery(
                id=q["id"],
                cls=q["class"],
                text=q["query"],
                repo_id=scope.get("repoId"),
                session_id=scope.get("sessionId"),
                now=iso_ms(q["now"]) if "now" in q else default_now,
                qrels={k: int(v) for k, v in q["qrels"].items()},
                note=q.get("note", ""),
            )
        )
    return out

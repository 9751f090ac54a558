"""Read the committed coding-session set (``data/*.jsonl.gz``) into corpus records and judged
queries. No network, no mirrors: this is all the harness and the tests need.

Must import Kindling's hook helpers only (the session intent the hooks write).
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.corpus import CapsuleRecord, CloseRecord, ObservationRecord, Record
from bench.quality.dataset import JudgedQuery
from kindling.agents.events import DEFAULT_LABEL
from kindling.hooks.capture import SUMMARY_CONFIDENCE, session_intent

DATA = Path(__file__).resolve().parent / "data"
DAY_MS = 86_400_000
SPLITS = ("tune", "heldout")


def read_jsonl(name: str, directory: Path = DATA) -> list[dict[str, Any]]:
    with gzip.open(directory / name, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@dataclass(frozen=True, slots=True)
class CodingSet:
    sessions: list[dict[str, Any]]
    observations: list[dict[str, Any]]
    questions: list[dict[str, Any]]

    def split(self, name: str, limit: int | None = None) -> CodingSet:
        """The sessions of one split (``limit`` of them, evenly spaced in the committed order,
        so that every source is in), their observations and their questions."""
        sessions = [s for s in self.sessions if s["split"] == name]
        if limit is not None and limit < len(sessions):
            sessions = [sessions[i * len(sessions) // limit] for i in range(limit)]
        ids = {s["session_id"] for s in sessions}
        return CodingSet(
            sessions,
            [o for o in self.observations if o["session_id"] in ids],
            [q for q in self.questions if q["session_id"] in ids],
        )

    def by_session(self) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {s["session_id"]: [] for s in self.sessions}
        for o in self.observations:
            out[o["session_id"]].append(o)
        return out

    def last_event(self) -> int:
        return int(max(s["closed_at"] for s in self.sessions))


def load_set(directory: Path = DATA) -> CodingSet:
    return CodingSet(
        read_jsonl("sessions.jsonl.gz", directory),
        read_jsonl("observations.jsonl.gz", directory),
        read_jsonl("questions.jsonl.gz", directory),
    )


def capsule_key(session: dict[str, Any]) -> str:
    return f"cap-{session['short']}"


def records(cs: CodingSet) -> list[Record]:
    """One open-then-closed session capsule per trajectory (the hooks' intent; the agent's last
    words as the summary SessionEnd writes), its observations in between."""
    by_session = cs.by_session()
    out: list[Record] = []
    for s in cs.sessions:
        key, sid, repo = capsule_key(s), s["session_id"], s["repo_id"]
        out.append(
            CapsuleRecord(
                key, "session", session_intent(repo, DEFAULT_LABEL), sid, repo, s["opened_at"]
            )
        )
        for o in by_session[sid]:
            out.append(
                ObservationRecord(
                    o["id"], o["kind"], o["content"], o["provenance"], o["ts"], sid, repo, key
                )
            )
        summary = s["summary"].strip() or None
        out.append(
            CloseRecord(key, s["closed_at"], summary, SUMMARY_CONFIDENCE if summary else None)
        )
    return out


def judged(cs: CodingSet, now: int | None = None) -> list[JudgedQuery]:
    """The questions, repository-scoped, asked a day after the last event of ``cs``."""
    when = cs.last_event() + DAY_MS if now is None else now
    return [
        JudgedQuery(
            q["id"],
            q["class"],
            q["text"],
            q["repo_id"],
            None,
            when,
            dict.fromkeys(q["evidence"], 2),
            note=q["phrasing"],
        )
        for q in cs.questions
    ]

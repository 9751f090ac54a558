"""The free-question set's store and questions.

The store is the coding set's sessions (``bench/quality/coding/data``) and this set's extra
sessions (``data/extra_*.jsonl.gz``, ``build.py``). Questions were written on two groups of
sessions, split by source so that no source is in both parts:

- ``tune``: the agent-consistency study's bash agent (Claude Sonnet 4.5, Llama 3.1 70B, GPT-5),
  ten astropy tasks, each worked on by all three models;
- ``heldout``: SWE-agent runs (SWE-agent 1.0.1 with several models, SWE-agent 0.x/1.x
  demonstrations), ten repositories.

Every other session (the coding set's tuning split) is in the store as a distractor and may
hold answers, but no question was written from it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.quality.coding.data import CodingSet, load_set, read_jsonl

DATA = Path(__file__).resolve().parent / "data"
QUESTIONS = DATA / "questions.jsonl"
PARTS = ("tune", "heldout")
CONSISTENCY = "amanmehta-maniac/agent-consistency"


@dataclass(frozen=True, slots=True)
class FreeStore:
    sessions: list[dict[str, Any]]
    observations: list[dict[str, Any]]

    def by_session(self) -> dict[str, list[dict[str, Any]]]:
        return CodingSet(self.sessions, self.observations, []).by_session()

    @staticmethod
    def part_of(session: dict[str, Any]) -> str:
        """``tune`` or ``heldout`` for a session questions were written on, else ``store``."""
        if session["source"].startswith(CONSISTENCY):
            return "tune"
        return "heldout" if session["split"] == "heldout" else "store"

    def as_coding_set(self) -> CodingSet:
        return CodingSet(self.sessions, self.observations, [])


def load_store() -> FreeStore:
    coding = load_set()
    return FreeStore(
        coding.sessions + read_jsonl("extra_sessions.jsonl.gz", DATA),
        coding.observations + read_jsonl("extra_observations.jsonl.gz", DATA),
    )


def load_questions(path: Path = QUESTIONS) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]

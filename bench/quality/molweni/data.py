"""The Molweni conversation set's store and questions (``build.py`` writes them; README.md)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from bench.corpus import CapsuleRecord, CloseRecord, ObservationRecord, Record
from bench.quality.dataset import JudgedQuery
from bench.quality.free.harness import Question

DATA = Path(__file__).resolve().parent / "data"
REPO = "ubuntu-irc"
START_MS = 1_735_689_600_000  # 2025-01-01
DAY_MS = 86_400_000
MINUTE_MS = 60_000
HOUR_MS = 3_600_000


def load_utterances() -> list[dict[str, Any]]:
    with gzip.open(DATA / "utterances.jsonl.gz", "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def load_questions() -> list[dict[str, Any]]:
    with open(DATA / "questions.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _ts(utterance: dict[str, Any]) -> int:
    n = int(utterance["id"].rsplit("-", 1)[1])
    return START_MS + int(utterance["dialogue"]) * DAY_MS + (n + 1) * MINUTE_MS


def records() -> list[Record]:
    """One session capsule per chat, its utterances as messages a minute apart."""
    out: list[Record] = []
    by_chat: dict[int, list[dict[str, Any]]] = {}
    for u in load_utterances():
        by_chat.setdefault(u["dialogue"], []).append(u)
    for d, chat in sorted(by_chat.items()):
        sid, key = f"chat-{d:03d}", f"cap-chat-{d:03d}"
        opened = START_MS + d * DAY_MS
        out.append(CapsuleRecord(key, "session", "ubuntu help channel", sid, REPO, opened))
        for u in chat:
            content = f"{u['speaker']}: {u['text']}"
            out.append(ObservationRecord(u["id"], "message", content, {}, _ts(u), sid, REPO, key))
        out.append(CloseRecord(key, _ts(chat[-1]) + MINUTE_MS, None, None))
    return out


def questions() -> list[Question]:
    now = max(_ts(u) for u in load_utterances()) + HOUR_MS
    return [
        Question(
            JudgedQuery(q["id"], "conversation", q["text"], REPO, None, now, q["relevant"]),
            "conversation",
            q["part"],
            f"chat-{q['dialogue']:03d}",
        )
        for q in load_questions()
    ]

"""Regenerate the Molweni conversation set from a fetched mirror of ``HIT-SCIR/Molweni``
(Apache-2.0): ``python -m bench.quality.molweni.build``; needs
``/work/.mirror/HIT-SCIR+Molweni`` (the harness reads only ``data/``).

Molweni's MRC test split (``MRC(withDiscourse)/test.json``, the only split in the repository's
snapshot): 100 Ubuntu IRC chats of 7-14 utterances ("EDUs", each with its speaker), and
questions written by its annotators on each chat, each answered by a span of one utterance.
What is kept:

- every utterance, as the observation ``speaker: text`` of the chat's session;
- of each chat's answerable questions, up to ``PER_DIALOGUE`` distinct ones (compared lower-
  cased), chosen by the sha256 of their Molweni id (no look at their words or at any ranking);
  its judgment: the utterance holding the answer span (grade 2);
- the part: ``tune`` for chats 0, 2, 4, ..., ``heldout`` for 1, 3, 5, ... (split by source: no
  chat has questions in both parts).

``questions.jsonl`` is written once and frozen (its sha256 is in README.md).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
MIRROR = Path("/work/.mirror/HIT-SCIR+Molweni/repo")
COMMIT = "2eb681d7e610ee3fda4ab3b4cc364554bd17ee67"
SOURCE = "MRC(withDiscourse)/test.json"
PER_DIALOGUE = 6


def read_source() -> list[dict[str, Any]]:
    raw = subprocess.run(
        ["git", "-C", str(MIRROR), "show", f"{COMMIT}:{SOURCE}"],
        capture_output=True,
        check=True,
    ).stdout
    return list(json.loads(raw)["data"]["dialogues"])


def answer_edu(dialogue: dict[str, Any], start: int) -> int:
    """The utterance whose ``speaker: text`` span of the lower-cased context holds ``start``
    (Molweni's context is those spans joined by one space)."""
    at = 0
    for n, edu in enumerate(dialogue["edus"]):
        span = f"{edu['speaker'].lower()}: {edu['text'].lower()}"
        if start < at + len(span):
            return n
        at += len(span) + 1
    raise ValueError(f"answer start {start} is past the context")


def build() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    utterances, questions = [], []
    for d, dialogue in enumerate(read_source()):
        for n, edu in enumerate(dialogue["edus"]):
            utterances.append(
                {
                    "id": f"mol-{d:03d}-{n:02d}",
                    "dialogue": d,
                    "speaker": edu["speaker"],
                    "text": edu["text"],
                }
            )
        seen: set[str] = set()
        kept = 0
        qas = sorted(dialogue["qas"], key=lambda q: hashlib.sha256(q["id"].encode()).hexdigest())
        for q in qas:
            text = " ".join(q["question"].split())
            if q["is_impossible"] or not q["answers"] or text.lower() in seen:
                continue
            seen.add(text.lower())
            edus = sorted({answer_edu(dialogue, a["answer_start"]) for a in q["answers"]})
            questions.append(
                {
                    "id": q["id"],
                    "dialogue": d,
                    "part": "tune" if d % 2 == 0 else "heldout",
                    "text": text,
                    "relevant": {f"mol-{d:03d}-{n:02d}": 2 for n in edus},
                }
            )
            kept += 1
            if kept == PER_DIALOGUE:
                break
    return utterances, questions


def main() -> int:
    utterances, questions = build()
    DATA.mkdir(exist_ok=True)
    body = "".join(json.dumps(u, sort_keys=True) + "\n" for u in utterances).encode()
    (DATA / "utterances.jsonl.gz").write_bytes(gzip.compress(body, mtime=0))  # byte for byte
    target = DATA / "questions.jsonl"
    lines = "".join(json.dumps(q, sort_keys=True) + "\n" for q in questions)
    if target.exists() and target.read_text(encoding="utf-8") != lines:
        print(f"{target} is frozen and differs from a rebuild: not overwritten", file=sys.stderr)
        return 1
    target.write_text(lines, encoding="utf-8")
    print(f"{len(utterances)} utterances, {len(questions)} questions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

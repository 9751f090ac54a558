"""Score three retrievers on the coding-session set, in one harness and one run:

- ``kindling``: ``Kindling.retrieve()``'s candidates, repository-scoped, at the set's ``now``;
- ``fts``: the bare FTS5 OR query with stop words dropped (``bench.quality.evaluate.PlainFts``);
- ``random``: the right session, then its steps in a seeded random order (knows the answer's
  session, nothing else: what finding the episode alone is worth).

Measures: R@5, R@10, nDCG@10, MRR (ir-measures, as ``bench.quality``) and ``S@5``, the share of
questions whose session has an item in the top 5; overall, by class and by phrasing. ``small``
mode asks each session's questions of a store that holds that session alone; ``mixed`` asks
each split's questions of one store that holds both splits.

Must import Kindling's public API only.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.quality.coding.data import CodingSet, capsule_key, judged, records
from bench.quality.coding.rules import summary_ref
from bench.quality.dataset import JudgedQuery
from bench.quality.evaluate import MEASURES, PlainFts, QueryOutcome, build_store, evaluate
from kindling import Kindling

SEED = 23
RETRIEVERS = ("kindling", "fts", "random")
CLASSES = ("fix", "error", "check", "decision", "location")
PHRASINGS = ("full", "short", "para")
Scored = tuple[QueryOutcome, str]  # an outcome and the session of its answer


def summary_names(kd: Kindling, cs: CodingSet) -> dict[str, str]:
    """Store summary id -> its judged id (``summary:t013``)."""
    names = {}
    for s in cs.sessions:
        summary = kd.get_capsule(capsule_key(s)).summary_id
        if summary is not None:
            names[summary] = summary_ref(s)
    return names


def _owners(cs: CodingSet) -> dict[str, str]:
    """Every judged id a list may hold (observations, session summaries) -> its session."""
    owner = {o["id"]: o["session_id"] for o in cs.observations}
    owner.update((summary_ref(s), s["session_id"]) for s in cs.sessions if s["summary"].strip())
    return owner


def random_step(cs: CodingSet, seed: int = SEED) -> Callable[[JudgedQuery], tuple[list[str], None]]:
    pools = {sid: [o["id"] for o in steps] for sid, steps in cs.by_session().items()}
    for s in cs.sessions:
        if s["summary"].strip():
            pools[s["session_id"]].append(summary_ref(s))
    session_of = {q["id"]: q["session_id"] for q in cs.questions}

    def rank(q: JudgedQuery) -> tuple[list[str], None]:
        ids = list(pools[session_of[q.id]])
        random.Random(f"{seed}:{q.id}").shuffle(ids)
        return ids, None

    return rank


# ``Kindling.open`` keyword arguments of the kindling retriever (``--set`` gives it weights).
OPEN_KWARGS: dict[str, Any] = {}


def score_store(cs: CodingSet, path: Path, seed: int = SEED) -> dict[str, list[Scored]]:
    """Load ``cs`` into a new store at ``path``; run every retriever on its questions."""
    kd, _ = build_store(path, records(cs), **OPEN_KWARGS)
    plain = PlainFts(path)
    try:
        qs = judged(cs)
        owner = _owners(cs)
        names = summary_names(kd, cs)
        reports = {
            "kindling": evaluate(kd, names, qs, tiers=False),
            "fts": evaluate(kd, names, qs, ranker=plain.rank),
            "random": evaluate(kd, names, qs, ranker=random_step(cs, seed)),
        }
        session_of = {q["id"]: q["session_id"] for q in cs.questions}
        out: dict[str, list[Scored]] = {}
        for name, report in reports.items():
            out[name] = []
            for o in report.outcomes:
                sid = session_of[o.query.id]
                top5 = any(owner.get(i) == sid for i in o.ranked[:5])
                o.scores["S@5"] = 1.0 if top5 else 0.0
                out[name].append((o, sid))
        return out
    finally:
        plain.close()
        kd.close()


def _mean(items: Sequence[Scored]) -> dict[str, float]:
    n = max(1, len(items))
    return {m: round(sum(o.scores[m] for o, _ in items) / n, 4) for m in [*MEASURES, "S@5"]}


def summarise(scored: Sequence[Scored]) -> dict[str, Any]:
    by_class: dict[str, list[Scored]] = defaultdict(list)
    by_phrasing: dict[str, list[Scored]] = defaultdict(list)
    for item in scored:
        by_class[item[0].query.cls].append(item)
        by_phrasing[item[0].query.note].append(item)
    return {
        "overall": _mean(scored),
        "byClass": {c: _mean(by_class[c]) for c in CLASSES if by_class[c]},
        "byPhrasing": {p: _mean(by_phrasing[p]) for p in PHRASINGS if by_phrasing[p]},
        "counts": {
            "all": len(scored),
            **{c: len(by_class[c]) for c in CLASSES},
            **{p: len(by_phrasing[p]) for p in PHRASINGS},
        },
    }


def run_split(cs: CodingSet, *, small: bool = False, seed: int = SEED) -> dict[str, Any]:
    """Each retriever's summary on one split: one store holding the whole split, or (small)
    one store per session."""
    start = time.perf_counter()
    scored: dict[str, list[Scored]] = {r: [] for r in RETRIEVERS}
    with tempfile.TemporaryDirectory() as tmp:
        if small:
            for n, s in enumerate(cs.sessions):
                one = CodingSet(
                    [s],
                    [o for o in cs.observations if o["session_id"] == s["session_id"]],
                    [q for q in cs.questions if q["session_id"] == s["session_id"]],
                )
                if not one.questions:
                    continue
                for name, items in score_store(one, Path(tmp) / f"s{n}.db", seed).items():
                    scored[name].extend(items)
        else:
            scored = score_store(cs, Path(tmp) / "coding.db", seed)
    return {
        "mode": "small" if small else "store",
        "sessions": len(cs.sessions),
        "observations": len(cs.observations),
        "questions": len(cs.questions),
        "seconds": round(time.perf_counter() - start, 2),
        "retrievers": {name: summarise(items) for name, items in scored.items()},
        "outcomes": scored,
    }


def run_mixed(cs: CodingSet, *, seed: int = SEED) -> dict[str, dict[str, Any]]:
    """One store holding every split's sessions; each split's questions scored there, so a
    held-out question competes with the tuning sessions too (more distractors per repository
    than its own split's store has). Keyed by split, shaped as ``run_split``'s result."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        scored = score_store(cs, Path(tmp) / "mixed.db", seed)
    seconds = round(time.perf_counter() - start, 2)
    split_of = {s["session_id"]: s["split"] for s in cs.sessions}
    out: dict[str, dict[str, Any]] = {}
    for split in sorted(set(split_of.values())):
        part = {
            name: [x for x in items if split_of[x[1]] == split] for name, items in scored.items()
        }
        out[split] = {
            "mode": "mixed",
            "sessions": len(cs.sessions),
            "observations": len(cs.observations),
            "questions": sum(1 for q in cs.questions if split_of[q["session_id"]] == split),
            "seconds": seconds,
            "retrievers": {name: summarise(items) for name, items in part.items()},
            "outcomes": part,
        }
    return out


def per_question(scored: dict[str, list[Scored]]) -> list[dict[str, Any]]:
    """One row per question: its text, class, phrasing, session and evidence, and for each
    retriever the rank of its first evidence item (None: not in the list) and its top 10."""
    rows: dict[str, dict[str, Any]] = {}
    for name, items in scored.items():
        for o, sid in items:
            q = o.query
            row = rows.setdefault(
                q.id,
                {
                    "id": q.id,
                    "class": q.cls,
                    "phrasing": q.note,
                    "text": q.text,
                    "sessionId": sid,
                    "repoId": q.repo_id,
                    "evidence": sorted(q.qrels),
                    "retrievers": {},
                },
            )
            row["retrievers"][name] = {
                "firstAnswerRank": o.first_relevant(),
                "top10": list(o.ranked[:10]),
            }
    return list(rows.values())


def table(result: dict[str, Any]) -> str:
    """One markdown row per retriever: R@10 overall, by class, by phrasing; then R@5, MRR, S@5."""
    cols = ["all", *CLASSES, *PHRASINGS]
    head = "| retriever | " + " | ".join(f"R@10 {c}" for c in cols) + " | R@5 | MRR | S@5 |"
    rule = "| --- |" + " ---: |" * (len(cols) + 3)
    counts = next(iter(result["retrievers"].values()))["counts"]
    lines = [
        head,
        rule,
        "| (questions) | " + " | ".join(str(counts.get(c, 0)) for c in cols) + " | | | |",
    ]
    for name, summary in result["retrievers"].items():
        cells = [summary["overall"]["R@10"]]
        cells += [summary["byClass"].get(c, {}).get("R@10", float("nan")) for c in CLASSES]
        cells += [summary["byPhrasing"].get(p, {}).get("R@10", float("nan")) for p in PHRASINGS]
        cells += [summary["overall"][m] for m in ("R@5", "MRR", "S@5")]
        lines.append(f"| {name} | " + " | ".join(f"{v:.3f}" for v in cells) + " |")
    return "\n".join(lines)

"""Score retrievers on the free-question set, in one harness and one run, on one store (the
coding set's sessions and this set's extra sessions, 173 in all):

- ``kindling``: ``Kindling.retrieve()``'s candidates, repository-scoped, at the question's
  ``now``;
- ``fts``: the bare FTS5 OR query with stop words dropped (``evaluate.PlainFts``), restricted
  to what was recorded by ``now``, as every retriever here is;
- ``bm25``: Okapi BM25 (k1 1.2, b 0.75) over the observations' and summaries' own text in the
  question's repository up to ``now``, words as ``[^\\W_]+`` lower-cased, stop words dropped.

``now``: a question about a session is asked two weeks after it closed; a cross-session
question one minute after the asking session opened. Judged items recorded after ``now`` are
out of its judgments (none can be returned).

Measures (ir-measures): R@10, R@10 on grade-2 items only (``R2@10``), nDCG@10, MRR, R@5;
overall and by kind, for each part (``tune``, ``heldout``).

Must import Kindling's public API only (and the bench's own modules).
"""

from __future__ import annotations

import math
import re
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ir_measures
from ir_measures import RR, R, nDCG

from bench.quality.coding.data import records
from bench.quality.coding.harness import summary_names
from bench.quality.coding.rules import summary_ref
from bench.quality.dataset import JudgedQuery
from bench.quality.evaluate import PlainFts, build_store
from bench.quality.free.data import PARTS, FreeStore, load_questions, load_store
from kindling import Kindling, Scope
from kindling.retrieval.scoring import ScoringWeights
from kindling.store.fts import STOPWORDS

DAY_MS = 86_400_000
LATER_MS = 14 * DAY_MS
ASKED_AFTER_OPEN_MS = 60_000
KINDS = ("fix", "root-cause", "error", "how-to", "location", "dead-end", "cross-session")
MEASURES = {"R@10": R @ 10, "R2@10": R(rel=2) @ 10, "nDCG@10": nDCG @ 10, "MRR": RR, "R@5": R @ 5}
DEPTH = 50
Ranker = Callable[[JudgedQuery], list[str]]


@dataclass(frozen=True, slots=True)
class Question:
    judged: JudgedQuery
    kind: str
    part: str
    session: str


def _times(store: FreeStore) -> dict[str, int]:
    """Judged id -> when it was recorded."""
    out = {o["id"]: o["ts"] for o in store.observations}
    out.update((summary_ref(s), s["closed_at"]) for s in store.sessions if s["summary"].strip())
    return out


def questions(store: FreeStore, rows: Sequence[dict[str, Any]]) -> list[Question]:
    sessions = {s["short"]: s for s in store.sessions}
    when = _times(store)
    out = []
    for q in rows:
        s = sessions[q["session"]]
        asked = q.get("asked_from")
        now = (
            sessions[asked]["opened_at"] + ASKED_AFTER_OPEN_MS
            if asked
            else s["closed_at"] + LATER_MS
        )
        qrels = {i: int(g) for i, g in q["relevant"].items() if when.get(i, now + 1) <= now}
        if not any(g >= 2 for g in qrels.values()):
            continue  # every answer was recorded after the question was asked
        judged = JudgedQuery(q["id"], q["kind"], q["text"], s["repo_id"], None, now, qrels)
        out.append(Question(judged, q["kind"], store.part_of(s), q["session"]))
    return out


class Bm25:
    """Okapi BM25 over own text, per repository, up to the question's ``now``."""

    K1, B = 1.2, 0.75
    _WORD = re.compile(r"[^\W_]+")

    def __init__(self, store: FreeStore) -> None:
        self.docs: dict[str, list[tuple[str, int, Counter[str], int]]] = defaultdict(list)
        for o in store.observations:
            self._add(o["repo_id"], o["id"], o["ts"], o["content"])
        for s in store.sessions:
            if s["summary"].strip():
                self._add(s["repo_id"], summary_ref(s), s["closed_at"], s["summary"])

    def _words(self, text: str) -> list[str]:
        return [w for w in self._WORD.findall(text.lower()) if w not in STOPWORDS]

    def _add(self, repo: str, doc: str, ts: int, text: str) -> None:
        words = self._words(text)
        self.docs[repo].append((doc, ts, Counter(words), len(words)))

    def rank(self, q: JudgedQuery) -> list[str]:
        terms = list(dict.fromkeys(self._words(q.text)))
        docs = [d for d in self.docs[q.repo_id or ""] if d[1] <= q.now]
        if not terms or not docs:
            return []
        avg = sum(d[3] for d in docs) / len(docs)
        df = {t: sum(1 for d in docs if t in d[2]) for t in terms}
        idf = {t: math.log(1 + (len(docs) - n + 0.5) / (n + 0.5)) for t, n in df.items()}
        scored = []
        for doc, ts, tf, length in docs:
            s = 0.0
            for t in terms:
                f = tf.get(t, 0)
                if f:
                    s += (
                        idf[t]
                        * f
                        * (self.K1 + 1)
                        / (f + self.K1 * (1 - self.B + self.B * length / avg))
                    )
            if s > 0:
                scored.append((-s, -ts, doc))
        return [doc for _, _, doc in sorted(scored)[:DEPTH]]


class TimedFts(PlainFts):
    """The bare FTS5 query, limited to what was recorded by the question's ``now``."""

    def rank_at(self, q: JudgedQuery) -> list[str]:
        words = list(dict.fromkeys(re.findall(r"[^\W_]+", q.text.lower())))
        words = [w for w in words if w not in STOPWORDS] or words
        match = " OR ".join(f'"{w}"' for w in words)
        if not match:
            return []
        obs = self.con.execute(
            "SELECT o.id, bm25(bench_plain_fts) FROM bench_plain_fts JOIN observations o"
            " ON o.rowid = bench_plain_fts.rowid WHERE bench_plain_fts MATCH ?"
            " AND o.redacted = 0 AND o.repo_id = ? AND o.ts <= ? ORDER BY 2 LIMIT ?",
            [match, q.repo_id, q.now, DEPTH],
        ).fetchall()
        sums = self.con.execute(
            "SELECT s.id, bm25(summaries_fts) FROM summaries_fts JOIN summaries s"
            " ON s.rowid = summaries_fts.rowid JOIN capsules c ON c.id = s.capsule_id"
            " WHERE summaries_fts MATCH ? AND c.repo_id = ? AND s.created_at <= ?"
            " ORDER BY 2 LIMIT ?",
            [match, q.repo_id, q.now, DEPTH],
        ).fetchall()
        return [r[0] for r in sorted([*obs, *sums], key=lambda r: (r[1], r[0]))[:DEPTH]]


def kindling_ranker(kd: Kindling, **kwargs: Any) -> Ranker:
    def rank(q: JudgedQuery) -> list[str]:
        result = kd.retrieve(
            q.text, scope=Scope(repo_id=q.repo_id), max_candidates=DEPTH, now=q.now, **kwargs
        )
        return [c.entity.id for c in result.candidates]

    return rank


def score(qs: Sequence[Question], ranker: Ranker, names: dict[str, str]) -> dict[str, Any]:
    """Per question: its scores and ranked judged ids."""
    qrels = [ir_measures.Qrel(q.judged.id, d, g) for q in qs for d, g in q.judged.qrels.items()]
    run: list[ir_measures.ScoredDoc] = []
    ranked: dict[str, list[str]] = {}
    for q in qs:
        ids = list(dict.fromkeys(names.get(i, i) for i in ranker(q.judged)))
        ranked[q.judged.id] = ids
        run.extend(
            ir_measures.ScoredDoc(q.judged.id, d, float(len(ids) - i)) for i, d in enumerate(ids)
        )
    per: dict[str, dict[str, float]] = {q.judged.id: dict.fromkeys(MEASURES, 0.0) for q in qs}
    by_measure = {m: name for name, m in MEASURES.items()}
    for metric in ir_measures.iter_calc(list(MEASURES.values()), qrels, run):
        per[metric.query_id][by_measure[metric.measure]] = float(metric.value)
    return {"scores": per, "ranked": ranked}


def _mean(rows: Sequence[dict[str, float]]) -> dict[str, float]:
    n = max(1, len(rows))
    return {m: round(sum(r[m] for r in rows) / n, 3) for m in MEASURES}


def summarise(qs: Sequence[Question], result: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in PARTS:
        mine = [q for q in qs if q.part == part]
        rows = [result["scores"][q.judged.id] for q in mine]
        out[part] = {
            "n": len(mine),
            "overall": _mean(rows),
            "byKind": {
                k: {
                    "n": sum(q.kind == k for q in mine),
                    **_mean([result["scores"][q.judged.id] for q in mine if q.kind == k]),
                }
                for k in KINDS
                if any(q.kind == k for q in mine)
            },
        }
    return out


def open_store(path: Path, store: FreeStore) -> tuple[Kindling, dict[str, str]]:
    cs = store.as_coding_set()
    kd, _ = build_store(path, records(cs))
    return kd, summary_names(kd, cs)


def run(
    rows: Sequence[dict[str, Any]] | None = None,
    *,
    weights: dict[str, ScoringWeights | None] | None = None,
    baselines: bool = True,
) -> dict[str, Any]:
    """Every retriever on every question, one store: ``kindling`` with the default weights, or
    one ``retrieve()`` per entry of ``weights`` (the same store opened with those weights; None:
    the default), and the ``fts`` and ``bm25`` baselines."""
    store = load_store()
    qs = questions(store, rows if rows is not None else load_questions())
    out: dict[str, Any] = {"questions": len(qs), "retrievers": {}, "detail": {}}
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        path = Path(tmp) / "free.db"
        kd, names = open_store(path, store)
        stack.callback(kd.close)
        rankers: dict[str, Ranker] = {}
        for name, w in (weights or {"kindling": None}).items():
            handle = kd if w is None else stack.enter_context(Kindling.open(path, weights=w))
            rankers[name] = kindling_ranker(handle)
        if baselines:
            plain = TimedFts(path)
            stack.callback(plain.close)
            rankers["fts"] = plain.rank_at
            rankers["bm25"] = Bm25(store).rank
        for name, ranker in rankers.items():
            result = score(qs, ranker, names)
            out["retrievers"][name] = summarise(qs, result)
            out["detail"][name] = result
    out["kinds"] = {q.judged.id: (q.kind, q.part, q.judged.text, q.judged.qrels) for q in qs}
    return out


def table(result: dict[str, Any], part: str) -> str:
    kinds = [k for k in KINDS if any(k in r[part]["byKind"] for r in result["retrievers"].values())]
    first = next(iter(result["retrievers"].values()))[part]
    head = (
        "| "
        + part
        + " | all R@10 | R2@10 | nDCG@10 | MRR | "
        + " | ".join(f"{k} ({first['byKind'].get(k, {}).get('n', 0)})" for k in kinds)
        + " |"
    )
    lines = [head, "| --- |" + " ---: |" * (4 + len(kinds))]
    for name, summary in result["retrievers"].items():
        s = summary[part]
        cells = [s["overall"][m] for m in ("R@10", "R2@10", "nDCG@10", "MRR")]
        cells += [s["byKind"].get(k, {}).get("R@10", float("nan")) for k in kinds]
        lines.append(f"| {name} (n={s['n']}) | " + " | ".join(f"{v:.3f}" for v in cells) + " |")
    return "\n".join(lines)

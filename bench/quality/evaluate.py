"""Score Kindling's rankings on the quality set with ir-measures (pytrec_eval underneath).

The ranked list of one query is what an agent receives, in tier order: active pins, the
current summary, then the candidates. Summary ids in the store are generated, so they are
mapped back to the judged ids (``pay-3-sum``) before scoring. A query that retrieves nothing
scores 0 on every measure (pytrec_eval would silently drop it from the mean).

Must import Kindling's public API only.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ir_measures
from ir_measures import RR, R, nDCG

from bench.loader import SettableClock, load
from bench.quality.dataset import JudgedQuery, all_records, read_histories, read_queries
from kindling import Kindling, Scope
from kindling.model import RetrieveResult

MEASURES = {"R@5": R @ 5, "R@10": R @ 10, "nDCG@10": nDCG @ 10, "MRR": RR}
MAX_CANDIDATES = 50


@dataclass(frozen=True, slots=True)
class QueryOutcome:
    query: JudgedQuery
    ranked: tuple[str, ...]  # judged ids where known, else the store's id
    scores: dict[str, float]
    fts_query: str | None

    def first_relevant(self) -> int | None:
        """1-based rank of the first item judged 2 (the answer), or None."""
        for i, item in enumerate(self.ranked, 1):
            if self.query.qrels.get(item, 0) >= 2:
                return i
        return None


@dataclass(slots=True)
class Report:
    overall: dict[str, float]
    by_class: dict[str, dict[str, float]]
    counts: dict[str, int]
    outcomes: list[QueryOutcome] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "measures": list(MEASURES),
            "overall": self.overall,
            "byClass": self.by_class,
            "counts": self.counts,
            "queries": [
                {
                    "id": o.query.id,
                    "class": o.query.cls,
                    "query": o.query.text,
                    "scope": {"repoId": o.query.repo_id, "sessionId": o.query.session_id},
                    "ftsQuery": o.fts_query,
                    "scores": o.scores,
                    "firstAnswerRank": o.first_relevant(),
                    "top10": list(o.ranked[:10]),
                    "qrels": o.query.qrels,
                }
                for o in self.outcomes
            ],
        }


def build_store(path: str | Path, **open_kwargs: Any) -> tuple[Kindling, dict[str, str]]:
    """Load every history into a new store at ``path``; return it and store id -> judged id."""
    histories = read_histories()
    clock = SettableClock()
    kd = Kindling.open(path, clock=clock, **open_kwargs)
    load(kd, all_records(histories), clock=clock, batch_size=500)
    names: dict[str, str] = {}
    for history in histories:
        for judged_id, capsule_key in history.summary_capsules.items():
            summary_id = kd.get_capsule(capsule_key).summary_id
            if summary_id is not None:
                names[summary_id] = judged_id
    return kd, names


def default_retrieve(kd: Kindling, query: JudgedQuery) -> RetrieveResult:
    scope = Scope(repo_id=query.repo_id, session_id=query.session_id)
    return kd.retrieve(query=query.text, scope=scope, now=query.now, max_candidates=MAX_CANDIDATES)


def ranked_ids(result: RetrieveResult, names: dict[str, str]) -> list[str]:
    """The delivered list in tier order, as judged ids."""
    ids = [p.target.id for p in result.pins]
    if result.current_summary is not None:
        ids.append(result.current_summary.id)
    ids.extend(c.entity.id for c in result.candidates)
    return [names.get(i, i) for i in dict.fromkeys(ids)]


def evaluate(
    kd: Kindling,
    names: dict[str, str],
    queries: Sequence[JudgedQuery],
    *,
    retriever: Callable[[JudgedQuery], RetrieveResult] | None = None,
) -> Report:
    """Run every query (through ``retriever``, default ``kd.retrieve``) and score it."""
    run_one = retriever or (lambda q: default_retrieve(kd, q))
    qrels = [ir_measures.Qrel(q.id, doc, grade) for q in queries for doc, grade in q.qrels.items()]
    run = []
    ranked: dict[str, tuple[list[str], str | None]] = {}
    for q in queries:
        result = run_one(q)
        ids = ranked_ids(result, names)
        ranked[q.id] = (ids, result.provenance.fts_query)
        # Scores that only encode rank: pytrec_eval sorts by score and must keep our order.
        run.extend(
            ir_measures.ScoredDoc(q.id, doc, float(len(ids) - i)) for i, doc in enumerate(ids)
        )
    per_query: dict[str, dict[str, float]] = {q.id: dict.fromkeys(MEASURES, 0.0) for q in queries}
    by_measure = {m: name for name, m in MEASURES.items()}
    for metric in ir_measures.iter_calc(list(MEASURES.values()), qrels, run):
        per_query[metric.query_id][by_measure[metric.measure]] = float(metric.value)
    outcomes = [
        QueryOutcome(q, tuple(ranked[q.id][0]), per_query[q.id], ranked[q.id][1]) for q in queries
    ]
    groups: dict[str, list[QueryOutcome]] = defaultdict(list)
    for o in outcomes:
        groups[o.query.cls].append(o)
    return Report(
        overall=_mean(outcomes),
        by_class={cls: _mean(group) for cls, group in sorted(groups.items())},
        counts={"all": len(outcomes), **{c: len(g) for c, g in sorted(groups.items())}},
        outcomes=outcomes,
    )


def _mean(outcomes: Sequence[QueryOutcome]) -> dict[str, float]:
    n = max(1, len(outcomes))
    return {m: round(sum(o.scores[m] for o in outcomes) / n, 4) for m in MEASURES}


def run_quality(path: str | Path, **open_kwargs: Any) -> Report:
    kd, names = build_store(path, **open_kwargs)
    try:
        return evaluate(kd, names, read_queries())
    finally:
        kd.close()


def markdown_table(report: Report) -> str:
    head = "| class | queries | " + " | ".join(MEASURES) + " |"
    rule = "| --- | ---: | " + " | ".join("---:" for _ in MEASURES) + " |"
    rows = [
        f"| {cls} | {report.counts[cls]} | " + " | ".join(f"{v[m]:.3f}" for m in MEASURES) + " |"
        for cls, v in report.by_class.items()
    ]
    total = (
        f"| **all** | {report.counts['all']} | "
        + " | ".join(f"**{report.overall[m]:.3f}**" for m in MEASURES)
        + " |"
    )
    return "\n".join([head, rule, *rows, total])

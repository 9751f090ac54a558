"""Score Kindling's rankings on the quality set with ir-measures (pytrec_eval underneath).

The ranked list of one query is what an agent receives, in tier order: active pins, the
current summary, then the candidates. Summary ids in the store are generated, so they are
mapped back to the judged ids (``pay-3-sum``) before scoring. A query that retrieves nothing
scores 0 on every measure (pytrec_eval would silently drop it from the mean).

Must import Kindling's public API only.
"""

from __future__ import annotations

import re
import sqlite3
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import ir_measures
from ir_measures import RR, R, nDCG

from bench.corpus import Record
from bench.loader import SettableClock, load
from bench.quality.dataset import JudgedQuery, all_records, read_histories, read_queries
from kindling import Kindling, Scope
from kindling.model import RetrieveResult
from kindling.store.fts import STOPWORDS

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


def build_store(
    path: str | Path, records: Sequence[Record] | None = None, **open_kwargs: Any
) -> tuple[Kindling, dict[str, str]]:
    """Load ``records`` (default: every hand-written history) into a new store at ``path``;
    return it and store id -> judged id."""
    histories = read_histories()
    clock = SettableClock()
    kd = Kindling.open(path, clock=clock, **open_kwargs)
    load(kd, all_records(histories) if records is None else records, clock=clock,
         batch_size=500, bulk=True)  # fmt: skip
    names: dict[str, str] = {}
    for history in histories if records is None else []:
        for judged_id, capsule_key in history.summary_capsules.items():
            summary_id = kd.get_capsule(capsule_key).summary_id
            if summary_id is not None:
                names[summary_id] = judged_id
    return kd, names


def default_retrieve(kd: Kindling, query: JudgedQuery) -> RetrieveResult:
    scope = Scope(repo_id=query.repo_id, session_id=query.session_id)
    return kd.retrieve(query=query.text, scope=scope, now=query.now, max_candidates=MAX_CANDIDATES)


class PlainFts:
    """The naive baseline in the same harness: a plain one-column FTS5 index of observation
    content (built beside Kindling's, never used by it) and the summaries' index, queried with
    the question's words OR'ed (stop words dropped), filtered by scope through a join, merged
    by bm25. No pins, no current summary, no recency."""

    def __init__(self, path: str | Path) -> None:
        self.con = sqlite3.connect(path)
        self.con.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS bench_plain_fts USING fts5(content,"
            " content='observations', content_rowid='rowid', tokenize='porter unicode61')"
        )
        self.con.execute("INSERT INTO bench_plain_fts(bench_plain_fts) VALUES ('rebuild')")
        self.con.commit()

    def close(self) -> None:
        self.con.close()

    def rank(self, query: JudgedQuery) -> tuple[list[str], str | None]:
        words = list(dict.fromkeys(re.findall(r"[^\W_]+", query.text.lower())))
        words = [w for w in words if w not in STOPWORDS] or words
        match = " OR ".join(f'"{w}"' for w in words)
        if not match:
            return [], None
        where, args = "", []
        for column, value in (("repo_id", query.repo_id), ("session_id", query.session_id)):
            if value is not None:
                where += f" AND {{t}}.{column} = ?"
                args.append(value)
        obs = self.con.execute(
            "SELECT o.id, bm25(bench_plain_fts) FROM bench_plain_fts JOIN observations o"
            " ON o.rowid = bench_plain_fts.rowid WHERE bench_plain_fts MATCH ?"
            f" AND o.redacted = 0{where.format(t='o')} ORDER BY 2 LIMIT ?",
            [match, *args, MAX_CANDIDATES],
        ).fetchall()
        sums = self.con.execute(
            "SELECT s.id, bm25(summaries_fts) FROM summaries_fts JOIN summaries s"
            " ON s.rowid = summaries_fts.rowid JOIN capsules c ON c.id = s.capsule_id"
            f" WHERE summaries_fts MATCH ?{where.format(t='c')} ORDER BY 2 LIMIT ?",
            [match, *args, MAX_CANDIDATES],
        ).fetchall()
        merged = sorted([*obs, *sums], key=lambda r: (r[1], r[0]))[:MAX_CANDIDATES]
        return [r[0] for r in merged], match


def ranked_ids(result: RetrieveResult, names: dict[str, str], *, tiers: bool = True) -> list[str]:
    """The delivered list in tier order (or the candidates alone), as judged ids."""
    ids = [p.target.id for p in result.pins] if tiers else []
    if result.current_summary is not None and tiers:
        ids.append(result.current_summary.id)
    ids.extend(c.entity.id for c in result.candidates)
    return [names.get(i, i) for i in dict.fromkeys(ids)]


def evaluate(
    kd: Kindling,
    names: dict[str, str],
    queries: Sequence[JudgedQuery],
    *,
    retriever: Callable[[JudgedQuery], RetrieveResult] | None = None,
    ranker: Callable[[JudgedQuery], tuple[list[str], str | None]] | None = None,
    tiers: bool = True,
) -> Report:
    """Run every query (through ``retriever``, default ``kd.retrieve``; or through ``ranker``,
    which returns the ranked ids itself) and score it."""
    run_one = retriever or (lambda q: default_retrieve(kd, q))
    qrels = [ir_measures.Qrel(q.id, doc, grade) for q in queries for doc, grade in q.qrels.items()]
    run: list[ir_measures.ScoredDoc] = []
    ranked: dict[str, tuple[list[str], str | None]] = {}
    for q in queries:
        if ranker is not None:
            found, match = ranker(q)
            ids = [names.get(i, i) for i in found]
        else:
            result = run_one(q)
            ids, match = ranked_ids(result, names, tiers=tiers), result.provenance.fts_query
        ranked[q.id] = (ids, match)
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


def at(queries: Sequence[JudgedQuery], now: int) -> list[JudgedQuery]:
    """The queries asked at ``now`` instead of their own time."""
    return [replace(q, now=now) for q in queries]


def last_event(records: Sequence[Record]) -> int:
    """The time of the newest record: a question asked after it is asked as a user would."""
    return max(_time(r) for r in records)


def _time(record: Record) -> int:
    value = getattr(record, "ts", None) or getattr(record, "opened_at", None)
    return int(value) if value is not None else 0


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

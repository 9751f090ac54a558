"""``python -m bench.quality.experiments``: evidence for ranking proposals, engine untouched.

Each variant is either a knob the engine already exposes (``ScoringWeights`` passed to
``Kindling``) or a re-ranking simulated outside the engine over a deep candidate pool
(``max_candidates=200``, which at this store size is every in-scope match), re-scored from the
per-candidate ``explanation``. Simulations only estimate what a change inside the engine would
do; they are not a replacement for it. With 72 queries, differences of one or two queries
(~0.01-0.03) are anecdotes, not findings.

Must import Kindling's public API only (plus ``ScoringWeights`` to turn its knobs and the
stop-word list, to read queries the way the engine does).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench.quality import evaluate as ev
from bench.quality.dataset import JudgedQuery, read_queries
from kindling import Kindling, Scope
from kindling.model import CandidateResult, Observation, RetrieveResult, Summary
from kindling.retrieval.scoring import DEFAULT_WEIGHTS
from kindling.store.fts import STOPWORDS

DEEP = 200
# Words that ask "where was I" rather than name a topic: a query made only of these (and stop
# words) has no useful text match, so recency over the scope is the better ranking.
META_WORDS = frozenset(
    re.findall(
        r"\w+",
        """where did leave left off resume continue status summary session last doing was what
        next steps pick up work working on happened yesterday today""",
    )
)
_WORD = re.compile(r"[A-Za-z0-9_]+")

Retriever = Callable[[Kindling, JudgedQuery], RetrieveResult]


def plain(kd: Kindling, q: JudgedQuery) -> RetrieveResult:
    scope = Scope(repo_id=q.repo_id, session_id=q.session_id)
    return kd.retrieve(query=q.text, scope=scope, now=q.now, max_candidates=ev.MAX_CANDIDATES)


def reranked(factor: Callable[[CandidateResult], float]) -> Retriever:
    """Retrieve deep, multiply each candidate's score by ``factor``, keep the top 50."""

    def run(kd: Kindling, q: JudgedQuery) -> RetrieveResult:
        scope = Scope(repo_id=q.repo_id, session_id=q.session_id)
        res = kd.retrieve(query=q.text, scope=scope, now=q.now, max_candidates=DEEP)
        return _resorted(res, factor)

    return run


def _resorted(res: RetrieveResult, factor: Callable[[CandidateResult], float]) -> RetrieveResult:
    def key(c: CandidateResult) -> tuple[float, int, str]:
        ts = c.entity.created_at if isinstance(c.entity, Summary) else c.entity.ts
        return (-round(c.score * factor(c), 6), -ts, c.entity.id)

    ordered = sorted(res.candidates, key=key)[: ev.MAX_CANDIDATES]
    return replace(res, candidates=tuple(ordered))


def summary_boost(boost: float) -> Callable[[CandidateResult], float]:
    return lambda c: boost if isinstance(c.entity, Summary) else 1.0


def assistant_boost(boost: float) -> Callable[[CandidateResult], float]:
    """Prefer the agent's own explanations (message, role assistant) over tool echoes."""

    def factor(c: CandidateResult) -> float:
        e = c.entity
        if isinstance(e, Observation) and e.kind == "message":
            return boost if e.provenance.get("role") == "assistant" else 1.0
        return 1.0

    return factor


def meta_as_recency(inner: Retriever) -> Retriever:
    """Queries made only of meta words and stop words are run as the empty query."""

    def run(kd: Kindling, q: JudgedQuery) -> RetrieveResult:
        words = {w.lower() for w in _WORD.findall(q.text)}
        if words and words <= META_WORDS | STOPWORDS | _repo_words(kd):
            q = replace(q, text="")
        return inner(kd, q)

    return run


def repo_name_as_scope(inner: Retriever) -> Retriever:
    """An unscoped query naming a repository (its last path part) is scoped to it."""

    def run(kd: Kindling, q: JudgedQuery) -> RetrieveResult:
        if q.repo_id is None:
            repos = {r.rsplit("/", 1)[-1].lower(): r for r in _repos(kd)}
            for token in q.text.split():
                if token.lower() in repos:
                    rest = " ".join(t for t in q.text.split() if t != token)
                    q = replace(q, repo_id=repos[token.lower()], text=rest)
                    break
        return inner(kd, q)

    return run


def _repos(kd: Kindling) -> set[str]:
    caps = kd.list_capsules(limit=10_000)
    return {c.scope.repo_id for c in caps if c.scope.repo_id is not None}


def _repo_words(kd: Kindling) -> set[str]:
    return {w for r in _repos(kd) for w in _WORD.findall(r.rsplit("/", 1)[-1].lower())}


def variants() -> list[tuple[str, dict[str, Any], Retriever]]:
    """(name, ScoringWeights overrides, retriever) for every variant measured."""
    return [
        ("engine defaults", {}, plain),
        ("knob: seed 000 weights (fts 0.7, recency 0.3)", {"fts": 0.7, "recency": 0.3}, plain),
        ("knob: recency 0 (fts 1)", {"fts": 1.0, "recency": 0.0}, plain),
        ("knob: recency 0.1 (fts 0.9)", {"fts": 0.9, "recency": 0.1}, plain),
        ("knob: confidence 0", {"confidence": 0.0}, plain),
        ("knob: half-life 30 d", {"half_life_days": 30.0}, plain),
        ("sim: summaries x1.25", {}, reranked(summary_boost(1.25))),
        ("sim: summaries x1.5", {}, reranked(summary_boost(1.5))),
        ("sim: assistant messages x1.2", {}, reranked(assistant_boost(1.2))),
        ("sim: meta queries by recency", {}, meta_as_recency(plain)),
        ("sim: repo name in query -> scope", {}, repo_name_as_scope(plain)),
        ("combined: meta + repo scope", {}, repo_name_as_scope(meta_as_recency(plain))),
        (
            "combined: meta + repo scope + assistant x1.2",
            {},
            repo_name_as_scope(meta_as_recency(reranked(assistant_boost(1.2)))),
        ),
    ]


def run_variant(
    kd: Kindling,
    names: dict[str, str],
    queries: Sequence[JudgedQuery],
    weights: dict[str, Any],
    retriever: Retriever,
) -> ev.Report:
    view = Kindling(kd.store, clock=kd.clock, weights=replace(DEFAULT_WEIGHTS, **weights))
    return ev.evaluate(view, names, queries, retriever=lambda q: retriever(view, q))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.quality.experiments")
    parser.add_argument("--out", type=Path, default=Path("bench/out"))
    args = parser.parse_args(argv)
    queries = read_queries()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        kd, names = ev.build_store(Path(tmp) / "quality.db")
        try:
            for name, weights, retriever in variants():
                report = run_variant(kd, names, queries, weights, retriever)
                rows.append((name, report))
        finally:
            kd.close()
    classes = list(rows[0][1].by_class)
    head = "| variant | " + " | ".join(ev.MEASURES) + " | " + " | ".join(classes) + " |"
    lines = [head, "| --- |" + " ---: |" * (len(ev.MEASURES) + len(classes))]
    for name, r in rows:
        cells = [f"{r.overall[m]:.3f}" for m in ev.MEASURES]
        cells += [f"{r.by_class[c]['nDCG@10']:.3f}" for c in classes]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    table = "\n".join(lines)
    print("Overall measures, then nDCG@10 per query class.\n")
    print(table)
    args.out.mkdir(parents=True, exist_ok=True)
    data = {name: r.to_dict() for name, r in rows}
    (args.out / "experiments.json").write_text(json.dumps(data, indent=1) + "\n")
    (args.out / "experiments.md").write_text(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The exact SQL the search verbs execute, on both backends: to show that a refactoring of the
store leaves every statement (text and parameters) and every answer as it was.

    python -m bench.search_sql capture OUT.json [--pg URL]   # on one checkout, then another
    python -m bench.search_sql compare BEFORE.json AFTER.json

``capture`` fills a SQLite file and a fresh PostgreSQL schema with the same small session
history (fixed clock), runs ``search_observations`` / ``search_summaries`` (empty, terms,
phrase, negation, identifier, path, common word, no match; three scopes; with and without
excluded ids and forgotten rows), ``document_counts``, ``newest_ts``, ``list_repos`` and three
``retrieve()`` calls, and records each statement as the driver receives it (PostgreSQL: after
``?`` becomes ``%s``), with ids replaced by their order. A third run, ``postgres-large``, lowers
the thresholds of the big-table paths (estimated document frequencies, the recent-window rank
pool) so that they run too. ``compare`` prints, per backend, whether the statements and answers
are identical, and every statement that is not.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from typing import Any

import psycopg

import kindling.store.postgres.search as pg_search
from kindling import Kindling, Scope
from kindling.store.fts import build_query
from kindling.store.postgres import connection as pg_conn
from kindling.store.sqlite import connection as lite_conn

LOG: list[tuple[str, str, str]] = []
CURRENT = {"label": ""}


def _wrap(cls: Any, name: str, convert: Any) -> None:
    original = getattr(cls, name)

    def traced(self: Any, sql: str, params: Any = ()) -> Any:
        LOG.append((CURRENT["label"], convert(sql), repr(list(params))))
        return original(self, sql, params)

    setattr(cls, name, traced)


_wrap(lite_conn.Database, "read", lambda s: s)
_wrap(lite_conn.Database, "write", lambda s: s)
_wrap(pg_conn.PgDatabase, "read", pg_conn._marks)
_wrap(pg_conn.PgDatabase, "write", pg_conn._marks)

S = Scope(session_id="s1", repo_id="/r")
R = Scope(repo_id="/r")
WORDS = [
    "parser",
    "crash",
    "quokka",
    "zebrafish",
    "lemur",
    "user",
    "token",
    "validateToken",
    "src/a.ts",
]


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000_000

    def __call__(self) -> int:
        self.now += 1000
        return self.now


def populate(kd: Kindling) -> None:
    for c in range(3):
        scope = S if c < 2 else Scope(session_id=f"s{c}", repo_id="/other")
        cap = kd.open_capsule(intent=f"fix the {WORDS[c]} bug", scope=scope)
        for i in range(12):
            w1, w2 = WORDS[(i + c) % len(WORDS)], WORDS[(i * 3 + c) % len(WORDS)]
            kd.append_observation(
                kind="message" if i % 2 else "command",
                content=f"the {w1} {w2} step {i} of capsule {c}",
                scope=scope,
                provenance={"role": "user"} if i % 3 == 0 else {},
            )
        kd.close_capsule(cap.id, summary=f"summary of {WORDS[c]} parser work {c}")


def run(kd: Kindling) -> None:
    st = kd.store
    ids = [o.id for o in kd.list_observations(scope=Scope(), limit=100)]
    sums = [s.id for s in kd.list_summaries(limit=100)]
    cases: list[tuple[str, Any]] = []
    for q in [
        "",
        "parser",
        "quokka parser",
        '"parser crash"',
        "parser -crash",
        "validateToken",
        "src/a.ts",
        "the",
        "nothingmatches",
    ]:
        for scope_name, scope in (("S", S), ("R", R), ("all", Scope())):
            for excl in ((), tuple(ids[:2])):
                for red in (False, True):
                    label = f"obs q={q!r} scope={scope_name} excl={len(excl)} red={red}"
                    cases.append(
                        (
                            label,
                            lambda q=q, scope=scope, excl=excl, red=red: st.search_observations(
                                build_query(q) if q else None,
                                scope,
                                exclude_ids=excl,
                                include_redacted=red,
                                limit=5,
                            ),
                        )
                    )
            for excl in ((), tuple(sums[:1])):
                label = f"sum q={q!r} scope={scope_name} excl={len(excl)}"
                cases.append(
                    (
                        label,
                        lambda q=q, scope=scope, excl=excl: st.search_summaries(
                            build_query(q) if q else None, scope, exclude_ids=excl, limit=5
                        ),
                    )
                )
    cases.append(
        (
            "document_counts",
            lambda: st.document_counts(
                ["parser", "the", "quokka", "validateToken"], share=0.1, minimum=2
            ),
        )
    )
    for scope_name, scope in (("S", S), ("all", Scope()), ("none", Scope(repo_id="/none"))):
        cases.append((f"newest_ts {scope_name}", lambda scope=scope: st.newest_ts(scope)))
        cases.append(
            (f"list_repos {scope_name}", lambda scope=scope: st.list_repos(scope=scope, limit=10))
        )
    for q in ["parser crash", "quokka", "what did the user say about tokens"]:
        cases.append((f"retrieve {q!r}", lambda q=q: kd.retrieve(q, scope=S)))
    results: dict[str, str] = {}
    for label, call in cases:
        CURRENT["label"] = label
        results[label] = repr(_shape(call()))
    CURRENT["label"] = ""
    RESULTS.update(results)


def _shape(value: Any) -> Any:
    """A comparable form of a verb's answer (ids kept: normalised later)."""
    if isinstance(value, list):
        return [_shape(v) for v in value]
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if hasattr(value, "__dataclass_fields__"):
        return {k: _shape(getattr(value, k)) for k in value.__dataclass_fields__}
    return value


RESULTS: dict[str, str] = {}


def normalise(text: str, ids: dict[str, str]) -> str:
    return re.sub(r"[0-9A-Za-z_-]{20,}", lambda m: ids.get(m.group(0), m.group(0)), text)


def capture(out: str, pg: str, workdir: str) -> None:
    report: dict[str, Any] = {}
    for backend in ("sqlite", "postgres", "postgres-large"):
        LOG.clear()
        RESULTS.clear()
        if backend == "postgres-large":
            pg_search.DF_EXACT_BELOW = 5
            pg_search.RANK_POOL_ABOVE = 3
            pg_search.RECENT_WINDOW = 10
        if backend == "sqlite":
            url = os.path.join(workdir, "search_sql.db")
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(url + suffix):
                    os.remove(url + suffix)
        else:
            with psycopg.connect(pg, autocommit=True) as conn:
                conn.execute("DROP SCHEMA IF EXISTS bench_search_sql CASCADE")
                conn.execute("CREATE SCHEMA bench_search_sql")
            sep = "&" if "?" in pg else "?"
            url = f"{pg}{sep}options=-csearch_path%3Dbench_search_sql"
        with Kindling.open(url, clock=Clock(), drain_spool=False, semantic=False) as kd:
            populate(kd)
            if backend != "sqlite":
                kd.store.db.outside_transaction("ANALYZE")  # type: ignore[attr-defined]
            order = [o.id for o in reversed(kd.list_observations(scope=Scope(), limit=1000))]
            order += [c.id for c in kd.list_capsules(limit=1000)]
            order += [s.id for s in kd.list_summaries(limit=1000)]
            ids = {i: f"<id{n}>" for n, i in enumerate(order)}
            LOG.clear()
            run(kd)
        report[backend] = {
            "statements": [[lbl, normalise(sql, ids), normalise(p, ids)] for lbl, sql, p in LOG],
            "results": {k: normalise(v, ids) for k, v in RESULTS.items()},
        }
    with open(out, "w") as f:
        json.dump(report, f, indent=1)
    for b, r in report.items():
        print(
            b,
            len(r["statements"]),
            "statements",
            len({s[1] for s in r["statements"]}),
            "distinct SQL texts",
        )


def compare(before_path: str, after_path: str) -> None:
    with open(before_path) as f:
        before = json.load(f)
    with open(after_path) as f:
        after = json.load(f)
    for backend in before:
        a, b = before[backend]["statements"], after[backend]["statements"]
        differing = [(x, y) for x, y in zip(a, b, strict=False) if x != y]
        text = [s for s in a if "MATCH" in s[1] or "@@" in s[1]]
        text_after = [s for s in b if "MATCH" in s[1] or "@@" in s[1]]
        print(
            f"{backend}: {len(a)} vs {len(b)} statements, identical: {a == b};"
            f" full-text statements {len(text)}, identical: {text == text_after};"
            f" answers identical: {before[backend]['results'] == after[backend]['results']}"
        )
        shown: set[tuple[str, str]] = set()
        for x, y in differing:
            if (x[1], y[1]) not in shown:
                shown.add((x[1], y[1]))
                print(f"  {x[0]}\n    before: {x[1]}\n    after:  {y[1]}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.search_sql")
    sub = parser.add_subparsers(dest="command", required=True)
    cap = sub.add_parser("capture")
    cap.add_argument("out")
    cap.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/test")
    cap.add_argument("--workdir", default="bench/out")
    cmp = sub.add_parser("compare")
    cmp.add_argument("before")
    cmp.add_argument("after")
    args = parser.parse_args()
    if args.command == "capture":
        os.makedirs(args.workdir, exist_ok=True)
        capture(args.out, args.pg, args.workdir)
    else:
        compare(args.before, args.after)


if __name__ == "__main__":
    main()

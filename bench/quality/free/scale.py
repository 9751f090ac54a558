"""``python -m bench.quality.free.scale [--pad N] [--window W ...]``: the free-question set in
a busy store.

The free set's store holds 173 sessions, so a question rarely matches more than a few hundred
items in its repository, and nothing that bounds work on a big store (the rank window of
``store.sqlite.search``) is ever tested by it. Here the same sessions share their
repositories with ``N`` synthetic observations (``bench.corpus``: other people's sessions in
the same repositories, about invented code, over the same weeks), loaded in time order with
them, so common words match thousands of items and recent ones crowd out older answers. No
padding item is judged: the set's judgments stand as frozen.

Every retriever runs on the same questions and store as ``bench.quality.free`` (kindling; the
bare FTS5 query in the same harness); ``--window`` adds one ``retrieve()`` per rank window.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import kindling.store.sqlite.search as sqlite_search
from bench.corpus import (
    EPOCH_MS,
    SPAN_DAYS,
    CapsuleRecord,
    CloseRecord,
    ObservationRecord,
    PinRecord,
    Record,
    SummaryRecord,
    generate,
)
from bench.loader import SettableClock, load
from bench.quality.coding.data import records
from bench.quality.coding.harness import summary_names
from bench.quality.free.data import PARTS, FreeStore, load_questions, load_store
from bench.quality.free.harness import (
    Question,
    Ranker,
    TimedFts,
    kindling_ranker,
    questions,
    score,
    summarise,
    table,
)
from kindling import Kindling
from kindling.retrieval import plans

DAY_MS = 86_400_000
# ``--cache`` keeps the built store here (git ignores bench/data); bump VERSION when what is
# loaded or how it is indexed changes.
CACHE = Path(__file__).resolve().parents[2] / "data"
VERSION = 1


def _when(r: Record) -> int:
    if isinstance(r, CapsuleRecord):
        return r.opened_at
    return r.ts


def padding(store: FreeStore, size: int, seed: int) -> Iterator[Record]:
    """``size`` synthetic observations (with their capsules and summaries), their repositories
    mapped onto those questions were written in and their times onto the store's weeks; ids
    are prefixed ``pad-``."""
    repos = sorted({s["repo_id"] for s in store.sessions if store.part_of(s) != "store"})
    start = min(s["opened_at"] for s in store.sessions)
    end = max(s["closed_at"] for s in store.sessions)
    span = SPAN_DAYS * DAY_MS

    def at(ts: int) -> int:
        return start + (ts - EPOCH_MS) * (end - start) // span

    seen: dict[str, str] = {}

    def repo(r: str) -> str:
        return seen.setdefault(r, repos[len(seen) % len(repos)])

    for r in generate(size, seed):
        if isinstance(r, CapsuleRecord):
            yield dataclasses.replace(
                r,
                key="pad-" + r.key,
                session_id="pad-" + r.session_id,
                repo_id=repo(r.repo_id),
                opened_at=at(r.opened_at),
            )
        elif isinstance(r, ObservationRecord):
            yield dataclasses.replace(
                r,
                id="pad-" + r.id,
                session_id="pad-" + r.session_id,
                repo_id=repo(r.repo_id),
                capsule_key=None if r.capsule_key is None else "pad-" + r.capsule_key,
                ts=at(r.ts),
            )
        elif isinstance(r, CloseRecord | SummaryRecord):
            yield dataclasses.replace(
                r,
                capsule_key="pad-" + r.capsule_key,
                ts=at(r.ts),
                evidence_refs=tuple("pad-" + e for e in r.evidence_refs),
            )
        elif isinstance(r, PinRecord):
            continue  # pins reach every question; the set has none of its own


def merged(store: FreeStore, size: int, seed: int) -> list[Record]:
    """The free store's records and the padding, in time order (a capsule's opening before
    its steps, its close after them)."""
    both = [*records(store.as_coding_set()), *padding(store, size, seed)]
    order = sorted(range(len(both)), key=lambda i: (_when(both[i]), i))
    return [both[i] for i in order]


def _patched(kd: Kindling, settings: dict[tuple[Any, str], Any]) -> Ranker:
    """``retrieve()`` with module settings changed for the call (a rank window, the plan's
    rules)."""
    inner = kindling_ranker(kd)

    def rank(q: Any) -> list[str]:
        saved = {key: getattr(*key) for key in settings}
        for (module, name), value in settings.items():
            setattr(module, name, value)
        try:
            return inner(q)
        finally:
            for (module, name), value in saved.items():
                setattr(module, name, value)

    return rank


def variant(text: str) -> dict[tuple[Any, str], Any]:
    """``rarest=K,budget=N|none``: the plan's ``RAREST_WORDS`` and ``WALK_BUDGET``."""
    out: dict[tuple[Any, str], Any] = {}
    for part in text.split(","):
        key, _, value = part.partition("=")
        number = None if value == "none" else int(value)
        name = {"rarest": "RAREST_WORDS", "budget": "WALK_BUDGET"}[key.strip()]
        out[(plans, name)] = 10**6 if number is None and name == "RAREST_WORDS" else number
    return out


def run(
    pad: int,
    seed: int,
    windows: Sequence[int],
    variants: Sequence[str] = (),
    *,
    cache: bool = False,
) -> dict[str, Any]:
    store = load_store()
    qs: list[Question] = questions(store, load_questions())
    out: dict[str, Any] = {"questions": len(qs), "pad": pad, "retrievers": {}}
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        cached = CACHE / f"free-scale-v{VERSION}-{pad}-s{seed}.db"
        path = cached if cache else Path(tmp) / "free-scale.db"
        clock = SettableClock()
        t = time.perf_counter()
        if not path.exists():
            building = path.with_suffix(".building")
            building.unlink(missing_ok=True)
            with Kindling.open(building, clock=clock) as kd:
                load(kd, merged(store, pad, seed), clock=clock, batch_size=500, bulk=True)
            building.rename(path)
            for side in ("-checked", "-wal", "-shm"):
                Path(f"{building}{side}").unlink(missing_ok=True)
        kd = stack.enter_context(Kindling.open(path, clock=clock))
        out["loadSeconds"] = round(time.perf_counter() - t, 1)
        names = summary_names(kd, store.as_coding_set())
        rankers: dict[str, Ranker] = {"kindling": kindling_ranker(kd)}
        for w in windows:
            rankers[f"kindling window {w}"] = _patched(kd, {(sqlite_search, "RANK_WINDOW"): w})
        for v in variants:
            rankers[f"kindling {v}"] = _patched(kd, variant(v))
        plain = TimedFts(path)
        stack.callback(plain.close)
        rankers["fts"] = plain.rank_at
        for name, ranker in rankers.items():
            out["retrievers"][name] = summarise(qs, score(qs, ranker, names))
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.quality.free.scale")
    parser.add_argument("--pad", type=int, default=100_000, help="synthetic observations")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--window", type=int, action="append", default=[])
    parser.add_argument("--variant", action="append", default=[], help="rarest=K,budget=N|none")
    parser.add_argument("--cache", action="store_true", help="keep the store in bench/data")
    args = parser.parse_args(argv)
    result = run(args.pad, args.seed, args.window, args.variant, cache=args.cache)
    print(f"{result['questions']} questions; {args.pad} padding observations,"
          f" loaded in {result['loadSeconds']} s")  # fmt: skip
    for part in PARTS:
        print()
        print(table(result, part))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

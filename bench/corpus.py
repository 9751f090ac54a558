"""A deterministic, streaming generator of realistic coding-agent memory.

``generate(size, seed)`` yields records in time order: a capsule opens, its observations follow
(tool calls, shell commands with output, unified diffs, stack traces in five languages, user
and assistant messages), the capsule closes with a summary, and now and then something is
pinned. ``queries(size, seed)`` gives a tagged query set drawn from the same vocabulary.

Realism comes from skew: repositories, identifiers, paths and words are drawn with Zipf-like
weights, each session focuses on a handful of files, and most tokens in the long tail are
identifiers, numbers and hashes, as in real logs. Nothing is held in memory beyond one session
and the small per-repository vocabularies, so a million observations stream in constant memory.

Same ``(size, seed)`` gives the same records, byte for byte: every random choice comes from a
``random.Random`` seeded by a string (which Python seeds deterministically, unlike ``hash()``).

Must not import anything from Kindling: the loader turns these records into API calls.
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from bench import content as texts
from bench import vocab
from bench.focus import Context, Pool, Repo

DAY_MS = 86_400_000
# Fixed so that a corpus never depends on the day it is generated.
EPOCH_MS = 1_735_689_600_000  # 2025-01-01T00:00:00Z
SPAN_DAYS = 90
N_REPOS = 30
MEAN_SESSION_OBS = 60

SIZES = {"k": 1_000, "m": 1_000_000}


def parse_size(text: str) -> int:
    """``"10k"`` -> 10000, ``"1m"`` -> 1000000, ``"2500"`` -> 2500."""
    t = text.strip().lower()
    if t and t[-1] in SIZES:
        return int(float(t[:-1]) * SIZES[t[-1]])
    return int(t)


# ---------------------------------------------------------------------------------------------
# Records


@dataclass(frozen=True, slots=True)
class CapsuleRecord:
    key: str
    type: Literal["session", "pocketflow_node"]
    intent: str
    session_id: str
    repo_id: str
    opened_at: int


@dataclass(frozen=True, slots=True)
class ObservationRecord:
    id: str
    kind: str
    content: str
    provenance: dict[str, Any]
    ts: int
    session_id: str
    repo_id: str
    capsule_key: str | None


@dataclass(frozen=True, slots=True)
class CloseRecord:
    capsule_key: str
    ts: int
    summary: str | None
    confidence: float | None
    evidence_refs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SummaryRecord:
    """A summary set on a capsule that stays open (a closing summary rides on CloseRecord)."""

    capsule_key: str
    ts: int
    content: str
    confidence: float
    evidence_refs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PinRecord:
    target_id: str
    reason: str
    ts: int
    expires_at: int | None


Record: TypeAlias = CapsuleRecord | ObservationRecord | CloseRecord | SummaryRecord | PinRecord

QueryClass: TypeAlias = Literal[
    "word",
    "identifier",
    "path",
    "error",
    "question",
    "pair",
    "phrase",
    "dotted",
    "fix",
    "need_error",
    "check",
    "decision",
    "location",
]


@dataclass(frozen=True, slots=True)
class Query:
    text: str
    cls: QueryClass
    repo_id: str
    session_id: str


# ---------------------------------------------------------------------------------------------
# Session plan: cheap headers computed up front so queries can name real sessions


@dataclass(frozen=True, slots=True)
class SessionPlan:
    index: int
    session_id: str
    repo_index: int
    n_obs: int
    start_ms: int
    pocketflow: bool


def plan_sessions(size: int, seed: int) -> list[SessionPlan]:
    """Session headers whose observation counts add up to exactly ``size``."""
    rng = random.Random(f"{seed}/plan")
    repo_pick = Pool([str(i) for i in range(N_REPOS)], s=1.0)
    counts: list[int] = []
    total = 0
    while total < size:
        n = max(4, min(400, int(rng.lognormvariate(3.8, 0.7))))
        n = min(n, size - total)
        counts.append(n)
        total += n
    span = SPAN_DAYS * DAY_MS
    step = span // max(1, len(counts))
    plans: list[SessionPlan] = []
    for i, n in enumerate(counts):
        jitter = rng.randrange(max(1, step // 2))
        plans.append(
            SessionPlan(
                index=i,
                session_id=f"sess-{i:06d}",
                repo_index=int(repo_pick.pick(rng)),
                n_obs=n,
                start_ms=EPOCH_MS + i * step + jitter,
                pocketflow=rng.random() < 0.05,
            )
        )
    return plans


def end_ms(size: int, seed: int) -> int:
    """A time just after the last record: a natural ``now`` for retrieval over the corpus."""
    return EPOCH_MS + SPAN_DAYS * DAY_MS + DAY_MS


# ---------------------------------------------------------------------------------------------
# Generation

KINDS = ("tool_call", "command", "message", "file_diff", "error")
KIND_CUM = list(itertools.accumulate((36, 22, 20, 13, 9)))
NODE_KINDS = ("node_output", "tool_call", "command", "node_error")
NODE_CUM = list(itertools.accumulate((60, 20, 15, 5)))


def _pick_kind(rng: random.Random, cum: list[int], kinds: Sequence[str]) -> str:
    return kinds[bisect.bisect_right(cum, rng.randrange(cum[-1]))]


def generate(size: int, seed: int = 42) -> Iterator[Record]:
    """Yield the corpus of ``size`` observations as records in time order."""
    repos = [Repo.build(i, seed) for i in range(N_REPOS)]
    common = Pool(list(vocab.COMMON), s=1.0)
    counter = itertools.count()
    for plan in plan_sessions(size, seed):
        repo = repos[plan.repo_index]
        rng = random.Random(f"{seed}/session/{plan.index}")
        yield from _session(plan, repo, rng, common, counter)


def _session(
    plan: SessionPlan,
    repo: Repo,
    rng: random.Random,
    common: Pool,
    counter: Iterator[int],
) -> Iterator[Record]:
    ctx = Context.focus(repo, rng, common)
    key = f"cap-{plan.index:06d}"
    intent = texts.intent(ctx)
    ctype: Literal["session", "pocketflow_node"] = (
        "pocketflow_node" if plan.pocketflow else "session"
    )
    yield CapsuleRecord(key, ctype, intent, plan.session_id, repo.repo_id, plan.start_ms)
    ts = plan.start_ms
    notable: list[str] = []
    decision_id: str | None = None
    for j in range(plan.n_obs):
        ts += rng.randint(3_000, 90_000)
        if plan.pocketflow:
            if j == 0:
                kind = "node_start"
            elif j == plan.n_obs - 1:
                kind = "node_end"
            else:
                kind = _pick_kind(rng, NODE_CUM, NODE_KINDS)
        else:
            kind = _pick_kind(rng, KIND_CUM, KINDS)
        content, prov = texts.render(ctx, kind)
        oid = f"o{next(counter):07d}"
        if kind in ("error", "node_error", "file_diff") or prov.get("decision"):
            notable.append(oid)
            if prov.get("decision"):
                decision_id = oid
        yield ObservationRecord(oid, kind, content, prov, ts, plan.session_id, repo.repo_id, key)
    ts += rng.randint(10_000, 120_000)
    summary = texts.summary(ctx, intent) if rng.random() < 0.85 else None
    conf = round(rng.uniform(0.5, 0.95), 2) if summary else None
    refs = tuple(notable[-5:]) if summary else ()
    yield CloseRecord(key, ts, summary, conf, refs)
    if notable and rng.random() < 0.08:
        target = decision_id or notable[-1]
        expires = ts + rng.randint(7, 60) * DAY_MS if rng.random() < 0.4 else None
        yield PinRecord(target, texts.pin_reason(ctx), ts + 1, expires)


# ---------------------------------------------------------------------------------------------
# Queries


QUERY_CLASSES: tuple[QueryClass, ...] = ("word", "identifier", "path", "error", "question")
# More shapes for the latency mix: two words, a quoted phrase, a dotted name, and questions
# that trigger each need of the ranking (``content.NEED_TEMPLATES``).
NEED_CLASSES: tuple[QueryClass, ...] = ("fix", "need_error", "check", "decision", "location")
MIX_CLASSES: tuple[QueryClass, ...] = ("pair", "phrase", "dotted", *NEED_CLASSES)


def queries(size: int, seed: int = 42, per_class: int = 20) -> list[Query]:
    """A tagged query set over the corpus vocabulary, each with a real session and its repo."""
    repos = [Repo.build(i, seed) for i in range(N_REPOS)]
    plans = plan_sessions(size, seed)
    common = Pool(list(vocab.COMMON), s=1.0)
    out: list[Query] = []
    # The latency mix's other shapes are drawn apart, so that the first classes stay as they were.
    for classes, rng in (
        (QUERY_CLASSES, random.Random(f"{seed}/queries")),
        (MIX_CLASSES, random.Random(f"{seed}/queries/mix")),
    ):
        for cls in classes:
            for _ in range(per_class):
                plan = plans[rng.randrange(len(plans))]
                repo = repos[plan.repo_index]
                ctx = Context.focus(repo, rng, common)
                out.append(Query(texts.query(ctx, cls), cls, repo.repo_id, plan.session_id))
    return out

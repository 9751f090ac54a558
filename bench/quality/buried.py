"""The "buried answers" quality set: answers weeks old, questions asked after the last event,
and fresh items that share the question's common words.

Generated, deterministic, never tuned on: 90 days of synthetic agent history
(``bench.corpus.generate``, 30 repositories) as background, and planted fact sessions in six
of its repositories between day 10 and day 60. Each fact session is a prompt, a step or two,
the answer (a decision, an error with its cause, a fix) and a follow-up. In the last week, the
same repository gets fresh items that share the question's common words without answering it
(the "30 fresh `npm test -- token suite N passed` lines" case). Every question is asked one
hour after the last event of the whole store, repo-scoped.

Grades: the answer 2; the follow-up that restates it 1.

Must not import Kindling.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bench.corpus import (
    CapsuleRecord,
    CloseRecord,
    ObservationRecord,
    Record,
    end_ms,
    generate,
)
from bench.focus import Repo
from bench.quality.dataset import JudgedQuery

DAY = 86_400_000
MINUTE = 60_000
BACKGROUND = 6000
SEED = 7
REPOS = 6
FRESH_PER_FACT = 24

Slots = dict[str, str]


@dataclass(frozen=True, slots=True)
class Template:
    intent: str
    # (role, kind, text); role: "answer" (grade 2), "follow" (grade 1), "" (ungraded)
    steps: tuple[tuple[str, str, str], ...]
    question: str
    fresh: tuple[str, ...]  # fresh distractors sharing the question's common words


T = Template
TEMPLATES: tuple[Template, ...] = (
    T(
        "decide where refresh tokens are stored",
        (
            ("", "message", "Where should the refresh token live on the client?"),
            (
                "answer",
                "message",
                "Decision: refresh tokens live in an httpOnly SameSite=Strict "
                "cookie, never in localStorage; {fn} reads it server side only.",
            ),
            (
                "follow",
                "file_diff",
                "{file}: set_cookie('rt', value, httponly=True, "
                "samesite='Strict') replaces localStorage.setItem",
            ),
        ),
        "where do we keep the refresh token?",
        (
            "npm test -- token suite {n} passed",
            "refreshed token fixtures for suite {n}",
            "token refresh job ran in {n} ms",
        ),
    ),
    T(
        "fix login 500",
        (
            ("", "message", "login returns 500 on staging since this morning"),
            ("", "command", "$ pytest tests/test_{mod}.py -k login\n1 failed"),
            (
                "answer",
                "error",
                "KeyError: 'sub'\n  File \"{file}\", line {n}, in {fn}\n"
                "    user_id = claims['sub']",
            ),
            (
                "follow",
                "message",
                "Cause: tokens minted by the old issuer have no 'sub' claim; "
                "{fn} now falls back to 'uid'.",
            ),
        ),
        "why did the login fail?",
        ("login page loaded in {n} ms", "GET /login 200 ({n} ms)", "ran login smoke test {n}: ok"),
    ),
    T(
        "choose the queue for {mod} jobs",
        (
            ("", "message", "Which broker should the {mod} jobs use?"),
            (
                "answer",
                "message",
                "We decided on Redis streams with consumer groups for {mod} "
                "jobs instead of RabbitMQ: one less service to run, and XAUTOCLAIM covers retries.",
            ),
            (
                "follow",
                "file_diff",
                "{file}: + stream = redis.xreadgroup('{mod}', consumer, {{'{mod}-jobs': '>'}})",
            ),
        ),
        "what queue did we pick for the {mod} jobs?",
        (
            "{mod} jobs drained: {n} left in queue",
            "queue depth for {mod} jobs is {n}",
            "requeued {n} {mod} jobs after deploy",
        ),
    ),
    T(
        "flaky {mod} test",
        (
            ("", "command", "$ go test ./{mod}/... -run TestExpiry -count=20\nFAIL 3/20"),
            (
                "answer",
                "message",
                "The {mod} expiry test is flaky because it compares "
                "time.Now() across a second boundary; it now injects a fake clock.",
            ),
            ("follow", "file_diff", "{file}: - now := time.Now()\n+ now := clock.Now()"),
        ),
        "why was the expiry test flaky?",
        (
            "$ go test ./{mod}/... ok ({n}s)",
            "test run {n}: all tests passed",
            "re-ran the test suite, {n} tests ok",
        ),
    ),
    T(
        "pick the pagination style for {fn}",
        (
            ("", "message", "offset pagination on {fn} is slow past page 500"),
            (
                "answer",
                "message",
                "Decision: {fn} moves to cursor pagination keyed on "
                "(created_at, id); offsets stay only for the admin export.",
            ),
            ("follow", "file_diff", "{file}: + def {fn}(cursor: Cursor | None, limit: int)"),
        ),
        "how does {fn} paginate now?",
        (
            "{fn} page {n} returned 50 rows",
            "GET /{mod}?page={n} 200",
            "page {n} of the {mod} listing rendered",
        ),
    ),
    T(
        "database timeout in {mod}",
        (
            ("", "command", "$ kubectl logs deploy/{mod} | grep timeout"),
            (
                "answer",
                "error",
                "psycopg.errors.QueryCanceled: canceling statement due to "
                "statement timeout\n  in {fn} ({file}:{n}): "
                "missing index on {mod}_events(tenant_id)",
            ),
            (
                "follow",
                "message",
                "Added index {mod}_events_tenant_idx; {fn} p95 went from 9 s to 40 ms.",
            ),
        ),
        "what caused the database timeout?",
        (
            "database backup finished in {n} s",
            "db connections: {n} active",
            "database migrations up to date ({n})",
        ),
    ),
    T(
        "rate limits for the public API",
        (
            ("", "message", "what limits do partners get on the public API?"),
            (
                "answer",
                "message",
                "Decision: partners get 600 requests per minute per key, "
                "burst 100, token bucket in Redis; internal callers are exempt.",
            ),
            ("follow", "file_diff", "{file}: + RATE = Limit(per_minute=600, burst=100)"),
        ),
        "what rate limit did we give partners?",
        (
            "partner sync {n} finished",
            "API key rotated for partner {n}",
            "limit check passed for request {n}",
        ),
    ),
    T(
        "memory leak in {mod} worker",
        (
            ("", "message", "the {mod} worker RSS grows to 4 GB overnight"),
            ("", "command", "$ py-spy dump --pid {n}\n{fn} holding 1.2M cached responses"),
            (
                "answer",
                "message",
                "Leak found: {fn} caches every response in an unbounded "
                "dict keyed by request id; replaced with an LRU of 10k entries.",
            ),
            ("follow", "file_diff", "{file}: - _cache = {{}}\n+ _cache = LRU(maxsize=10_000)"),
        ),
        "why did the worker run out of memory?",
        ("worker {n} started", "worker heartbeat {n} ok", "memory usage {n} MB, within limits"),
    ),
    T(
        "naming convention for migrations",
        (
            ("", "message", "migration files keep colliding between branches"),
            (
                "answer",
                "message",
                "Convention: migration files are named "
                "YYYYMMDDHHMM_<verb>_<table>.sql and merged in timestamp order; "
                "no sequence numbers.",
            ),
            ("follow", "file_diff", "docs/CONTRIBUTING.md: + migrations: YYYYMMDDHHMM_verb_table"),
        ),
        "how should migration files be named?",
        ("applied migration {n}", "migration {n} ran in 2 s", "migrations: {n} pending"),
    ),
    T(
        "webhook signature failures",
        (
            ("", "command", "$ curl -X POST localhost:8080/hooks/{mod} -d @payload.json\n401"),
            (
                "answer",
                "error",
                "SignatureError: HMAC mismatch in {fn}: the body was re-serialised "
                "by the JSON middleware before verification",
            ),
            (
                "follow",
                "message",
                "Fixed: {fn} now verifies the raw request bytes before any parsing.",
            ),
        ),
        "why were webhook signatures rejected?",
        ("webhook {n} delivered", "webhook retry {n} scheduled", "received webhook {n} (200)"),
    ),
    T(
        "feature flag cleanup policy",
        (
            ("", "message", "we have 140 stale feature flags"),
            (
                "answer",
                "message",
                "Policy: a feature flag is deleted 30 days after reaching 100 % "
                "rollout; the owner gets a ticket from the nightly audit job.",
            ),
            ("follow", "file_diff", "{file}: + if flag.full_rollout_age_days > 30: open_ticket()"),
        ),
        "when do we delete feature flags?",
        (
            "flag {n} toggled on in staging",
            "feature flag {n} evaluated 1000 times",
            "feature {n} enabled for beta",
        ),
    ),
    T(
        "currency rounding bug",
        (
            ("", "message", "invoice totals are off by a cent for JPY"),
            (
                "answer",
                "message",
                "Root cause: {fn} rounds with 2 decimals for every currency; "
                "JPY has 0 minor units. It now reads the exponent from ISO 4217.",
            ),
            (
                "follow",
                "file_diff",
                "{file}: - round(amount, 2)\n+ round(amount, minor_units(cur))",
            ),
        ),
        "why were the invoice totals off by a cent?",
        (
            "invoice {n} sent",
            "invoice totals exported for {n} customers",
            "generated invoice {n} (EUR)",
        ),
    ),
)


def _slots(repo: Repo, rng: random.Random) -> Slots:
    mod = rng.choice(["auth", "billing", "orders", "sync", "media", "search", "ledger"])
    verb = rng.choice(["load", "resolve", "fetch", "render", "decode", "apply", "verify"])
    noun = rng.choice(["session", "claims", "page", "batch", "entry", "payload", "window"])
    return {
        "mod": mod,
        "fn": f"{verb}_{noun}",
        "file": f"src/{mod}/{noun}.py",
        "n": str(rng.randint(2, 999)),
    }


def _fill(text: str, slots: Slots, n: int | None = None) -> str:
    values = dict(slots)
    if n is not None:
        values["n"] = str(n)
    return text.format(**values)


@dataclass(frozen=True, slots=True)
class BuriedSet:
    records: tuple[Record, ...]
    queries: tuple[JudgedQuery, ...]


def build(seed: int = SEED, background: int = BACKGROUND) -> BuriedSet:
    """The whole set: background records, planted facts, fresh distractors, and questions."""
    repos = [Repo.build(i, seed) for i in range(REPOS)]
    end = end_ms(background, seed)
    now = end + 60 * MINUTE
    rng = random.Random(f"buried/{seed}")
    planted: list[tuple[int, list[Record]]] = []
    queries: list[JudgedQuery] = []
    index = 0
    for repo_no, repo in enumerate(repos):
        for template in rng.sample(TEMPLATES, 4):
            index += 1
            slots = _slots(repo, rng)
            key, session = f"fact-cap-{index}", f"fact-sess-{index}"
            start = end - rng.randint(30, 80) * DAY + rng.randint(0, 8 * 60) * MINUTE
            records: list[Record] = [
                CapsuleRecord(
                    key, "session", _fill(template.intent, slots), session, repo.repo_id, start
                )
            ]
            qrels: dict[str, int] = {}
            for step, (role, kind, text) in enumerate(template.steps):
                oid = f"fact-{index}-{step}"
                records.append(
                    ObservationRecord(
                        oid,
                        kind,
                        _fill(text, slots),
                        {},
                        start + (step + 1) * 3 * MINUTE,
                        session,
                        repo.repo_id,
                        key,
                    )
                )
                if role:
                    qrels[oid] = 2 if role == "answer" else 1
            records.append(CloseRecord(key, start + 30 * MINUTE, None, None))
            planted.append((start, records))
            fresh_key, fresh_session = f"fresh-cap-{index}", f"fresh-sess-{index}"
            fresh_start = end - rng.randint(1, 6) * DAY
            fresh: list[Record] = [
                CapsuleRecord(
                    fresh_key,
                    "session",
                    f"routine work in {repo.repo_id}",
                    fresh_session,
                    repo.repo_id,
                    fresh_start,
                )
            ]
            for i in range(FRESH_PER_FACT):
                line = template.fresh[i % len(template.fresh)]
                fresh.append(
                    ObservationRecord(
                        f"fresh-{index}-{i}",
                        "command" if i % 2 else "message",
                        _fill(line, slots, n=i + 1),
                        {},
                        fresh_start + (i + 1) * MINUTE,
                        fresh_session,
                        repo.repo_id,
                        fresh_key,
                    )
                )
            fresh.append(CloseRecord(fresh_key, fresh_start + 40 * MINUTE, None, None))
            planted.append((fresh_start, fresh))
            queries.append(
                JudgedQuery(
                    id=f"buried-{index}",
                    cls=f"repo{repo_no}",
                    text=_fill(template.question, slots),
                    repo_id=repo.repo_id,
                    session_id=None,
                    now=now,
                    qrels=qrels,
                )
            )
    return BuriedSet(tuple(_merge(generate(background, seed), planted)), tuple(queries))


def _merge(background: object, planted: list[tuple[int, list[Record]]]) -> list[Record]:
    """Background records, then each planted session as a block: timestamps are explicit, so
    the order only decides rowids."""
    out: list[Record] = list(background)  # type: ignore[call-overload]
    for _, block in sorted(planted, key=lambda p: p[0]):
        out.extend(block)
    return out

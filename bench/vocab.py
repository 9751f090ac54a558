"""Word lists the synthetic corpus draws from (data only, no logic).

The lists are small on purpose: realism comes from how they are combined (identifiers built from
nouns and verbs, paths from modules and stems) and from the Zipf-like weights the generator puts
on them, so that a few words are very common and most identifiers are rare, as in real agent logs.

Must not import anything from Kindling.
"""

from __future__ import annotations


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


LANGUAGES = _words(
    """
    python typescript go rust java
    """
)

REPO_PREFIXES = _words(
    """
    payments billing auth search ingest notify catalog orders ledger gateway inventory
    profile reports scheduler media checkout analytics identity pricing shipping feeds chat
    metrics config audit sync export import webhooks admin
    """
)

REPO_SUFFIXES = _words(
    """
    api service worker web cli core proxy dashboard sdk
    """
)

# Domain nouns and verbs, most common first (the generator weights them by rank).
NOUNS = _words(
    """
    user token session request config cache client order payment event message queue job
    task account invoice item record file schema route handler worker batch retry webhook
    refund price product customer tenant policy permission role key secret report metric
    span trace log buffer stream chunk page cursor index query filter result response header
    cookie upload download image thumbnail email notification template locale currency
    address shipment carrier label discount coupon cart checkout ledger entry balance
    transfer subscription plan quota limit window bucket lock lease snapshot migration
    version feature flag experiment variant node cluster shard replica partition offset
    consumer producer topic
    """
)

VERBS = _words(
    """
    get set load save parse build create update delete fetch validate handle process render
    send read write sync apply check resolve compute format encode decode serialize flush
    retry refresh register dispatch schedule merge split normalize reconcile emit subscribe
    publish acquire release migrate import export map reduce
    """
)

CLASS_SUFFIXES = _words(
    """
    Service Manager Handler Client Repository Store Config Error Builder Factory Controller
    Validator Serializer Provider Worker Queue Cache Adapter Middleware Resolver Schema
    Model Event Context
    """
)

MODULES = _words(
    """
    api auth core db models services utils handlers workers billing payments storage cache
    events jobs routes middleware config cli search notifications reports sync export
    metrics tracing admin
    """
)

# Everyday words of dev chat, most common first.
COMMON = _words(
    """
    the to a and is it in of that this for we i on not with be so but test tests should can
    it's fix error now just it's what was file let's failing run code why when use change
    still works need think new looks function check i'll try build update before after
    problem issue again value wrong missing instead because then also back make sure done
    passing null empty case call return called version type local field expected actual see
    add remove line one two first last old data config path default mode handle retry
    timeout flaky slow fast order branch commit merge review ci green red broken revert
    upgrade bump dependency install
    """
)

ENGLISH_TAIL = _words(
    """
    apparently basically honestly actually probably definitely somewhere somehow whatever
    regression workaround edge corner legacy cleanup refactor rename extract inline
    duplicate consistency ownership boundary contract invariant assumption tradeoff latency
    throughput memory leak deadlock race condition ordering idempotent eventual consistency
    backpressure pagination serialization deserialization validation authorization
    authentication encryption compression rotation expiry eviction invalidation warmup
    rollout rollback canary feature hotfix postmortem incident oncall alert dashboard
    runbook migration schema index vacuum
    """
)

DEPENDENCIES: dict[str, tuple[str, ...]] = {
    "python": _words(
        """
        fastapi sqlalchemy pydantic requests httpx celery redis alembic pytest boto3
        structlog click uvicorn psycopg
        """
    ),
    "typescript": _words(
        """
        react next express zod prisma vitest jest axios webpack vite eslint
        typescript @tanstack/react-query pino
        """
    ),
    "go": _words(
        """
        gin cobra viper zap pgx sarama grpc testify errgroup chi sqlc prometheus
        """
    ),
    "rust": _words(
        """
        tokio serde axum hyper reqwest sqlx anyhow thiserror tracing clap rustls
        tower
        """
    ),
    "java": _words(
        """
        spring-boot hibernate jackson junit mockito flyway lombok kafka-clients
        micrometer guava slf4j
        """
    ),
}

INTENTS = (
    "fix failing {test} in CI",
    "add {noun} {noun2} support to {module}",
    "investigate slow {noun} {verb} in {module}",
    "refactor {cls} to remove duplicate {noun} logic",
    "upgrade {dep} and fix breakages",
    "debug {error} during {noun} {verb}",
    "implement {verb} {noun} endpoint",
    "review PR for {module} {noun} changes",
    "write tests for {cls}",
    "resume work on {noun} {noun2} migration",
)

DECISIONS = (
    "We decided to {verb} the {noun} in {module} instead of {cls} because {reason}.",
    "Decision: keep {dep} for now; switching costs more than the {noun} {issue} it causes.",
    "Let's go with {cls} as the single owner of {noun} state; {reason}.",
    "Agreed: {noun} {noun2} moves behind a feature flag until the {issue} is understood.",
    "We will not retry {noun} {verb} on 4xx; only on timeouts and 5xx, {reason}.",
)

REASONS = (
    "it keeps the {noun} path synchronous",
    "the old code raced under load",
    "tests were flaky with the shared {noun}",
    "it halves the number of {noun} queries",
    "the {dep} API changed in the last major",
    "the {noun} cache was never invalidated",
    "ops asked for fewer moving parts",
    "it matches how {module} already works",
)

QUESTIONS = (
    "why does {test} fail only in CI?",
    "where is {ident} defined?",
    "can you check why {noun} {verb} is so slow?",
    "what did we decide about the {noun} {noun2}?",
    "is {cls} still used anywhere?",
    "how do I run the {module} tests locally?",
    "what changed in {path} last week?",
    "did the {dep} upgrade break {noun} {verb}?",
    "why is {ident} returning null for some {noun}s?",
    "where did we leave the {noun} {noun2} work?",
)

ISSUES = _words(
    """
    timeout race leak regression flakiness deadlock slowdown crash
    """
)
STATUS = (
    "Looks like {ident} is called twice when the {noun} cache is cold; adding a guard in {path}.",
    "The {test} failure is a {issue}: the {noun} fixture is shared between tests.",
    "Tests pass now. The fix was to {verb} the {noun} before calling {ident}.",
    "hmm, still failing with the same {error}",
    "ok, try again with {dep} pinned to the previous version",
    "{cls} swallows the {noun} error, so the caller never sees the {issue}.",
    "I think the {noun} {noun2} is stale here; {ident} reads it before the {verb} finishes.",
    "Reverted my change to {path}; it broke {test}.",
    "CI is green on the branch, opening the PR for {module}.",
    "can you also look at {path}? it has the same {noun} handling",
    "The slow part is {ident}: it does one {noun} query per {noun2}.",
    "Moved {ident} into {cls} so the {noun} logic lives in one place.",
    "no, keep the old {noun} format for now, the mobile client still sends it",
    "Found it: {ident} ignores the {noun} timeout and blocks forever.",
    "that's unrelated, the {noun} warning was there before",
)

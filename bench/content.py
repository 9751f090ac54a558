"""What each synthetic observation says, and the capsules, pins and queries around it.

``render(ctx, kind)`` gives the text and provenance of one observation of a session
(``Context``, ``bench.focus``): tool calls and commands come from ``bench.shell``, unified
diffs, stack traces in five languages, messages and workflow node events from here, as do
a capsule's intent and summary, a pin's reason and the query set's questions.

Must not import anything from Kindling.
"""

from __future__ import annotations

from typing import Any

from bench import vocab
from bench.focus import Context
from bench.shell import command, tool_call


def render(ctx: Context, kind: str) -> tuple[str, dict[str, Any]]:
    """The content and provenance of one observation of ``kind``."""
    if kind == "tool_call":
        return tool_call(ctx)
    if kind == "command":
        return command(ctx)
    if kind == "message":
        return message(ctx)
    if kind == "file_diff":
        return diff(ctx)
    if kind in ("error", "node_error"):
        return stack_trace(ctx), {"source": "stderr" if kind == "error" else "node"}
    return node_event(ctx, kind)


def diff(ctx: Context) -> tuple[str, dict[str, Any]]:
    r = ctx.rng
    path = ctx.file()
    start = r.randint(1, 400)
    around = [ctx.code_line() for _ in range(r.randint(1, 3))]
    minus = [ctx.code_line() for _ in range(r.randint(0, 4))]
    plus = [ctx.code_line() for _ in range(r.randint(1, 6))]
    body = "\n".join([f" {c}" for c in around] + [f"-{m}" for m in minus] + [f"+{p}" for p in plus])
    n_old, n_new = len(around) + len(minus), len(around) + len(plus)
    text = (
        f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n"
        f"@@ -{start},{n_old} +{start},{n_new} @@ {ctx.fn()}\n{body}"
    )
    return text, {"tool": "Edit", "path": path}


def stack_trace(ctx: Context) -> str:
    r = ctx.rng
    err = ctx.error if r.random() < 0.6 else ctx.error_line()
    lang = ctx.repo.lang
    frames = []
    for _ in range(r.randint(2, 5)):
        path, fn, line = ctx.file(), ctx.fn(), r.randint(1, 800)
        frames.append(
            {
                "python": f'  File "{path}", line {line}, in {fn}',
                "typescript": f"    at {fn} ({path}:{line}:{r.randint(1, 60)})",
                "go": f"{ctx.repo.name}/{path.rsplit('.', 1)[0]}.{fn}(...)\n\t/app/{path}:{line}",
                "rust": f"   {r.randint(0, 30)}: {ctx.repo.name.replace('-', '_')}::{fn}\n"
                f"             at ./{path}:{line}:{r.randint(1, 40)}",
                "java": f"\tat com.acme.{ctx.cls()}.{fn}({path.rsplit('/', 1)[-1]}:{line})",
            }[lang]
        )
    if lang == "python":
        return "Traceback (most recent call last):\n" + "\n".join(frames) + f"\n{err}"
    if lang == "go":
        return f"{err}\n\ngoroutine {r.randint(1, 400)} [running]:\n" + "\n".join(frames)
    if lang == "rust":
        return f"{err}\nstack backtrace:\n" + "\n".join(frames)
    return f"{err}\n" + "\n".join(frames)


def message(ctx: Context) -> tuple[str, dict[str, Any]]:
    r = ctx.rng
    x = r.random()
    if x < 0.3:
        return ctx.fill(r.choice(vocab.QUESTIONS)), {"role": "user"}
    if x < 0.45:
        return ctx.fill(r.choice(vocab.DECISIONS)), {"role": "assistant", "decision": True}
    if x < 0.6:
        steps = "\n".join(
            f"{i}. {ctx.fill(r.choice(vocab.INTENTS))}" for i in range(1, r.randint(3, 5))
        )
        return f"Plan:\n{steps}", {"role": "assistant"}
    return ctx.fill(r.choice(vocab.STATUS)), {"role": r.choice(("user", "assistant"))}


def node_event(ctx: Context, kind: str) -> tuple[str, dict[str, Any]]:
    r = ctx.rng
    node = ctx.cls().replace("Service", "Node").replace("Manager", "Node")
    if kind == "node_start":
        return f"node {node} started with {ctx.noun()}={ctx.noun()}-{r.randint(1, 999)}", {}
    if kind == "node_end":
        return f"node {node} finished in {r.randint(20, 90000)}ms", {}
    return f"node {node} output: {ctx.words(r.randint(5, 15))} {ctx.fn()}", {}


def intent(ctx: Context) -> str:
    return ctx.fill(ctx.rng.choice(vocab.INTENTS))


def summary(ctx: Context, intent: str) -> str:
    r = ctx.rng
    touched = ", ".join(sorted(set(ctx.files[: r.randint(1, 4)])))
    outcome = (
        ctx.fill(r.choice(vocab.DECISIONS))
        if r.random() < 0.5
        else (
            f"Root cause was {ctx.error} in {ctx.fn()}."
            if r.random() < 0.5
            else f"Tests pass after changing {ctx.fn()}."
        )
    )
    nxt = ctx.fill(r.choice(vocab.INTENTS))
    return f"{intent[:1].upper()}{intent[1:]}. Touched {touched}. {outcome} Next: {nxt}."


def pin_reason(ctx: Context) -> str:
    return ctx.rng.choice(("root cause", "decision to keep", "do not regress", "TODO"))


def query(ctx: Context, cls: str) -> str:
    r = ctx.rng
    if cls == "word":
        return r.choice((ctx.noun(), ctx.common.pick(r), r.choice(vocab.ENGLISH_TAIL)))
    if cls == "identifier":
        return ctx.fn() if r.random() < 0.6 else ctx.cls()
    if cls == "path":
        path = ctx.file()
        return path if r.random() < 0.6 else path.rsplit("/", 1)[-1]
    if cls == "error":
        return ctx.error
    if cls == "pair":
        return f"{ctx.noun()} {ctx.noun()}"
    if cls == "phrase":
        return f'"{ctx.noun()} {ctx.noun()}"'
    if cls == "dotted":
        return f"{ctx.cls()}.{ctx.fn()}" + ("()" if r.random() < 0.5 else "")
    if cls in NEED_TEMPLATES:
        return ctx.fill(r.choice(NEED_TEMPLATES[cls]))
    return ctx.fill(r.choice(vocab.QUESTIONS))


# Questions that trigger each need of the ranking (``kindling.retrieval.needs``): a fix, an
# error, a check, a decision, a location; short and long, as people type them.
NEED_TEMPLATES: dict[str, tuple[str, ...]] = {
    "fix": (
        "fix {noun} {verb} test",
        "how did we fix the {noun} {noun2} bug",
        "what changed to resolve {ident} timeouts",
    ),
    "need_error": (
        "why did {test} fail",
        "{noun} {verb} error",
        "what broke in {ident}",
    ),
    "check": (
        "did the tests pass after the {noun} change",
        "{module} tests green",
        "did the build work after {ident}",
    ),
    "decision": (
        "why did we decide on {noun} {noun2}",
        "what approach for {noun} {verb}",
        "{noun} decision",
    ),
    "location": (
        "where is {ident} defined",
        "which file handles {noun} {verb}",
        "{cls} definition",
    ),
}

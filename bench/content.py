"""What the synthetic memory looks like: vocab pools, repositories, and per-kind content.

``Repo`` holds one repository's language and Zipf-weighted vocabulary; ``Context`` is one
session's focus (a few files, functions and classes it keeps coming back to) and renders the
text of each observation kind: tool calls, commands with output, unified diffs, stack traces,
messages, workflow node events, summaries, and queries.

Must not import anything from Kindling.
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench import vocab


def zipf_weights(n: int, s: float = 1.1) -> list[float]:
    """Cumulative weights for ranks 1..n of a Zipf(s) distribution."""
    return list(itertools.accumulate(1.0 / (r**s) for r in range(1, n + 1)))


@dataclass(slots=True)
class Pool:
    """Items with Zipf weights by position; ``pick`` is O(log n)."""

    items: list[str]
    cum: list[float] = field(default_factory=list)
    s: float = 1.1

    def __post_init__(self) -> None:
        self.cum = zipf_weights(len(self.items), self.s)

    def pick(self, rng: random.Random) -> str:
        i = bisect.bisect_left(self.cum, rng.random() * self.cum[-1])
        return self.items[min(i, len(self.items) - 1)]


def _camel(words: Sequence[str]) -> str:
    return "".join(w[:1].upper() + w[1:] for w in words)


def _lower_camel(words: Sequence[str]) -> str:
    return words[0] + _camel(words[1:])


@dataclass(slots=True)
class Repo:
    """One repository's language and vocabulary: paths, classes, functions, tests."""

    repo_id: str
    name: str
    lang: str
    files: Pool
    tests: Pool
    classes: Pool
    functions: Pool
    modules: Pool
    deps: Pool

    @classmethod
    def build(cls, index: int, seed: int) -> Repo:
        rng = random.Random(f"{seed}/repo/{index}")
        prefix = vocab.REPO_PREFIXES[index % len(vocab.REPO_PREFIXES)]
        name = f"{prefix}-{rng.choice(vocab.REPO_SUFFIXES)}"
        lang = vocab.LANGUAGES[rng.randrange(len(vocab.LANGUAGES))]
        nouns, verbs = Pool(list(vocab.NOUNS)), Pool(list(vocab.VERBS))
        modules = rng.sample(vocab.MODULES, rng.randint(6, 12))
        classes: list[str] = []
        functions: list[str] = []
        while len(classes) < 80:
            c = _camel([nouns.pick(rng), rng.choice(vocab.CLASS_SUFFIXES)])
            if c not in classes:
                classes.append(c)
        while len(functions) < 200:
            words = [verbs.pick(rng), nouns.pick(rng)] + ([nouns.pick(rng)] * rng.randint(0, 1))
            f = "_".join(words) if lang in ("python", "rust") else _lower_camel(words)
            if lang == "go" and rng.random() < 0.5:
                f = _camel(words)
            if f not in functions:
                functions.append(f)
        files: list[str] = []
        tests: list[str] = []
        for i in range(rng.randint(60, 150)):
            mod = modules[i % len(modules)]
            stem_words = [nouns.pick(rng), rng.choice(("", verbs.pick(rng)))]
            path, test = source_path(lang, name, mod, [w for w in stem_words if w])
            if path not in files:
                files.append(path)
                tests.append(test)
        return cls(
            repo_id=f"/home/dev/src/{name}",
            name=name,
            lang=lang,
            files=Pool(files),
            tests=Pool(tests),
            classes=Pool(classes),
            functions=Pool(functions),
            modules=Pool(modules),
            deps=Pool(list(vocab.DEPENDENCIES[lang])),
        )


def source_path(lang: str, repo: str, module: str, words: list[str]) -> tuple[str, str]:
    """A source file path and its test file's path, in the language's conventions."""
    pkg = repo.split("-")[0]
    if lang == "python":
        stem = "_".join(words)
        return f"src/{pkg}/{module}/{stem}.py", f"tests/{module}/test_{stem}.py"
    if lang == "typescript":
        stem = _lower_camel(words)
        ext = ".tsx" if module in ("routes", "admin", "reports") else ".ts"
        return f"src/{module}/{stem}{ext}", f"src/{module}/{stem}.test.ts"
    if lang == "go":
        stem = "_".join(words)
        return f"internal/{module}/{stem}.go", f"internal/{module}/{stem}_test.go"
    if lang == "rust":
        stem = "_".join(words)
        return f"src/{module}/{stem}.rs", f"tests/{module}_{stem}.rs"
    cls = _camel(words)
    return (
        f"src/main/java/com/acme/{pkg}/{module}/{cls}.java",
        f"src/test/java/com/acme/{pkg}/{module}/{cls}Test.java",
    )


def _sha(rng: random.Random) -> str:
    return f"{rng.getrandbits(28):07x}"


PY_ERRORS = (
    "AttributeError: 'NoneType' object has no attribute '{attr}'",
    "KeyError: '{attr}'",
    "TypeError: {fn}() missing 1 required positional argument: '{attr}'",
    "ValueError: invalid literal for int() with base 10: '{attr}'",
    'sqlalchemy.exc.IntegrityError: duplicate key value violates unique constraint "{attr}_pkey"',
    "ModuleNotFoundError: No module named '{dep}'",
    "ConnectionRefusedError: [Errno 111] Connection refused",
    "TimeoutError: {fn} timed out after 30s",
    "AssertionError: assert 401 == 200",
)
TS_ERRORS = (
    "TypeError: Cannot read properties of undefined (reading '{attr}')",
    "ReferenceError: {attr} is not defined",
    "Error: connect ECONNREFUSED 127.0.0.1:5432",
    "SyntaxError: Unexpected token '<' in JSON at position 0",
    "error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
    "UnhandledPromiseRejection: {cls} failed: request timed out",
    "Error [ERR_REQUIRE_ESM]: require() of ES Module not supported",
)
GO_ERRORS = (
    "panic: runtime error: invalid memory address or nil pointer dereference",
    "panic: assignment to entry in nil map",
    "{fn}: context deadline exceeded",
    "{fn}: dial tcp 127.0.0.1:9092: connect: connection refused",
    "fatal error: all goroutines are asleep - deadlock!",
    "panic: runtime error: index out of range [3] with length 3",
)
RS_ERRORS = (
    "error[E0502]: cannot borrow `{attr}` as mutable because it is also borrowed as immutable",
    "error[E0382]: borrow of moved value: `{attr}`",
    "error[E0308]: mismatched types: expected `{cls}`, found `Option<{cls}>`",
    "thread 'main' panicked at 'called `Option::unwrap()` on a `None` value'",
    "thread 'tokio-runtime-worker' panicked at 'Cannot start a runtime from within a runtime'",
    "error[E0277]: `{cls}` cannot be sent between threads safely",
)
JAVA_ERRORS = (
    'java.lang.NullPointerException: Cannot invoke "{cls}.{fn}()" because "{attr}" is null',
    "java.lang.IllegalStateException: {cls} is not initialized",
    "org.springframework.beans.factory.UnsatisfiedDependencyException: Error creating bean "
    "'{attr}'",
    "java.util.ConcurrentModificationException",
    "org.hibernate.LazyInitializationException: could not initialize proxy - no Session",
    "java.net.SocketTimeoutException: Read timed out",
)
ERRORS = {
    "python": PY_ERRORS,
    "typescript": TS_ERRORS,
    "go": GO_ERRORS,
    "rust": RS_ERRORS,
    "java": JAVA_ERRORS,
}


NOUNS = Pool(list(vocab.NOUNS), s=0.9)


@dataclass(slots=True)
class Context:
    """One session's focus within a repository, and the renderers for its observations."""

    repo: Repo
    rng: random.Random
    common: Pool
    files: list[str]
    tests: list[str]
    fns: list[str]
    classes: list[str]
    dep: str
    error: str

    @classmethod
    def focus(cls, repo: Repo, rng: random.Random, common: Pool) -> Context:
        files = [repo.files.pick(rng) for _ in range(4)]
        ctx = cls(
            repo=repo,
            rng=rng,
            common=common,
            files=files,
            tests=[repo.tests.items[repo.files.items.index(f)] for f in files],
            fns=[repo.functions.pick(rng) for _ in range(8)],
            classes=[repo.classes.pick(rng) for _ in range(4)],
            dep=repo.deps.pick(rng),
            error="",
        )
        ctx.error = ctx.error_line()
        return ctx

    # -- pickers: mostly the session's focus, sometimes anything in the repository

    def file(self) -> str:
        r = self.rng
        return r.choice(self.files) if r.random() < 0.7 else self.repo.files.pick(r)

    def test(self) -> str:
        r = self.rng
        return r.choice(self.tests) if r.random() < 0.7 else self.repo.tests.pick(r)

    def fn(self) -> str:
        r = self.rng
        return r.choice(self.fns) if r.random() < 0.7 else self.repo.functions.pick(r)

    def cls(self) -> str:
        r = self.rng
        return r.choice(self.classes) if r.random() < 0.7 else self.repo.classes.pick(r)

    def noun(self) -> str:
        return NOUNS.pick(self.rng)

    def words(self, n: int) -> str:
        r = self.rng
        out = [self.common.pick(r) for _ in range(n)]
        if r.random() < 0.3:
            out.insert(r.randrange(len(out) + 1), r.choice(vocab.ENGLISH_TAIL))
        return " ".join(out)

    def fill(self, template: str) -> str:
        r = self.rng
        return template.format(
            test=self.test_name(),
            noun=self.noun(),
            noun2=self.noun(),
            verb=r.choice(vocab.VERBS),
            module=self.repo.modules.pick(r),
            cls=self.cls(),
            dep=self.dep,
            error=self.error.split(":")[0],
            ident=self.fn(),
            path=self.file(),
            reason=r.choice(vocab.REASONS).format(
                noun=self.noun(), dep=self.dep, module=self.repo.modules.pick(r)
            ),
            issue=r.choice(vocab.ISSUES),
        )

    def test_name(self) -> str:
        fn = self.fn()
        if self.repo.lang in ("python", "rust"):
            return f"test_{fn}"
        return "Test" + fn[:1].upper() + fn[1:] if self.repo.lang == "go" else f"{fn} test"

    def error_line(self) -> str:
        r = self.rng
        template = r.choice(ERRORS[self.repo.lang])
        return template.format(
            attr=self.noun() + r.choice(("_id", "", "s", "Id")),
            fn=self.fn(),
            cls=self.cls(),
            dep=self.dep,
        )

    def code_line(self) -> str:
        r = self.rng
        a, b, fn, c = self.noun(), self.noun(), self.fn(), self.cls()
        lang = self.repo.lang
        if lang == "python":
            return r.choice(
                (
                    f"    {a} = {fn}({b})",
                    f"    if {a} is None:",
                    f"    return {c}({a}={b})",
                    f"    self.{a}_{b} = {fn}(self.{a})",
                    f"    raise {c}Error({a!r})",
                )
            )
        if lang == "typescript":
            return r.choice(
                (
                    f"  const {a} = await {fn}({b});",
                    f"  if (!{a}) return null;",
                    f"  return new {c}({{ {a}, {b} }});",
                    f"  this.{a} = {fn}(this.{b});",
                )
            )
        if lang == "go":
            return r.choice(
                (
                    f"\t{a}, err := {fn}(ctx, {b})",
                    "\tif err != nil {",
                    f'\t\treturn nil, fmt.Errorf("{fn}: %w", err)',
                    f"\t{a}.{b} = {c}{{}}",
                )
            )
        if lang == "rust":
            return r.choice(
                (
                    f"    let {a} = {fn}(&{b})?;",
                    f"    let mut {a} = {c}::new();",
                    f"    {a}.{b}.insert({fn}(&self.{b}));",
                    f"    Ok({c} {{ {a}, {b} }})",
                )
            )
        return r.choice(
            (
                f"        var {a} = {fn}({b});",
                f"        if ({a} == null) {{",
                f"        return new {c}({a}, {b});",
                f"        this.{a} = {b};",
            )
        )

    # -- content by kind

    def content(self, kind: str) -> tuple[str, dict[str, Any]]:
        if kind == "tool_call":
            return self.tool_call()
        if kind == "command":
            return self.command()
        if kind == "message":
            return self.message()
        if kind == "file_diff":
            return self.diff()
        if kind in ("error", "node_error"):
            return self.stack_trace(), {"source": "stderr" if kind == "error" else "node"}
        return self.node_event(kind)

    def tool_call(self) -> tuple[str, dict[str, Any]]:
        r = self.rng
        x = r.random()
        if x < 0.5:
            path = self.file()
            start = r.randint(1, 400)
            lines = "\n".join(self.code_line() for _ in range(r.randint(2, 8)))
            text = f"Read {path} (lines {start}-{start + r.randint(20, 120)})\n{lines}"
            return text, {"tool": "Read", "path": path}
        if x < 0.85:
            ident = self.fn() if r.random() < 0.7 else self.cls()
            hits = [
                f"{self.file()}:{r.randint(1, 900)}: {self.code_line().strip()}"
                for _ in range(r.randint(1, 6))
            ]
            text = f'Grep "{ident}"\n{len(hits)} matches\n' + "\n".join(hits)
            return text, {"tool": "Grep", "pattern": ident}
        path = self.file()
        pattern = path.rsplit("/", 1)[0] + "/**/*" + path[path.rfind(".") :]
        found = sorted({self.repo.files.pick(r) for _ in range(r.randint(2, 9))})
        return f"Glob {pattern}\n" + "\n".join(found), {"tool": "Glob", "pattern": pattern}

    def command(self) -> tuple[str, dict[str, Any]]:
        r = self.rng
        x = r.random()
        if x < 0.5:
            return self.test_run()
        if x < 0.75:
            return self.git()
        if x < 0.88:
            return self.docker()
        return self.lint()

    def test_run(self) -> tuple[str, dict[str, Any]]:
        r = self.rng
        lang, test, name = self.repo.lang, self.test(), self.test_name()
        failed = r.random() < 0.35
        n = r.randint(3, 60)
        secs = f"{r.uniform(0.1, 40):.2f}s"
        if lang == "python":
            cmd = f"pytest {test} -q"
            out = (
                f"FAILED {test}::{name} - {self.error}\n1 failed, {n} passed in {secs}"
                if failed
                else f"{n} passed in {secs}"
            )
        elif lang == "typescript":
            cmd = f"npm test -- {test}"
            out = (
                f" FAIL  {test} > {name}\n{self.error}\nTests  1 failed | {n} passed"
                if failed
                else f" ✓ {test} ({n} tests) {r.randint(5, 900)}ms\nTests  {n} passed"
            )
        elif lang == "go":
            pkg = test.rsplit("/", 1)[0]
            cmd = f"go test ./{pkg}/..."
            out = (
                f"--- FAIL: {name} ({secs})\n    {test.rsplit('/', 1)[1]}:{r.randint(10, 300)}: "
                f"{self.error}\nFAIL\tgithub.com/acme/{self.repo.name}/{pkg}\t{secs}"
                if failed
                else f"ok  \tgithub.com/acme/{self.repo.name}/{pkg}\t{secs}"
            )
        elif lang == "rust":
            cmd = f"cargo test {name}"
            out = (
                f"test {name} ... FAILED\n{self.error}\ntest result: FAILED. {n} passed; 1 failed"
                if failed
                else f"running {n} tests\ntest result: ok. {n} passed; 0 failed"
            )
        else:
            cmd = f"./gradlew test --tests {test.rsplit('/', 1)[1][:-5]}"
            out = (
                f"{name} FAILED\n    {self.error}\nTests run: {n}, Failures: 1, Errors: 0"
                if failed
                else f"BUILD SUCCESSFUL in {secs}\nTests run: {n}, Failures: 0"
            )
        return f"$ {cmd}\n{out}", {"command": cmd, "exitCode": 1 if failed else 0}

    def git(self) -> tuple[str, dict[str, Any]]:
        r = self.rng
        x = r.random()
        if x < 0.3:
            lines = [f"{_sha(r)} {self.words(r.randint(3, 7))}" for _ in range(5)]
            cmd = "git log --oneline -5"
            out = "\n".join(lines)
        elif x < 0.55:
            cmd = "git status --short"
            out = "\n".join(f" M {self.file()}" for _ in range(r.randint(1, 4)))
        elif x < 0.8:
            prefix = r.choice(("fix", "feat", "refactor", "test", "chore"))
            msg = f"{prefix}: {self.fill(r.choice(vocab.INTENTS))}"
            cmd = f'git commit -am "{msg}"'
            out = f"[{self.branch()} {_sha(r)}] {msg}\n {r.randint(1, 9)} files changed"
        else:
            cmd = "git diff --stat"
            out = "\n".join(f" {self.file()} | {r.randint(1, 80)} +++--" for _ in range(3))
        return f"$ {cmd}\n{out}", {"command": cmd, "exitCode": 0}

    def branch(self) -> str:
        return f"{self.rng.choice(('fix', 'feat', 'chore'))}/{self.noun()}-{self.noun()}"

    def docker(self) -> tuple[str, dict[str, Any]]:
        r = self.rng
        if r.random() < 0.5:
            cmd = f"docker compose up -d {r.choice(('db', 'redis', 'kafka', 'api'))}"
            bad = r.random() < 0.3
            out = (
                "Error response from daemon: driver failed programming external connectivity: "
                f"Bind for 0.0.0.0:{r.choice((5432, 6379, 9092, 8080))} failed: port is already "
                "allocated"
                if bad
                else "Container started"
            )
        else:
            cmd = f"docker build -t {self.repo.name}:dev ."
            bad = r.random() < 0.2
            out = (
                f'ERROR: failed to solve: process "/bin/sh -c {self.install_cmd()}" did not '
                "complete successfully: exit code: 1"
                if bad
                else f"Successfully built {_sha(r)}\nSuccessfully tagged {self.repo.name}:dev"
            )
        return f"$ {cmd}\n{out}", {"command": cmd, "exitCode": 1 if bad else 0}

    def install_cmd(self) -> str:
        return {
            "python": "pip install -e .",
            "typescript": "npm ci",
            "go": "go mod download",
            "rust": "cargo build --release",
            "java": "./gradlew build",
        }[self.repo.lang]

    def lint(self) -> tuple[str, dict[str, Any]]:
        r = self.rng
        lang, path, line = self.repo.lang, self.file(), r.randint(1, 500)
        cmd, out = {
            "python": (
                "ruff check .",
                f"{path}:{line}:5: F841 Local variable `{self.noun()}` is "
                "assigned to but never used",
            ),
            "typescript": (
                "npx eslint src",
                f"{path}\n  {line}:9  error  '{self.noun()}' is "
                "assigned a value but never used  no-unused-vars",
            ),
            "go": ("go vet ./...", f"{path}:{line}:2: result of fmt.Errorf call not used"),
            "rust": (
                "cargo clippy -- -D warnings",
                f"warning: redundant clone\n  --> {path}:{line}:21",
            ),
            "java": (
                "./gradlew spotbugsMain",
                f"{path}:{line} NP_NULL_ON_SOME_PATH in {self.cls()}",
            ),
        }[lang]
        return f"$ {cmd}\n{out}", {"command": cmd, "exitCode": 1}

    def diff(self) -> tuple[str, dict[str, Any]]:
        r = self.rng
        path = self.file()
        start = r.randint(1, 400)
        ctx = [self.code_line() for _ in range(r.randint(1, 3))]
        minus = [self.code_line() for _ in range(r.randint(0, 4))]
        plus = [self.code_line() for _ in range(r.randint(1, 6))]
        body = "\n".join(
            [f" {c}" for c in ctx] + [f"-{m}" for m in minus] + [f"+{p}" for p in plus]
        )
        n_old, n_new = len(ctx) + len(minus), len(ctx) + len(plus)
        text = (
            f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n"
            f"@@ -{start},{n_old} +{start},{n_new} @@ {self.fn()}\n{body}"
        )
        return text, {"tool": "Edit", "path": path}

    def stack_trace(self) -> str:
        r = self.rng
        err = self.error if r.random() < 0.6 else self.error_line()
        lang = self.repo.lang
        frames = []
        for _ in range(r.randint(2, 5)):
            path, fn, line = self.file(), self.fn(), r.randint(1, 800)
            frames.append(
                {
                    "python": f'  File "{path}", line {line}, in {fn}',
                    "typescript": f"    at {fn} ({path}:{line}:{r.randint(1, 60)})",
                    "go": f"{self.repo.name}/{path.rsplit('.', 1)[0]}.{fn}(...)\n"
                    f"\t/app/{path}:{line}",
                    "rust": f"   {r.randint(0, 30)}: {self.repo.name.replace('-', '_')}::{fn}\n"
                    f"             at ./{path}:{line}:{r.randint(1, 40)}",
                    "java": f"\tat com.acme.{self.cls()}.{fn}({path.rsplit('/', 1)[-1]}:{line})",
                }[lang]
            )
        if lang == "python":
            return "Traceback (most recent call last):\n" + "\n".join(frames) + f"\n{err}"
        if lang == "go":
            return f"{err}\n\ngoroutine {r.randint(1, 400)} [running]:\n" + "\n".join(frames)
        if lang == "rust":
            return f"{err}\nstack backtrace:\n" + "\n".join(frames)
        return f"{err}\n" + "\n".join(frames)

    def message(self) -> tuple[str, dict[str, Any]]:
        r = self.rng
        x = r.random()
        if x < 0.3:
            return self.fill(r.choice(vocab.QUESTIONS)), {"role": "user"}
        if x < 0.45:
            return self.fill(r.choice(vocab.DECISIONS)), {"role": "assistant", "decision": True}
        if x < 0.6:
            steps = "\n".join(
                f"{i}. {self.fill(r.choice(vocab.INTENTS))}" for i in range(1, r.randint(3, 5))
            )
            return f"Plan:\n{steps}", {"role": "assistant"}
        return self.fill(r.choice(vocab.STATUS)), {"role": r.choice(("user", "assistant"))}

    def node_event(self, kind: str) -> tuple[str, dict[str, Any]]:
        r = self.rng
        node = self.cls().replace("Service", "Node").replace("Manager", "Node")
        if kind == "node_start":
            return f"node {node} started with {self.noun()}={self.noun()}-{r.randint(1, 999)}", {}
        if kind == "node_end":
            return f"node {node} finished in {r.randint(20, 90000)}ms", {}
        return f"node {node} output: {self.words(r.randint(5, 15))} {self.fn()}", {}

    # -- capsules, pins and queries

    def intent(self) -> str:
        return self.fill(self.rng.choice(vocab.INTENTS))

    def summary(self, intent: str) -> str:
        r = self.rng
        touched = ", ".join(sorted(set(self.files[: r.randint(1, 4)])))
        outcome = (
            self.fill(r.choice(vocab.DECISIONS))
            if r.random() < 0.5
            else (
                f"Root cause was {self.error} in {self.fn()}."
                if r.random() < 0.5
                else f"Tests pass after changing {self.fn()}."
            )
        )
        nxt = self.fill(r.choice(vocab.INTENTS))
        return f"{intent[:1].upper()}{intent[1:]}. Touched {touched}. {outcome} Next: {nxt}."

    def pin_reason(self) -> str:
        return self.rng.choice(("root cause", "decision to keep", "do not regress", "TODO"))

    def query(self, cls: str) -> str:
        r = self.rng
        if cls == "word":
            return r.choice((self.noun(), self.common.pick(r), r.choice(vocab.ENGLISH_TAIL)))
        if cls == "identifier":
            return self.fn() if r.random() < 0.6 else self.cls()
        if cls == "path":
            path = self.file()
            return path if r.random() < 0.6 else path.rsplit("/", 1)[-1]
        if cls == "error":
            return self.error
        return self.fill(r.choice(vocab.QUESTIONS))

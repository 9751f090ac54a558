"""What a synthetic session is about: vocabulary pools, repositories, and one session's focus.

``Repo`` holds one repository's language and Zipf-weighted vocabulary (files, tests, modules,
functions, classes, dependencies); ``Context`` is one session's focus (a few files, functions
and classes it keeps coming back to) with the pickers and templates the renderers draw from:
``bench.shell`` (tool calls and commands with their output) and ``bench.content`` (every other
kind, summaries, pins and queries).

Must not import anything from Kindling.
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

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
    """One session's focus within a repository, and the pickers its renderers draw from."""

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

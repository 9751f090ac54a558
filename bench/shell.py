"""What a synthetic session's tool calls and shell commands say: reads, greps and globs; test
runs, git, docker and linters with their output, in each repository's language.

The renderers of ``bench.content`` for the ``tool_call`` and ``command`` kinds; each draws from
a ``Context`` (``bench.focus``) in a fixed order, so a seed gives the same text.

Must not import anything from Kindling.
"""

from __future__ import annotations

import random
from typing import Any

from bench import vocab
from bench.focus import Context


def _sha(rng: random.Random) -> str:
    return f"{rng.getrandbits(28):07x}"


def tool_call(ctx: Context) -> tuple[str, dict[str, Any]]:
    r = ctx.rng
    x = r.random()
    if x < 0.5:
        path = ctx.file()
        start = r.randint(1, 400)
        lines = "\n".join(ctx.code_line() for _ in range(r.randint(2, 8)))
        text = f"Read {path} (lines {start}-{start + r.randint(20, 120)})\n{lines}"
        return text, {"tool": "Read", "path": path}
    if x < 0.85:
        ident = ctx.fn() if r.random() < 0.7 else ctx.cls()
        hits = [
            f"{ctx.file()}:{r.randint(1, 900)}: {ctx.code_line().strip()}"
            for _ in range(r.randint(1, 6))
        ]
        text = f'Grep "{ident}"\n{len(hits)} matches\n' + "\n".join(hits)
        return text, {"tool": "Grep", "pattern": ident}
    path = ctx.file()
    pattern = path.rsplit("/", 1)[0] + "/**/*" + path[path.rfind(".") :]
    found = sorted({ctx.repo.files.pick(r) for _ in range(r.randint(2, 9))})
    return f"Glob {pattern}\n" + "\n".join(found), {"tool": "Glob", "pattern": pattern}


def command(ctx: Context) -> tuple[str, dict[str, Any]]:
    r = ctx.rng
    x = r.random()
    if x < 0.5:
        return test_run(ctx)
    if x < 0.75:
        return git(ctx)
    if x < 0.88:
        return docker(ctx)
    return lint(ctx)


def test_run(ctx: Context) -> tuple[str, dict[str, Any]]:
    r = ctx.rng
    lang, test, name = ctx.repo.lang, ctx.test(), ctx.test_name()
    failed = r.random() < 0.35
    n = r.randint(3, 60)
    secs = f"{r.uniform(0.1, 40):.2f}s"
    if lang == "python":
        cmd = f"pytest {test} -q"
        out = (
            f"FAILED {test}::{name} - {ctx.error}\n1 failed, {n} passed in {secs}"
            if failed
            else f"{n} passed in {secs}"
        )
    elif lang == "typescript":
        cmd = f"npm test -- {test}"
        out = (
            f" FAIL  {test} > {name}\n{ctx.error}\nTests  1 failed | {n} passed"
            if failed
            else f" ✓ {test} ({n} tests) {r.randint(5, 900)}ms\nTests  {n} passed"
        )
    elif lang == "go":
        pkg = test.rsplit("/", 1)[0]
        cmd = f"go test ./{pkg}/..."
        out = (
            f"--- FAIL: {name} ({secs})\n    {test.rsplit('/', 1)[1]}:{r.randint(10, 300)}: "
            f"{ctx.error}\nFAIL\tgithub.com/acme/{ctx.repo.name}/{pkg}\t{secs}"
            if failed
            else f"ok  \tgithub.com/acme/{ctx.repo.name}/{pkg}\t{secs}"
        )
    elif lang == "rust":
        cmd = f"cargo test {name}"
        out = (
            f"test {name} ... FAILED\n{ctx.error}\ntest result: FAILED. {n} passed; 1 failed"
            if failed
            else f"running {n} tests\ntest result: ok. {n} passed; 0 failed"
        )
    else:
        cmd = f"./gradlew test --tests {test.rsplit('/', 1)[1][:-5]}"
        out = (
            f"{name} FAILED\n    {ctx.error}\nTests run: {n}, Failures: 1, Errors: 0"
            if failed
            else f"BUILD SUCCESSFUL in {secs}\nTests run: {n}, Failures: 0"
        )
    return f"$ {cmd}\n{out}", {"command": cmd, "exitCode": 1 if failed else 0}


def git(ctx: Context) -> tuple[str, dict[str, Any]]:
    r = ctx.rng
    x = r.random()
    if x < 0.3:
        lines = [f"{_sha(r)} {ctx.words(r.randint(3, 7))}" for _ in range(5)]
        cmd = "git log --oneline -5"
        out = "\n".join(lines)
    elif x < 0.55:
        cmd = "git status --short"
        out = "\n".join(f" M {ctx.file()}" for _ in range(r.randint(1, 4)))
    elif x < 0.8:
        prefix = r.choice(("fix", "feat", "refactor", "test", "chore"))
        msg = f"{prefix}: {ctx.fill(r.choice(vocab.INTENTS))}"
        cmd = f'git commit -am "{msg}"'
        out = f"[{branch(ctx)} {_sha(r)}] {msg}\n {r.randint(1, 9)} files changed"
    else:
        cmd = "git diff --stat"
        out = "\n".join(f" {ctx.file()} | {r.randint(1, 80)} +++--" for _ in range(3))
    return f"$ {cmd}\n{out}", {"command": cmd, "exitCode": 0}


def branch(ctx: Context) -> str:
    return f"{ctx.rng.choice(('fix', 'feat', 'chore'))}/{ctx.noun()}-{ctx.noun()}"


def docker(ctx: Context) -> tuple[str, dict[str, Any]]:
    r = ctx.rng
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
        cmd = f"docker build -t {ctx.repo.name}:dev ."
        bad = r.random() < 0.2
        out = (
            f'ERROR: failed to solve: process "/bin/sh -c {install_cmd(ctx)}" did not '
            "complete successfully: exit code: 1"
            if bad
            else f"Successfully built {_sha(r)}\nSuccessfully tagged {ctx.repo.name}:dev"
        )
    return f"$ {cmd}\n{out}", {"command": cmd, "exitCode": 1 if bad else 0}


def install_cmd(ctx: Context) -> str:
    return {
        "python": "pip install -e .",
        "typescript": "npm ci",
        "go": "go mod download",
        "rust": "cargo build --release",
        "java": "./gradlew build",
    }[ctx.repo.lang]


def lint(ctx: Context) -> tuple[str, dict[str, Any]]:
    r = ctx.rng
    lang, path, line = ctx.repo.lang, ctx.file(), r.randint(1, 500)
    cmd, out = {
        "python": (
            "ruff check .",
            f"{path}:{line}:5: F841 Local variable `{ctx.noun()}` is assigned to but never used",
        ),
        "typescript": (
            "npx eslint src",
            f"{path}\n  {line}:9  error  '{ctx.noun()}' is "
            "assigned a value but never used  no-unused-vars",
        ),
        "go": ("go vet ./...", f"{path}:{line}:2: result of fmt.Errorf call not used"),
        "rust": (
            "cargo clippy -- -D warnings",
            f"warning: redundant clone\n  --> {path}:{line}:21",
        ),
        "java": (
            "./gradlew spotbugsMain",
            f"{path}:{line} NP_NULL_ON_SOME_PATH in {ctx.cls()}",
        ),
    }[lang]
    return f"$ {cmd}\n{out}", {"command": cmd, "exitCode": 1}

"""The optional extras stay optional: the core and the hooks import neither PostgreSQL nor the
server; the server and the remote client are adapters the core never sees."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import kindling

SRC = Path(kindling.__file__).parent
HEAVY = ("psycopg", "psycopg_pool", "starlette", "uvicorn", "httpx")
ADAPTERS = ("kindling.http", "kindling.client", "kindling.store.postgres")


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_core_and_hooks_never_import_the_extras_at_module_level() -> None:
    core = [
        p
        for name in (
            "model",
            "errors",
            "ids",
            "engine",
            "retrieval",
            "secrets",
            "spool",
            "hooks",
            "store",
        )
        for p in ((SRC / name).rglob("*.py") if (SRC / name).is_dir() else [SRC / f"{name}.py"])
        if "postgres" not in p.parts
    ]
    bad = {
        str(p.relative_to(SRC)): sorted(
            m
            for m in _imports(p)
            if m.split(".")[0] in HEAVY
            or m.startswith("kindling.http")
            # the hooks may use the remote client (remote mode); the core never does
            or (m.startswith("kindling.client") and "hooks" not in p.parts)
        )
        for p in core
    }
    assert {k: v for k, v in bad.items() if v} == {}


def test_importing_kindling_and_the_hooks_loads_no_extra() -> None:
    code = (
        "import sys, kindling, kindling.hooks, kindling.hooks.runner, kindling.engine;"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}"
        f" or m.startswith({ADAPTERS!r})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_server_and_remote_client_do_not_import_the_cli() -> None:
    for package in ("http", "client"):
        for path in (SRC / package).rglob("*.py"):
            assert not [m for m in _imports(path) if m.split(".")[:2] == ["kindling", "cli"]], path

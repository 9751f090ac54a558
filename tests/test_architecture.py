"""Layer rules, checked by reading imports: the core never imports adapters."""

from __future__ import annotations

import ast
from pathlib import Path

import kindling

SRC = Path(kindling.__file__).parent
CORE = ("model", "errors", "engine", "store", "retrieval", "capture")
ADAPTERS = ("kindling.cli", "kindling.hooks", "kindling.bridge", "kindling.mcp")


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def _core_files() -> list[Path]:
    files = []
    for name in CORE:
        target = SRC / name
        files.extend(target.rglob("*.py") if target.is_dir() else [target.with_suffix(".py")])
    return files


def test_core_never_imports_adapters() -> None:
    offenders = {
        str(path.relative_to(SRC)): sorted(
            m for m in _imports(path) if m.startswith(ADAPTERS) or m.startswith("click")
        )
        for path in _core_files()
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_retrieval_sees_the_store_only_through_its_protocol() -> None:
    for path in (SRC / "retrieval").rglob("*.py"):
        assert "kindling.store.sqlite" not in _imports(path), path


def test_store_does_not_import_retrieval_or_engine() -> None:
    for path in (SRC / "store").rglob("*.py"):
        bad = [m for m in _imports(path) if m.startswith(("kindling.retrieval", "kindling.engine"))]
        assert bad == [], path


def test_every_module_has_a_docstring() -> None:
    missing = [
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if ast.get_docstring(ast.parse(p.read_text())) is None and p.stat().st_size > 0
    ]
    assert missing == []


def test_modules_stay_small() -> None:
    big = {
        str(p.relative_to(SRC)): n
        for p in SRC.rglob("*.py")
        if (n := len(p.read_text().splitlines())) > 600
    }
    assert big == {}

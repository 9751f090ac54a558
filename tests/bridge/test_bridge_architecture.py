"""The bridge is an adapter: no SQL, and each module says what it must not import."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.paths import ROOT

SRC = ROOT / "src" / "kindling"


def _files(*parts: str) -> list[Path]:
    found: list[Path] = []
    for part in parts:
        target = SRC / part
        found.extend(sorted(target.rglob("*.py")) if target.is_dir() else [target])
    return found


def test_bridge_has_no_sql() -> None:
    # its imports are checked with every other module's in tests/docs/test_architecture.py
    for path in _files("bridge"):
        assert "SELECT " not in path.read_text(encoding="utf-8")


def test_modules_say_what_they_must_not_import() -> None:
    for path in [*_files("bridge"), SRC / "cli" / "commands" / "bridge.py"]:
        text = path.read_text(encoding="utf-8")
        doc = ast.get_docstring(ast.parse(text)) or ""
        assert "must not" in doc.lower(), path

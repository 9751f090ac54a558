"""Import rules of the bridge: an adapter over the library, never imported by the core."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "kindling"
CORE = ("model.py", "errors.py", "engine.py", "config.py", "store", "retrieval", "capture")


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def _files(*parts: str) -> list[Path]:
    found: list[Path] = []
    for part in parts:
        target = SRC / part
        found.extend(sorted(target.rglob("*.py")) if target.is_dir() else [target])
    return found


def test_core_never_imports_the_bridge_or_the_cli() -> None:
    for path in _files(*CORE):
        bad = {m for m in _imports(path) if m.startswith(("kindling.bridge", "kindling.cli"))}
        assert not bad, f"{path.relative_to(SRC)} imports {bad}"


def test_bridge_has_no_sql_and_no_cli() -> None:
    for path in _files("bridge"):
        imports = _imports(path)
        assert not {m for m in imports if m.startswith(("kindling.cli", "kindling.store"))}
        assert "sqlite3" not in imports
        assert "click" not in imports
        assert "SELECT " not in path.read_text(encoding="utf-8")


def test_modules_stay_small_and_say_what_they_must_not_import() -> None:
    for path in [*_files("bridge"), SRC / "cli" / "commands" / "bridge.py"]:
        text = path.read_text(encoding="utf-8")
        assert len(text.splitlines()) < 400, path
        doc = ast.get_docstring(ast.parse(text)) or ""
        assert "must not" in doc.lower(), path

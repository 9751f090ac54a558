"""bench/README.md's layout names every file of bench/ (docs cannot drift)."""

from __future__ import annotations

import fnmatch
import re

from tests.support.paths import ROOT

BENCH = ROOT / "bench"


def _named() -> set[str]:
    text = (BENCH / "README.md").read_text(encoding="utf-8")
    section = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`([^`\s]+)`", section))


def _covered(path: str, named: set[str]) -> bool:
    return any(
        path == name
        or (name.endswith("/") and path.startswith(name))
        or fnmatch.fnmatch(path, name)
        for name in named
    )


def test_the_layout_names_every_file() -> None:
    named = _named()
    files = [
        str(p.relative_to(BENCH))
        for p in sorted(BENCH.rglob("*"))
        if p.is_file()
        and p.suffix in (".py", ".json")
        and p.name != "__init__.py"
        and not {"out", "data", "__pycache__"} & set(p.relative_to(BENCH).parts[:-1])
    ]
    assert len(files) >= 30
    assert [f for f in files if not _covered(f, named)] == []


def test_the_coverage_check_sees_a_missing_file() -> None:
    named = {"latency.py", "quality/coding/", "quality/histories/*.json"}
    assert _covered("quality/coding/rules.py", named)
    assert _covered("quality/histories/edge-proxy.json", named)
    assert not _covered("shell.py", named)

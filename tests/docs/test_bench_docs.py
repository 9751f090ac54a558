"""bench/README.md's layout names every file of bench/, and docs/performance.md quotes real
benchmarks with real options (docs cannot drift)."""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

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


PERFORMANCE = ROOT / "docs" / "performance.md"


def _bench_commands(text: str) -> list[str]:
    """The benchmark commands a document quotes (a quote may wrap across lines)."""
    quoted = (" ".join(q.split()) for q in re.findall(r"`([^`]+)`", text))
    return [q for q in quoted if re.match(r"(python (-m bench\b|bench/)|bench/\S+\.py)", q)]


def _sources(command: str) -> list[Path]:
    words = command.split()
    if words[:2] == ["python", "-m"]:
        target = ROOT / Path(*words[2].split("."))
        if target.is_dir():
            return sorted(target.rglob("*.py"))
        return [target.with_suffix(".py")]
    script = words[1] if words[0] == "python" else words[0]
    return [ROOT / script]


def test_performance_quotes_real_benchmarks_and_options() -> None:
    commands = _bench_commands(PERFORMANCE.read_text(encoding="utf-8"))
    assert len(commands) >= 6
    for command in commands:
        sources = _sources(command)
        assert sources, command
        assert all(p.is_file() for p in sources), f"{command}: no such benchmark"
        text = "".join(p.read_text(encoding="utf-8") for p in sources)
        for option in re.findall(r"\s(--[a-z][a-z-]*)", command):
            assert f'"{option}"' in text, f"{command}: {option} is not an option of it"


def test_a_wrong_option_or_benchmark_is_seen() -> None:
    assert _bench_commands("`python -m bench --sizes\n 10k` and `bench/x.py --runs 2`") == [
        "python -m bench --sizes 10k",
        "bench/x.py --runs 2",
    ]
    assert not (ROOT / "bench" / "x.py").is_file()
    text = "".join(p.read_text(encoding="utf-8") for p in _sources("python -m bench"))
    assert '"--no-such-option"' not in text

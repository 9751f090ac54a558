"""Pure helpers of the CLI: durations, repo paths, relative times, progress, tables."""

from __future__ import annotations

import io
from pathlib import Path

import click
import pytest

from kindling.cli import render, shared

HOUR = 3_600_000


@pytest.mark.parametrize(
    ("text", "ms"),
    [("30m", 1_800_000), ("12h", 12 * HOUR), ("7d", 7 * 24 * HOUR), ("2w", 14 * 24 * HOUR)],
)
def test_durations(text: str, ms: int) -> None:
    assert shared.DURATION.convert(text, None, None) == ms


@pytest.mark.parametrize("text", ["5x", "0d", "-1h", "h", "1.5h", "", "7 days"])
def test_bad_durations_are_usage_errors(text: str) -> None:
    with pytest.raises(click.BadParameter):
        shared.DURATION.convert(text, None, None)


def test_canonical_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "proj" / ".git").mkdir(parents=True)
    (tmp_path / "proj" / "a" / "b").mkdir(parents=True)
    (tmp_path / "plain").mkdir()
    monkeypatch.chdir(tmp_path / "proj" / "a" / "b")
    root = str((tmp_path / "proj").resolve())
    assert shared.canonical_repo(".") == root
    assert shared.canonical_repo("..") == root
    assert shared.canonical_repo(str(tmp_path / "plain")) == str((tmp_path / "plain").resolve())
    assert shared.canonical_repo("webapp") == "webapp"
    assert shared.canonical_repo("org/webapp") == "org/webapp"


@pytest.mark.parametrize(
    ("delta", "text"),
    [
        (0, "just now"),
        (90_000, "1 min ago"),
        (3 * HOUR + 59 * 60_000, "3 h ago"),
        (2 * 24 * HOUR, "2 d ago"),
        (-7 * 24 * HOUR + 1_000, "in 7 d"),
        (-2 * HOUR, "in 2 h"),
    ],
)
def test_relative_times(delta: int, text: str) -> None:
    now = 1_767_225_600_000
    assert render.relative(now - delta, now) == text


def test_one_line_shortens_with_an_ellipsis() -> None:
    assert render.one_line("a\n  b\tc", 10) == "a b c"
    assert render.one_line("x" * 50, 10) == "x" * 9 + "…"


def test_table_aligns_columns() -> None:
    out = render.table(["ID", "TEXT"], [["a", "one"], ["bbb", "two"]], width=80)
    assert [click.unstyle(line) for line in out.splitlines()] == [
        "ID   TEXT",
        "a    one",
        "bbb  two",
    ]


def test_progress_only_on_a_terminal_and_never_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Tty()
    monkeypatch.setattr("sys.stderr", err)
    with shared.progress_for(10, "x", quiet=False) as step:
        step(10)
    with shared.progress_for(10_000, "x", quiet=True) as step:
        step(10_000)
    assert err.getvalue() == ""
    with shared.progress_for(10_000, "exporting", quiet=False) as step:
        step(10_000)
    assert "exporting" in err.getvalue()

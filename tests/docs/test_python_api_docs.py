"""docs/python-api.md runs: its ``python`` blocks, in order, as one script in a fresh
directory, each printing exactly the ``text`` block that follows it (docs cannot drift); and
its table of errors is the classes of ``kindling.errors``."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from kindling import errors
from tests.support.paths import ROOT

DOC = ROOT / "docs" / "python-api.md"
BLOCK = re.compile(r"```python\n(.*?)```\n(?:\n```text\n(.*?)```\n)?", re.S)


def blocks(text: str) -> list[tuple[str, str | None]]:
    return [(m.group(1), m.group(2)) for m in BLOCK.finditer(text)]


def test_every_example_runs_and_prints_what_the_page_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    found = blocks(DOC.read_text(encoding="utf-8"))
    assert len(found) >= 10
    namespace: dict[str, object] = {"__name__": "python_api_docs"}
    for number, (code, shown) in enumerate(found, start=1):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, f"docs/python-api.md, block {number}", "exec"), namespace)
        if shown is not None:
            assert out.getvalue() == shown, f"block {number} prints something else"


def test_a_block_whose_output_drifted_is_seen() -> None:
    text = "```python\nprint(1)\n```\n\n```text\n2\n```\n"
    [(code, shown)] = blocks(text)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {})
    assert out.getvalue() != shown


def test_the_error_table_is_the_error_classes() -> None:
    text = DOC.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| `(\w+)` \| (\d+) \|", text, re.M)
    documented = {name: (code, int(status)) for name, code, status in rows}
    real = {cls.__name__: (cls.code, cls.http_status) for cls in errors.wire_classes().values()}
    assert documented == real

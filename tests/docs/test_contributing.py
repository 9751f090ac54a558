"""CONTRIBUTING.md says what holds: every path it names exists, every ``make`` target it names
is in the Makefile, and every folder of tests (and of their helpers) is named in it."""

from __future__ import annotations

import re

from tests.support.paths import ROOT, TESTS

DOC = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")


def test_every_path_it_names_exists() -> None:
    named = set(re.findall(r"`((?:tests|src|docs|scripts|bench)/[^`*\s]*)`", DOC))
    assert named
    assert sorted(p for p in named if not (ROOT / p).exists()) == []


def test_every_make_target_it_names_is_in_the_makefile() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z]+):", makefile, re.M))
    named = set(re.findall(r"\bmake ([a-z]+)\b", DOC))
    assert named >= {"check", "test"}
    assert sorted(named - targets) == []


def test_every_test_folder_is_named() -> None:
    folders = {p.name for p in TESTS.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert sorted(f for f in folders if f"`tests/{f}" not in DOC) == []

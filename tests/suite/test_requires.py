"""The one rule for an absent resource (tests/support/requires.py): a skip in one line, a
failure under ``CI=true``; and the marker that states it, resolved in tests/conftest.py."""

from __future__ import annotations

import pytest

from tests.support import requires

pytest_plugins = ["pytester"]


def test_an_absent_resource_skips_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setitem(requires.RESOURCES, "node", lambda: "node not on PATH")
    with pytest.raises(pytest.skip.Exception, match=r"^needs node: node not on PATH$"):
        requires.require("node")


def test_under_ci_an_absent_resource_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    monkeypatch.setitem(requires.RESOURCES, "node", lambda: "node not on PATH")
    with pytest.raises(pytest.fail.Exception, match="needed under CI=true"):
        requires.require("node")


def test_a_present_resource_lets_the_test_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    monkeypatch.setitem(requires.RESOURCES, "node", lambda: None)
    requires.require("node")


def test_an_unknown_resource_is_a_mistake_not_a_skip() -> None:
    with pytest.raises(ValueError, match="unknown resource 'chrome'"):
        requires.missing("chrome")


MODULE = """
import pytest

@pytest.mark.requires("npm")
def test_needs_npm():
    pass
"""


@pytest.mark.parametrize(("ci", "outcome"), [("", "skipped"), ("true", "errors")])
def test_the_marker_is_resolved_by_the_conftest(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, ci: str, outcome: str
) -> None:
    monkeypatch.setenv("CI", ci)
    monkeypatch.setenv("PATH", "")  # no node, no npm
    pytester.makeconftest("from tests.conftest import pytest_runtest_setup  # noqa: F401\n")
    pytester.makeini("[pytest]\nmarkers =\n    requires: a resource\n")
    pytester.makepyfile(MODULE)
    result = pytester.runpytest_inprocess("-rs", "-p", "no:randomly", "-p", "no:xdist")
    result.assert_outcomes(**{outcome: 1})
    if outcome == "skipped":
        result.stdout.fnmatch_lines(["*needs npm: node and npm not on PATH*"])


POSTGRES_MODULE = """
import pytest

@pytest.fixture
def pg_url():
    return "postgresql://"

@pytest.mark.parametrize("store_backend", ["sqlite", "postgres"])
def test_on_each_backend(store_backend):
    pass

def test_takes_its_fixture(pg_url):
    pass

@pytest.mark.requires("postgres")
def test_says_so():
    pass

def test_in_process():
    pass
"""


def test_every_postgresql_test_is_marked_so_make_check_can_leave_it_out(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest("from tests.conftest import pytest_itemcollected  # noqa: F401\n")
    pytester.makeini("[pytest]\nmarkers =\n    requires: a resource\n    postgres: its server\n")
    pytester.makepyfile(POSTGRES_MODULE)
    result = pytester.runpytest_inprocess(
        "--collect-only", "-q", "-m", "not postgres", "-p", "no:randomly", "-p", "no:xdist"
    )
    collected = [line.split("::")[1] for line in result.outlines if "::" in line]
    assert collected == ["test_on_each_backend[sqlite]", "test_in_process"]

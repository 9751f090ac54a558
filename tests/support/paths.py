"""Where things are, whatever folder a test module sits in."""

from __future__ import annotations

from pathlib import Path

SUPPORT = Path(__file__).resolve().parent
TESTS = SUPPORT.parent  # tests/: data/, fixtures/, js/ live here
ROOT = TESTS.parent  # the repository

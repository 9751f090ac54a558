"""A shape of fixed length masks the letters and digits glued after it too (issue 32,
sixteenth pass): a key longer than its vendor's documented length (a new format, a dummy)
left its last characters in the clear (``ntn_<46>89`` became ``[REDACTED:notion_token]89``).
The rules loaded as data (``vendor_secret``) still stop where their pattern does.
"""

from __future__ import annotations

import re

import pytest

from kindling.secrets.scrub import scrub_secrets
from tests.support.secret_samples import FAMILIES, Family, Rand

_GLUED_TO_A_MASK = re.compile(r"\[REDACTED:(?!vendor_secret\])[a-z0-9_]+\][A-Za-z0-9]")
# Every family whose value is one token (a PEM block ends with its dashes: nothing is glued).
TOKENS = [f for f in FAMILIES if "-----END" not in f.value(Rand(7))]


@pytest.mark.parametrize("family", TOKENS, ids=lambda f: f.name)
@pytest.mark.parametrize("tail", ["Zq9x", "0", "abcDEF123"])
def test_letters_and_digits_glued_after_a_shape_are_masked_with_it(
    family: Family, tail: str
) -> None:
    value = family.value(Rand(7))
    out = scrub_secrets(f"the value {value}{tail} came back").text
    assert _GLUED_TO_A_MASK.search(out) is None, out

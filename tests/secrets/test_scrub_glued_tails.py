"""A shape of fixed length masks the letters and digits glued after it too (issue 32,
sixteenth pass): a key longer than its vendor's documented length (a new format, a dummy)
left its last characters in the clear (``ntn_<46>89`` became ``[REDACTED:notion_token]89``).
Since the seventeenth pass the rules loaded as data (``vendor_secret``: Google's, Databricks',
SonarQube's and Replicate's keys here) do too: every mask takes its whole token
(``secrets.scrub_masks``).
"""

from __future__ import annotations

import re

import pytest

from kindling.secrets.scrub import scrub_secrets
from tests.support.secret_samples import FAMILIES, Family, Rand

_GLUED_TO_A_MASK = re.compile(r"\[REDACTED:[a-z0-9_]+\][A-Za-z0-9]")
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


@pytest.mark.parametrize(
    "text",
    [
        "git clone https://{v}:x-oauth-basic@github.com/o/r",
        "export TOKEN={v}_FILE",
        "curl https://api.example.com/{v}/status",
        "the key {v}.",
        "KEY='{v}'",
    ],
)
def test_what_follows_a_mask_after_a_sign_is_kept(text: str) -> None:
    value = "ghp_" + "aB3dE5gH7jK9mN1pQ3rS5tU7vW9xY1zA2bC4"
    out = scrub_secrets(text.format(v=value)).text
    assert value not in out
    assert out == text.format(v="[REDACTED:github_token]"), out


def test_a_glued_tail_is_masked_wherever_the_mask_stands() -> None:
    """The tail of a copy of a masked value, and of a mask inside quotes (then its signs)."""
    value = "AIza" + "SyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"
    out = scrub_secrets(f'key = "{value}x9Q!" and again {value}x9Q').text
    assert "x9Q" not in out, out
    assert value not in out, out
    assert out.count("[REDACTED:") == 2, out

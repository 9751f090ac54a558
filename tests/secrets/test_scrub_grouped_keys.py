"""A key shown in groups of four after a secret's label (issue 32, fourteenth pass).

An authenticator's setup page shows a TOTP seed in groups (``Secret key: JBSW Y3DP EHPK 3PXP``,
``setup key: kdqw 4mzn ojxg s3lp``); read to an agent, the key rules took the first group
only as the value, and a group of four is no key's length. The groups after a secret's label
are one value now, masked whole when they read as a draw: a digit in half the groups at
least, not all digits, not spelled from words.

Values are drawn from a seed, never fixed fakes.
"""

from __future__ import annotations

import random

import pytest

from kindling.secrets.scrub import scrub_secrets

BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def _grouped(seed: int, groups: int = 4, lower: bool = False) -> str:
    rng = random.Random(seed)
    while True:
        parts = ["".join(rng.choice(BASE32) for _ in range(4)) for _ in range(groups)]
        if 2 * sum(any(c.isdigit() for c in p) for p in parts) >= len(parts):
            value = " ".join(parts)
            return value.lower() if lower else value


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(
    "shape",
    [
        "Secret key: {}",
        "Your setup key: {}\nThen enter the 6-digit code.",
        "seed = {}",
        "The key is {}.",
        "TOTP secret: {}",
    ],
)
def test_a_key_in_groups_after_a_secrets_label_is_masked(seed: int, shape: str) -> None:
    for value in (_grouped(seed), _grouped(seed, 8, lower=True)):
        out = scrub_secrets(shape.format(value)).text
        assert value not in out, out
        assert value.split(" ")[1] not in out, out  # (the whole run, not its first group)


@pytest.mark.parametrize(
    "text",
    [
        "key: this text here goes",
        "token: 2024 0101 1200 0000",
        "secret: ABCD EFGH IJKL MNOP",
        "the key is in the box 2024 now",
        "Card on file: 4242 4242 4242 4242",
    ],
)
def test_words_and_numbers_in_fours_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text

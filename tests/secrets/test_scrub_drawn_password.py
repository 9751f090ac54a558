"""A password drawn by a generator, with signs in it, standing alone (issue 32, eighth pass).

Password managers draw from letters, digits and ``!@#$%^&*`` (Bitwarden's and LastPass's
default signs). Such a password was masked after a password word, never alone: the signs
split it into pieces too short for the random-token rules. It is masked now when it holds two
signs and two digits among letters, no sign doubled, and reads as no version, URL encoding,
regular expression, exponent or marker.

Values are drawn from a seed, never fixed fakes.
"""

from __future__ import annotations

import itertools
import random
import re
import string

import pytest

from kindling.secrets.scrub import scrub_secrets

SIGNS = "!@#$%^&*"
SENTENCE = "the value {} came back from the call"


def _generated(n: int, seed: int, *, plain: bool = False) -> str:
    """A password as a manager draws it with "at least two digits and two signs" set
    (``plain``: none that spells a URL escape, ``%2F``, which the rate test counts)."""
    rng = random.Random(seed)
    while True:
        chars = [rng.choice(SIGNS), rng.choice(SIGNS), rng.choice(string.digits)]
        chars += [rng.choice(string.digits)]
        chars += [rng.choice(string.ascii_letters + string.digits + SIGNS) for _ in range(n - 4)]
        rng.shuffle(chars)
        value = "".join(chars)
        if any(a == b and a in SIGNS for a, b in itertools.pairwise(value)):
            continue
        if not (plain and re.search(r"%[0-9A-Fa-f]{2}", value)):
            return value


@pytest.mark.parametrize("n", [16, 20, 24, 32])
@pytest.mark.parametrize("seed", range(6))
def test_a_generated_password_with_signs_is_masked_alone(n: int, seed: int) -> None:
    value = _generated(n, seed * 100 + n, plain=True)
    for text in (SENTENCE.format(value), f'"{value}"', f"{value}\n", f"it is {value}."):
        out = scrub_secrets(text).text
        assert value not in out, out
        assert "[REDACTED:password]" in out


def test_most_draws_are_masked() -> None:
    """Not every draw (a draw may repeat a sign or spell a URL escape), but nearly all."""
    values = [_generated(20, 5000 + i) for i in range(300)]
    masked = sum(v not in scrub_secrets(SENTENCE.format(v)).text for v in values)
    assert masked >= 0.9 * len(values)


@pytest.mark.parametrize(
    "text",
    [
        "mail ada@example.com or ada+test@example.com today",
        "npm install package@^1.2.3-beta.1 --save",
        "x = alpha_quad_pos**2.0 + y",
        "#define PASTE npyv_round_s32_##SFX",
        "open file%20name%20with%2012.txt now",
        'with pytest.raises(Error, match="feasible.*-0.706.*"):',
        "'#initf90modhooks#': '/*initf90modhooks*/',",
        "ETEXTS*Ver.04.29.93*END*",
        "I have 2 apples & 3 pears! ok?",
        "'apiname': 'f2py_rout_#modulename#_#f90modulename#_#name#',",
        "'atomic unit of permittivity': 4*math.pi*epsilon0,",
        "echo $HOME$PATH and ${USER}@${HOST}",
        "see https://example.com/a?x=1&y=2#frag!",
        "perl -e 'print @ARGV[0..2]' and %ENV",
        "a#b!c 12",  # too short
    ],
)
def test_look_alikes_with_signs_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text

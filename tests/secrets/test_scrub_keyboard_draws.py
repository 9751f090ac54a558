"""A password drawn uniformly from the whole keyboard, standing alone (issue 32, nineteenth pass).

A generator that draws every character from letters, digits and all of the keyboard's signs
(KeePass, ``pwgen -sy``, ``openssl rand`` piped through ``tr``) puts a sign in about a third
of the places. The fourteenth pass's judge (``signs_in_draw``) reads a password with a few
signs strewn through it; at 16 characters such a draw leaves fewer than 12 letters and digits
to read, so it was masked alone about one time in four, and 20 characters about one in two.
``keyboard_draw`` judges the whole token: four signs or more, letters of both cases and a
digit, as varied as a draw, and nothing that code, a pattern, a name or markup holds.

Values are drawn from a seed, never fixed fakes; the look-alikes are written here.
"""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets

# The signs a sentence can hold around a token without splitting it (no quote, no backslash).
SIGNS = "".join(c for c in string.punctuation if c not in "\"'`\\")
ALPHABET = string.ascii_letters + string.digits + SIGNS
SENTENCE = "the value {} came back from the call"


def _draws(n: int, seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(ALPHABET) for _ in range(n)) for _ in range(count)]


@pytest.mark.parametrize(("n", "floor"), [(16, 0.45), (20, 0.6), (24, 0.7)])
def test_most_whole_keyboard_draws_are_masked_alone(n: int, floor: float) -> None:
    values = _draws(n, 1900 + n, 300)
    masked = sum(v not in scrub_secrets(SENTENCE.format(v)).text for v in values)
    assert masked >= floor * len(values), masked


def test_a_masked_draw_leaves_the_sentence_around_it() -> None:
    for value in _draws(20, 7, 200):
        out = scrub_secrets(SENTENCE.format(value)).text
        if value not in out:
            assert out.startswith("the value ")
            assert out.endswith(" came back from the call")
            assert "[REDACTED:" in out


@pytest.mark.parametrize(
    "text",
    [
        # Assembly and intrinsics: a call with its arguments, an immediate after ``#``.
        "R7:6=vaddw(R3:2,#u9) shifts each word",
        "Rd32=vmpy(Rs32,#s6) then store",
        "use __m256bh([BF16_TWO, ...]) here",
        # Markup: entities and tags around a type.
        "returns Vec&lt;Item&gt;(u32, <br>",
        "see <code>LEVEL=[2,</code> above",
        # A shell's variables and a placeholder, a template's doubled operator.
        "socat tcp4-l:$PORT,fork,$opts EXEC",
        "docker pull [IMAGE]@sha256:[DIGEST] first",
        "mask = 1<<SHIFT_BITS|0x4F; done",
        # snake_case and CONSTANT_CASE parts inside an expression.
        "x = (1/_norm_cdf_B)*(q/M2) + 7",
        # A pattern's class of letters and its group of alternatives; an index with a slice.
        "suffix = '([uUlLzZ]|ul|UL|([iI])(8|16|32))?'",
        "! work[NMAX+1:kend] is set to zero first",
    ],
)
def test_code_and_markup_with_signs_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


@given(st.text(alphabet=ALPHABET + " ", min_size=16, max_size=40))
@settings(max_examples=300, deadline=None)
def test_any_keyboard_text_is_scrubbed_without_error_and_settles(text: str) -> None:
    once = scrub_secrets(SENTENCE.format(text)).text
    assert scrub_secrets(once).text == once

"""Copies of masked values in a long text (issue 32, nineteenth pass).

After the rules, every other copy of each value they masked is masked too (a password a
command printed twice). Each value was looked for in the whole text, one at a time, so a text
holding thousands of masked values took time in their product (18 s for a MiB of random
tokens). Past a size, ``scrub_masks.mask_copies`` finds the values a text holds in one pass,
by their first characters, and replaces only those, longest first, as before.

Values are drawn from a seed, never fixed fakes.
"""

from __future__ import annotations

import random
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from kindling.secrets.scrub_masks import _held, mask_copies


def _password(rng: random.Random) -> str:
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(14))


@given(
    st.lists(st.text(alphabet="abcAB12-_", min_size=8, max_size=14), min_size=9, max_size=40),
    st.text(alphabet="abcAB12-_ ", min_size=0, max_size=400),
)
@settings(max_examples=300, deadline=None)
def test_the_values_a_text_holds_are_found_in_one_pass(values: list[str], noise: str) -> None:
    text = noise + " ".join(values[::3]) + noise
    assert _held(text, values, 8) == [v for v in values if v in text]


def test_copies_in_a_long_text_are_masked_as_in_a_short_one() -> None:
    rng = random.Random(19)
    values = {_password(rng) + _password(rng): "secret" for _ in range(400)}
    chosen = list(values)[::7]
    filler = [_password(rng) for _ in range(20_000)]
    text = " ".join(filler[:10_000] + chosen + filler[10_000:] + chosen)
    out = mask_copies(text, values, 8)
    assert all(v not in out for v in values)
    assert out.count("[REDACTED:secret]") == 2 * len(chosen)
    expected = text
    for value in sorted(values, key=len, reverse=True):
        expected = expected.replace(value, "[REDACTED:secret]")
    assert out == expected

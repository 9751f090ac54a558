"""Values drawn as a key generator draws them, for the secret tests' hypothesis strategies.

Each value is drawn from a seed, so every example looks as a generated credential does
(hypothesis would otherwise shrink towards ``0000AAAA``, which no issuer hands out).
"""

from __future__ import annotations

import random
import string

from hypothesis import strategies as st

ALNUM = string.ascii_letters + string.digits


def drawn(alphabet: str, n: int) -> st.SearchStrategy[str]:
    """``n`` characters of ``alphabet``, drawn at random from a seed."""

    def draw(seed: int) -> str:
        rng = random.Random(seed)
        return "".join(rng.choice(alphabet) for _ in range(n))

    return st.integers(0, 2**32).map(draw)


def mixed(n: int, *, upper: bool = False) -> st.SearchStrategy[str]:
    """``n`` letters and digits with a digit and a letter (an upper-case one with ``upper``)."""
    letter = str.isupper if upper else str.isalpha
    return drawn(ALNUM, n).filter(
        lambda v: any(c.isdigit() for c in v) and any(letter(c) for c in v)
    )

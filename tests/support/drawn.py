"""Values drawn as a key generator draws them, for the secret tests' hypothesis strategies.

Each value is drawn from a seed, so every example looks as a generated credential does
(hypothesis would otherwise shrink towards ``0000AAAA``, which no issuer hands out).
"""

from __future__ import annotations

import random
import re
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


# Shapes a typed value can take that read as a name or a placeholder, not a secret, and that
# the scrubber leaves by design: a constant's name (``TO_KEN``), an attribute or a file's name
# (``a0.PW_``, ``a00.PW``), a slug (``a0-a-ala``, a resource's name), one character repeated
# (``aaaaaaaa``) or an end x'd out (``a0xxxxx``).
_NAME_SHAPES = re.compile(
    r"[A-Z][A-Z0-9_]*+|[A-Za-z_]\w*+(?:\.\w++)++|[\w-]++\.[A-Za-z]{1,4}"
    r"|[a-z0-9]++(?:-[a-z0-9]++)++|(\w)\1{7,}+|[\w-]{1,12}?(?:x{5,}|X{5,})",
    re.ASCII,
)


def not_a_name(value: str) -> bool:
    """False for a value shaped as a constant's, an attribute's, a file's or a resource's
    name."""
    return _NAME_SHAPES.fullmatch(value) is None

"""Vectors as bytes, and their cosine: pure, exact, the same on every machine.

A vector is stored as int8 (one byte a dimension): the normalised vector scaled so that its
largest component is 127, rounded. Cosine is computed from the integers (an exact dot product,
then one float division), so the same stored vectors and question give the same value
whatever the CPU or BLAS; quantising costs about 0.001 of cosine.

Must not import anything from Kindling.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Sequence

SCALE = 127


def encode(vector: Sequence[float]) -> bytes:
    """int8 bytes of ``vector`` (any scale; only its direction is kept)."""
    peak = max((abs(v) for v in vector), default=0.0)
    if peak == 0 or not math.isfinite(peak):
        return bytes(len(vector))
    return array("b", (max(-SCALE, min(SCALE, round(v / peak * SCALE))) for v in vector)).tobytes()


def decode(blob: bytes) -> array[int]:
    values = array("b")
    values.frombytes(blob)
    return values


def cosine(a: bytes, b: bytes) -> float:
    """Cosine of two encoded vectors (0.0 when either is zero or their lengths differ)."""
    if len(a) != len(b) or not a:
        return 0.0
    x, y = decode(a), decode(b)
    dot = sum(p * q for p, q in zip(x, y, strict=True))
    norm = math.sqrt(sum(p * p for p in x) * sum(q * q for q in y))
    return dot / norm if norm else 0.0

"""placeholder"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class UnionSettings:
    neighbours: int = 10
    weight: float = 0.3
    floor: int = 10


DEFAULT_UNION = UnionSettings()

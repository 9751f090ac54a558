"""The semantic signal's seam in retrieval: what the provider asks of it, and how its answer
becomes one more named multiplier (``semantic``) of the score.

The signal re-ranks the lexical candidates; the union of nearest neighbours
(``retrieval.union``) is an option that adds candidates of its own. Its value is
the cosine similarity of the question and the item (clamped to [0, 1]) as the scorer reports it,
rounded here to ``ROUND`` places before anything is multiplied, so the same stored vectors and
question give the same bytes. An item without a vector yet (the indexer has not reached it) gets
the median of the candidates that have one: it ranks lexically, neither helped nor hurt.

Nothing here imports the extra: ``SemanticScorer`` is a Protocol that ``kindling.semantic``
implements (model, vectors, cosine). Without a scorer the provider is exactly the lexical one.

Must not import anything from Kindling except ``model``, ``retrieval`` and ``store``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from kindling.model import TargetType
from kindling.retrieval.scoring import Signal

# How much a candidate with no similarity to the question can lose (0.6: a hit at cosine 0
# keeps 40 % of its score, one at cosine 1 all of it). Chosen on tuning data only (issue 35:
# the free-question set's tuning part and the Molweni set's, all-MiniLM-L6-v2): 0.6 was best on
# both, against 0.3 (docs/semantic.md). Issue 20's earlier choice of 0.3 had looked at held-out
# sets of that time (buried, with another ranking), where 0.6 had lost.
SEMANTIC_WEIGHT = 0.6
ROUND = 4
NAME = "semantic"


class SemanticScorer(Protocol):
    """Cosine similarities of a question and stored items (``kindling.semantic`` has one)."""

    @property
    def model(self) -> str: ...

    def similarities(
        self, query: str, items: Sequence[tuple[TargetType, str]]
    ) -> dict[tuple[TargetType, str], float]:
        """Similarity in [-1, 1] of ``query`` and each item that has a vector (others are
        left out)."""
        ...


def semantic_values(
    scorer: SemanticScorer, query: str, items: Sequence[tuple[TargetType, str]]
) -> dict[tuple[TargetType, str], float]:
    """Every item's signal value in [0, 1], rounded; items without a vector get the median."""
    if not items or not query.strip():
        return {}
    raw = scorer.similarities(query, items)
    if not raw:
        return {}
    found = {k: round(min(1.0, max(0.0, v)), ROUND) for k, v in raw.items()}
    fill = _median(found.values())
    return {item: found.get(item, fill) for item in items}


def semantic_signal(value: float | None, weight: float = SEMANTIC_WEIGHT) -> tuple[Signal, ...]:
    """The named multiplier of one hit (none when the signal is off)."""
    return () if value is None else (Signal(NAME, value, weight),)


def _median(values: Iterable[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[mid]
    return round((ordered[mid - 1] + ordered[mid]) / 2, ROUND)

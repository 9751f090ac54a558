"""Token budgeting: estimate sizes and cut the evictable tier. Pure.

Pins and the current summary are never cut; candidates are added in rank order until the next
one does not fit (then the rest are dropped, even smaller ones: rank order is the contract).

Must not import anything from Kindling.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


class Tokenizer(Protocol):
    """Counts tokens in a text. Swap in a model's tokenizer for exact budgets."""

    def count(self, text: str) -> int: ...


class CharTokenizer:
    """The contract's estimate: one token per four characters, rounded up."""

    def count(self, text: str) -> int:
        return math.ceil(len(text) / 4)


@dataclass(frozen=True, slots=True)
class BudgetOutcome:
    """How many candidates fit the budget, and the tokens used."""

    kept: int  # how many candidates (a prefix, in rank order) fit
    tokens_used: int  # fixed tiers plus kept candidates
    truncated: bool  # True exactly when a candidate was cut


def fit_to_budget(
    fixed_tokens: int, candidate_tokens: Sequence[int], budget: int | None
) -> BudgetOutcome:
    used = fixed_tokens
    if budget is None:
        return BudgetOutcome(len(candidate_tokens), used + sum(candidate_tokens), False)
    kept = 0
    for tokens in candidate_tokens:
        if used + tokens > budget:
            break
        used += tokens
        kept += 1
    return BudgetOutcome(kept, used, kept < len(candidate_tokens))

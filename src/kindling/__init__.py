"""Kindling: local memory and continuity for AI-assisted software development.

The curated public API; everything else is internal and may change.
"""

from typing import TYPE_CHECKING, Any

from kindling.engine import Kindling
from kindling.errors import (
    ConflictError,
    DatabaseLockedError,
    InvalidInputError,
    KindlingError,
    NotFoundError,
    SchemaError,
    StoreError,
)
from kindling.model import (
    CandidateResult,
    Capsule,
    Explanation,
    Memory,
    MemoryFields,
    MemoryMatch,
    NewObservation,
    Observation,
    Pin,
    PinResult,
    RetrieveProvenance,
    RetrieveResult,
    Scope,
    Summary,
    SummaryDetails,
)

if TYPE_CHECKING:
    from kindling.retrieval.budget import CharTokenizer, Tokenizer
    from kindling.retrieval.provider import (
        LocalFtsProvider,
        ProviderHit,
        ProviderRequest,
        RetrievalProvider,
    )
    from kindling.retrieval.scoring import DEFAULT_WEIGHTS, ScoringWeights

# Retrieval names load on first use, so capture-only callers (hooks) start faster.
_LAZY = {
    "CharTokenizer": "kindling.retrieval.budget",
    "Tokenizer": "kindling.retrieval.budget",
    "LocalFtsProvider": "kindling.retrieval.provider",
    "ProviderHit": "kindling.retrieval.provider",
    "ProviderRequest": "kindling.retrieval.provider",
    "RetrievalProvider": "kindling.retrieval.provider",
    "DEFAULT_WEIGHTS": "kindling.retrieval.scoring",
    "ScoringWeights": "kindling.retrieval.scoring",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'kindling' has no attribute {name!r}")


__all__ = [
    "DEFAULT_WEIGHTS",
    "CandidateResult",
    "Capsule",
    "CharTokenizer",
    "ConflictError",
    "DatabaseLockedError",
    "Explanation",
    "InvalidInputError",
    "Kindling",
    "KindlingError",
    "LocalFtsProvider",
    "Memory",
    "MemoryFields",
    "MemoryMatch",
    "NewObservation",
    "NotFoundError",
    "Observation",
    "Pin",
    "PinResult",
    "ProviderHit",
    "ProviderRequest",
    "RetrievalProvider",
    "RetrieveProvenance",
    "RetrieveResult",
    "SchemaError",
    "Scope",
    "ScoringWeights",
    "StoreError",
    "Summary",
    "SummaryDetails",
    "Tokenizer",
]
__version__ = "0.1.0"

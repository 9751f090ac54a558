"""Kindling: local memory and continuity for AI-assisted software development.

The curated public API; everything else is internal and may change.
"""

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
    Observation,
    Pin,
    PinResult,
    RetrieveProvenance,
    RetrieveResult,
    Scope,
    Summary,
)
from kindling.retrieval.budget import CharTokenizer, Tokenizer
from kindling.retrieval.provider import (
    LocalFtsProvider,
    ProviderHit,
    ProviderRequest,
    RetrievalProvider,
)
from kindling.retrieval.scoring import DEFAULT_WEIGHTS, ScoringWeights

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
    "Tokenizer",
]
__version__ = "0.1.0"

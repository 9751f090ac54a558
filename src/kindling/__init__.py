"""Kindling: local memory and continuity for AI-assisted software development.

The curated public API; everything else is internal and may change.
"""

# Every name loads on first use: ``import kindling`` costs nothing, so the hook path
# (``kindling hook``, which must start in a few milliseconds) pays only for what it uses.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.engine import Kindling
    from kindling.entry import connect
    from kindling.errors import (
        ConflictError,
        DatabaseLockedError,
        InvalidInputError,
        KindlingError,
        NotFoundError,
        SchemaError,
        StoreError,
    )
    from kindling.memory import Memory
    from kindling.model import (
        CandidateResult,
        Capsule,
        ChatMemory,
        ChatMemoryFields,
        ChatMemoryMatch,
        Explanation,
        Item,
        Items,
        LocalStatus,
        NewObservation,
        Observation,
        Pin,
        PinResult,
        RetrieveProvenance,
        RetrieveResult,
        Scope,
        ServerStatus,
        Summary,
        SummaryDetails,
        Timeline,
    )
    from kindling.retrieval.budget import CharTokenizer, Tokenizer
    from kindling.retrieval.provider import (
        LocalFtsProvider,
        ProviderHit,
        ProviderRequest,
        RetrievalProvider,
    )
    from kindling.retrieval.scoring import DEFAULT_WEIGHTS, ScoringWeights

_ERRORS = "ConflictError DatabaseLockedError InvalidInputError KindlingError NotFoundError"
_MODEL = (
    "CandidateResult Capsule ChatMemory ChatMemoryFields ChatMemoryMatch Explanation Item Items"
    " LocalStatus NewObservation Observation Pin PinResult RetrieveProvenance RetrieveResult Scope"
    " ServerStatus Summary SummaryDetails Timeline"
)
_LAZY = {
    "Kindling": "kindling.engine",
    "Memory": "kindling.memory",
    "connect": "kindling.entry",
    **dict.fromkeys((_ERRORS + " SchemaError StoreError").split(), "kindling.errors"),
    **dict.fromkeys(_MODEL.split(), "kindling.model"),
    "CharTokenizer": "kindling.retrieval.budget",
    "Tokenizer": "kindling.retrieval.budget",
    "LocalFtsProvider": "kindling.retrieval.provider",
    "ProviderHit": "kindling.retrieval.provider",
    "ProviderRequest": "kindling.retrieval.provider",
    "RetrievalProvider": "kindling.retrieval.provider",
    "DEFAULT_WEIGHTS": "kindling.retrieval.scoring",
    "ScoringWeights": "kindling.retrieval.scoring",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value  # later lookups skip this function
        return value
    raise AttributeError(f"module 'kindling' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "DEFAULT_WEIGHTS",
    "CandidateResult",
    "Capsule",
    "CharTokenizer",
    "ChatMemory",
    "ChatMemoryFields",
    "ChatMemoryMatch",
    "ConflictError",
    "DatabaseLockedError",
    "Explanation",
    "InvalidInputError",
    "Item",
    "Items",
    "Kindling",
    "KindlingError",
    "LocalFtsProvider",
    "LocalStatus",
    "Memory",
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
    "ServerStatus",
    "StoreError",
    "Summary",
    "SummaryDetails",
    "Timeline",
    "Tokenizer",
    "connect",
]
__version__ = "0.1.0"

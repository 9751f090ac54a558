"""Kindling: local memory and continuity for AI-assisted software development."""

from kindling.errors import (
    ConflictError,
    DatabaseLockedError,
    InvalidInputError,
    KindlingError,
    NotFoundError,
    SchemaError,
    StoreError,
)
from kindling.model import Scope

__all__ = [
    "ConflictError",
    "DatabaseLockedError",
    "InvalidInputError",
    "KindlingError",
    "NotFoundError",
    "SchemaError",
    "Scope",
    "StoreError",
]
__version__ = "0.1.0"

"""The one exception tree of Kindling.

Every error a caller can see is a ``KindlingError``. Each class has a stable ``code`` that JSON
outputs (CLI ``--json``, bridge, MCP) expose verbatim, and every message says what was wrong and
how to fix it. Adapters turn these into one-line messages; they never show a traceback for them.

Tree::

    KindlingError                      code
    ├── InvalidInputError              invalid_input      the caller passed a bad value
    ├── NotFoundError                  not_found          an id that does not exist
    ├── ConflictError                  conflict           valid input that the current state forbids
    ├── SchemaError                    schema             the database schema cannot be used
    ├── SemanticError                  semantic           the semantic extra or its model is missing
    └── StoreError                     store              the database failed (locked, corrupt, I/O)
        ├── DatabaseLockedError        database_locked    still locked after the busy timeout
        └── DamagedDatabaseError       database_damaged   fails SQLite's quick check

Must not import anything from Kindling.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # ``typing`` costs every hook process 3 ms at import (they import this)
    from typing import ClassVar

__all__ = [
    "ConflictError",
    "DamagedDatabaseError",
    "DatabaseLockedError",
    "InvalidInputError",
    "KindlingError",
    "NotFoundError",
    "SchemaError",
    "SemanticError",
    "StoreError",
]


class KindlingError(Exception):
    """Root of every error Kindling raises on purpose."""

    code: ClassVar[str] = "kindling_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def to_dict(self) -> dict[str, str]:
        """The JSON error object adapters print: ``{"code": ..., "message": ...}``."""
        return {"code": self.code, "message": self.message}


class InvalidInputError(KindlingError, ValueError):
    """A value the caller passed is not acceptable (bad kind, blank content, ...)."""

    code = "invalid_input"


class NotFoundError(KindlingError, LookupError):
    """An id that names no entity in this store."""

    code = "not_found"


class ConflictError(KindlingError):
    """A valid request that the current state forbids (closing a closed capsule, ...)."""

    code = "conflict"


class SchemaError(KindlingError):
    """The database's schema is newer than this Kindling, or not a Kindling database."""

    code = "schema"


class SemanticError(KindlingError):
    """The optional semantic signal cannot run: its extra is not installed, or a model file is
    missing or not the pinned one. The message names what and how to fix it."""

    code = "semantic"


class StoreError(KindlingError):
    """The database itself failed: I/O error, corruption, or a file that is not SQLite."""

    code = "store"


class DatabaseLockedError(StoreError):
    """Another process held the write lock for longer than the busy timeout."""

    code = "database_locked"


class DamagedDatabaseError(StoreError):
    """The database file fails SQLite's checks; nothing is written to it."""

    code = "database_damaged"

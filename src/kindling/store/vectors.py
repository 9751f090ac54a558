"""The vector verbs of a store (the optional semantic signal, ``kindling.semantic``).

A vector belongs to one observation or summary and to one model (``model`` names the model and
its revision). Vectors live in their own tables (SQLite migration 14, PostgreSQL migration 10)
whose rows the schema removes with their text: a foreign key deletes them with the row, and a
trigger deletes them when the row is forgotten or its text changes. So forgetting needs no
vector code, and a vector never outlives the words it was computed from.

Both backends implement ``VectorStore`` beside ``Store``; nothing here imports the extra.

Must not import anything from Kindling except ``model``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from kindling.model import Scope

VectorTarget = Literal["observation", "summary"]


@dataclass(frozen=True, slots=True)
class Unembedded:
    """A row that has no vector of the model yet: what the indexer embeds."""

    target_type: VectorTarget
    id: str
    ts: int
    content: str


@dataclass(frozen=True, slots=True)
class VectorRow:
    """One vector to store (``vector`` in the codec of ``kindling.semantic.codec``)."""

    target_type: VectorTarget
    id: str
    vector: bytes


@dataclass(frozen=True, slots=True)
class ScopedVector:
    """A stored vector of a row in a scope (what a nearest-neighbour search compares)."""

    target_type: VectorTarget
    id: str
    session_id: str | None  # the row's session (a summary's: its capsule's)
    ts: int  # when the row was recorded (a summary: written)
    vector: bytes


@dataclass(frozen=True, slots=True)
class Coverage:
    """How much of a store has vectors of one model (forgotten rows count in neither)."""

    model: str
    observations: int
    observations_embedded: int
    summaries: int
    summaries_embedded: int

    @property
    def total(self) -> int:
        return self.observations + self.summaries

    @property
    def embedded(self) -> int:
        return self.observations_embedded + self.summaries_embedded

    @property
    def share(self) -> float:
        return round(self.embedded / self.total, 4) if self.total else 1.0

    def to_dict(self) -> dict[str, str | int | float]:
        return {
            "model": self.model,
            "observations": self.observations,
            "observationsEmbedded": self.observations_embedded,
            "summaries": self.summaries,
            "summariesEmbedded": self.summaries_embedded,
            "coverage": self.share,
        }


@runtime_checkable
class VectorStore(Protocol):
    """Vector verbs: read a candidate set's vectors, store new ones, list what is missing."""

    def vectors_of(
        self, model: str, target_type: VectorTarget, ids: Sequence[str]
    ) -> dict[str, bytes]:
        """The stored vectors of ``model`` for those of ``ids`` that have one."""
        ...

    def put_vectors(self, model: str, rows: Sequence[VectorRow]) -> int:
        """Store vectors (replacing another model's); a row forgotten meanwhile gets none.
        Returns how many were stored."""
        ...

    def unembedded(
        self,
        model: str,
        target_type: VectorTarget,
        *,
        limit: int,
        before: tuple[int, str] | None = None,
    ) -> list[Unembedded]:
        """Rows without a vector of ``model``, newest first (then id descending), at most
        ``limit``, strictly after ``before`` = (ts, id) in that order. Forgotten rows never."""
        ...

    def scope_vectors(
        self,
        model: str,
        scope: Scope,
        *,
        until: int | None = None,
        exclude_ids: Sequence[str] = (),
    ) -> list[ScopedVector]:
        """Every vector of ``model`` whose row is in ``scope`` (the same filter as the text
        search: observations by their own scope, summaries by their capsule's), recorded by
        ``until`` when given, not in ``exclude_ids``; ordered by (target type, id)."""
        ...

    def vectors_version(self) -> object | None:
        """A value that changes whenever anything may have been written to the database since
        it was last read (by this connection or another), for a reader that keeps vectors in
        memory; None when the backend cannot tell cheaply (then nothing is kept)."""
        ...

    def vector_coverage(self, model: str) -> Coverage: ...

    def has_vectors(self, model: str) -> bool:
        """Whether any row has a vector of ``model`` (cheap: retrieval asks it)."""
        ...

    def vector_models(self) -> dict[str, int]:
        """Every model with stored vectors, and how many."""
        ...

"""The semantic signal the provider calls (``retrieval.semantic.SemanticScorer``): the question's
vector against the stored vectors of the candidates, as exact integer cosines.

The model loads on the first question (0.3-1.5 s), never when a store opens, so a process that
only captures never pays for it. Question vectors are kept for the last ``QUERY_CACHE``
questions. A question is embedded on several BLAS threads (``threads.for_question``): it is
what a user waits for.

Must not import anything from Kindling except ``errors``, ``model``, ``store`` and ``semantic``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from kindling.model import Scope, TargetType
from kindling.semantic import codec, threads
from kindling.semantic.encoder import numpy_module
from kindling.store.vectors import ScopedVector, VectorStore

QUERY_CACHE = 64
# The scopes' vectors kept in memory, as int8 (384 bytes a row for MiniLM), at most this many
# bytes together (the least recently used scope goes first).
SCOPE_CACHE_BYTES = 256 << 20


@dataclass(frozen=True, slots=True)
class _ScopeRows:
    """Every stored vector of one scope, as an int8 matrix (compared in float32: exact, see
    ``nearest``)."""

    version: object | None
    keys: list[tuple[TargetType, str, str | None]]  # type, id, session
    ts: Any  # int64 [n]
    matrix: Any  # int8 [n, dim]
    norms: Any  # float64 [n]
    dim: int

    @property
    def nbytes(self) -> int:
        return int(self.matrix.nbytes) + int(self.ts.nbytes) + 100 * len(self.keys)

    @staticmethod
    def of(rows: Sequence[ScopedVector], version: object | None) -> _ScopeRows:
        np = numpy_module()
        dim = len(rows[0].vector)
        rows = [r for r in rows if len(r.vector) == dim]
        m = np.frombuffer(b"".join(r.vector for r in rows), dtype=np.int8).reshape(len(rows), dim)
        wide = m.astype(np.float32)
        return _ScopeRows(
            version,
            [(r.target_type, r.id, r.session_id) for r in rows],
            np.array([r.ts for r in rows], dtype=np.int64),
            m,
            np.einsum("ij,ij->i", wide, wide).astype(np.float64),
            dim,
        )

    def cosines(self, query: bytes) -> Any:
        """Exact cosines of ``query`` and every row (``nearest``'s arithmetic)."""
        np = numpy_module()
        q = np.frombuffer(query, dtype=np.int8).astype(np.float32)
        dots = (self.matrix.astype(np.float32) @ q).astype(np.float64)
        norms = self.norms * float(q @ q)
        return np.where(norms > 0, dots / np.sqrt(np.where(norms > 0, norms, 1.0)), 0.0)


class TextEncoder(Protocol):
    """What the scorer and the indexer need of a model (``encoder.Encoder`` is one)."""

    @property
    def model(self) -> str: ...

    def encode(self, texts: Sequence[str], *, batch: int = 16) -> Sequence[Any]: ...


class VectorScorer:
    """Cosine of the question and each candidate's stored vector of this model."""

    def __init__(
        self,
        store: VectorStore,
        load: Callable[[], TextEncoder],
        model: str,
        *,
        question_threads: Callable[[], int | None] = threads.for_question,
    ) -> None:
        self.store = store
        self._load = load
        self.question_threads = question_threads  # BLAS threads for a question (benchmarks vary it)
        self._encoder: TextEncoder | None = None
        self._model = model
        self._queries: OrderedDict[str, bytes] = OrderedDict()
        self._scopes: OrderedDict[tuple[tuple[str, str], ...], _ScopeRows] = OrderedDict()
        self._lock = threading.Lock()  # `kindling serve` asks from several threads

    @property
    def model(self) -> str:
        return self._model

    @property
    def encoder(self) -> TextEncoder:
        with self._lock:
            if self._encoder is None:
                self._encoder = self._load()
            return self._encoder

    def query_vector(self, query: str) -> bytes:
        with self._lock:
            found = self._queries.get(query)
            if found is not None:
                self._queries.move_to_end(query)
                return found
        encoder = self.encoder
        with threads.blas_threads(self.question_threads()):
            vector = encoder.encode([query])[0]
        found = codec.encode([float(x) for x in vector])
        with self._lock:
            self._queries[query] = found
            if len(self._queries) > QUERY_CACHE:
                self._queries.popitem(last=False)
        return found

    def neighbours(
        self,
        query: str,
        scope: Scope,
        *,
        limit: int,
        until: int | None,
        exclude_ids: Sequence[str],
    ) -> list[tuple[TargetType, str, str | None, float]]:
        """The ``limit`` items of ``scope`` closest to ``query`` (``retrieval.union``): every
        stored vector of the scope compared, exactly (see ``nearest``). A scope's vectors are
        kept in memory (the recently used scopes, ``SCOPE_CACHE_BYTES`` together) while the
        store says nothing was written since (``vectors_version``); a backend that cannot say
        is read every time."""
        if limit <= 0:
            return []
        rows = self._scope_rows(scope)
        if rows is None:
            return []
        q = self.query_vector(query)
        if len(q) != rows.dim:
            return []
        np = numpy_module()
        cos = rows.cosines(q)
        if until is not None:
            cos = np.where(rows.ts <= until, cos, -np.inf)
        gone = set(exclude_ids)
        # the best limit + len(gone) by (cosine desc, index): enough once the excluded are out
        take = min(limit + len(gone), len(cos))
        if take < len(cos):  # every row at least as close as the take-th (ties all in)
            kth = -np.partition(-cos, take - 1)[take - 1]
            top = np.nonzero(cos >= kth)[0]
        else:
            top = np.arange(len(cos))
        top = top[np.lexsort((top, -cos[top]))]
        out = []
        for i in top.tolist():
            if cos[i] == -np.inf or rows.keys[i][1] in gone:
                continue
            out.append((*rows.keys[i], float(cos[i])))
        return out[:limit]

    def _scope_rows(self, scope: Scope) -> _ScopeRows | None:
        version = self.store.vectors_version()
        key = tuple(scope.items())
        with self._lock:
            cached = self._scopes.get(key)
            if cached is not None and version is not None and cached.version == version:
                self._scopes.move_to_end(key)
                return cached
        found = self.store.scope_vectors(self._model, scope)
        if not found:
            return None
        rows = _ScopeRows.of(found, version)
        if version is not None:
            with self._lock:
                self._scopes[key] = rows
                while sum(r.nbytes for r in self._scopes.values()) > SCOPE_CACHE_BYTES:
                    self._scopes.popitem(last=False)
        return rows

    def clear_cache(self) -> None:
        """Forget the question vectors (benchmarks time the model this way)."""
        with self._lock:
            self._queries.clear()

    def clear_scopes(self) -> None:
        """Forget the scopes' vectors kept in memory (benchmarks time the read this way)."""
        with self._lock:
            self._scopes.clear()

    def similarities(
        self, query: str, items: Sequence[tuple[TargetType, str]]
    ) -> dict[tuple[TargetType, str], float]:
        stored: dict[tuple[TargetType, str], bytes] = {}
        for target in ("observation", "summary"):
            ids = [i for t, i in items if t == target]
            if ids:
                found = self.store.vectors_of(self._model, target, ids)
                stored.update(((target, k), v) for k, v in found.items())
        if not stored:
            return {}
        return cosines(self.query_vector(query), stored)


def nearest(query: bytes, vectors: Sequence[bytes], limit: int) -> list[tuple[int, float]]:
    """(index, cosine) of the ``limit`` vectors closest to ``query``, best first, ties by
    index. Exact: int8 products and their sums are integers below 2^24 (at most 1,024
    dimensions), which float32 holds exactly, so BLAS's order of summation cannot change them."""
    np = numpy_module()
    if not vectors:
        return []
    dim = len(query)
    q = np.frombuffer(query, dtype=np.int8).astype(np.float32)
    m = np.frombuffer(b"".join(vectors), dtype=np.int8).reshape(len(vectors), dim)
    m = m.astype(np.float32)
    dots = (m @ q).astype(np.float64)
    norms = np.einsum("ij,ij->i", m, m).astype(np.float64) * float(q @ q)
    cos = np.where(norms > 0, dots / np.sqrt(np.where(norms > 0, norms, 1.0)), 0.0)
    order = np.argsort(-cos, kind="stable")[:limit]
    return [(int(i), float(cos[i])) for i in order.tolist()]


def cosines(
    query: bytes, stored: dict[tuple[TargetType, str], bytes]
) -> dict[tuple[TargetType, str], float]:
    """Exact cosines (integer dot products) of one encoded vector against many."""
    np = numpy_module()
    keys = [k for k, v in stored.items() if len(v) == len(query)]
    if not keys:
        return {}
    q = np.frombuffer(query, dtype=np.int8).astype(np.int64)
    m = np.frombuffer(b"".join(stored[k] for k in keys), dtype=np.int8)
    m = m.reshape(len(keys), len(query)).astype(np.int64)
    dots = m @ q
    norms = (m * m).sum(axis=1) * int(q @ q)
    return {
        k: (float(int(d)) / float(n) ** 0.5 if n else 0.0)
        for k, d, n in zip(keys, dots.tolist(), norms.tolist(), strict=True)
    }

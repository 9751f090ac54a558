"""PostgreSQL's half of the search verbs (``store.sql.search`` writes them once): the weighted
``tsvector`` index, its ``tsquery`` match and relevance, as that module's hooks.

Each observation's document carries the SQLite index's fields (``store.sqlite.index``), as
``tsvector`` weights: A its own content plus identifier parts (``validateToken`` ->
``validate token``), B an excerpt of the previous observation of the same session (by time,
then insertion order), C the intent of the capsule it was first linked to. Documents are cut
into runs of letters and digits in Python before PostgreSQL parses them (its parser would read
``src/a.ts`` as one file-name token); queries are built from the same runs (``tsquery``).
Stemming is Snowball English without stop words (the ``kindling`` configuration), like
FTS5's porter tokenizer. One GIN index serves every query; scope filters use the scope
columns' b-tree indexes.

Ranking (BM25's two ingredients, by PostgreSQL means): per query term or phrase,
``idf * ts_rank_cd(weights A=1, B=C=0.5, normalisation 32)``, summed; ``idf`` is BM25's,
from document frequencies the GIN index counts. The store reports ``bm25 = -rank *
RANK_SCALE``: lower is better, as FTS5's, of a similar size, so ``retrieval.scoring`` reads
both backends the same way. Order: best rank, then newer, then id. The constants were chosen
on ``bench/quality`` (docs/server.md has the sweep).

Writes keep the documents current inside the writing transaction (``observations``).

Must not import anything from Kindling except ``model`` and ``store``.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, ClassVar

from kindling.model import SCOPE_FIELDS, Scope
from kindling.store.base import ObservationMatch
from kindling.store.documents import context_excerpt
from kindling.store.postgres.observations import (
    CONFIG,
    SUMMARY_UPDATE,
    document_text,
    summary_text,
)
from kindling.store.postgres.tsquery import tsquery_text, word_query
from kindling.store.rows import OBS_COLUMNS, scope_values, scope_where
from kindling.store.segments import segment_query
from kindling.store.sql.search import SummaryText, observation_match

if TYPE_CHECKING:
    from kindling.store.fts import QueryPlan

# Maps the summed rank onto FTS5 bm25's scale; swept 2-32 on bench/quality (nDCG@10 0.679-0.688
# with normalisation 32; 0.64 at best without it, 0.63 without idf).
RANK_SCALE = 4.0
# ts_rank_cd's weights, in its order {D, C, B, A}: own text 1, neighbour and intent 0.5.
RANK_WEIGHTS = "{0.0, 0.5, 0.5, 1.0}"
# ts_rank_cd normalisation flags (0: none; 1: divide by 1 + log(length); 4: by mean harmonic
# distance of extents; 32: rank / (rank + 1)).
RANK_NORMALIZATION = 32
# A query matching more rows than this (estimated over the whole table) is first ranked among
# the newest RECENT_WINDOW observations in scope: sorting 200k matches of "user" by rank took
# 2.5 s at 1M observations (10k vs 20k: p50 46-65 vs 64-104 ms at 1M, p95 about equal).
# Stores below DF_EXACT_BELOW rows never get there (bench/quality).
RANK_POOL_ABOVE = 50_000
RECENT_WINDOW = 10_000
# Below this many rows document frequencies are counted exactly; above, ANALYZE's statistics.
DF_EXACT_BELOW = 50_000
STATS_TTL_S = 60.0


class PgSearchMixin:
    """Summary indexing, and the ``tsvector`` hooks of ``store.sql.search.SearchMixin``."""

    BM25_SCALE: ClassVar[float] = -RANK_SCALE
    stats_cache: dict[str, tuple[float, dict[str, float], float]]

    if TYPE_CHECKING:

        def write(self, sql: str, params: Sequence[Any] = ()) -> int: ...
        def read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...
        def transaction(self) -> AbstractContextManager[None]: ...

    # ------------------------------------------------------------------ index

    def index_summary(self, summary_id: str) -> None:
        content = self.read("SELECT content FROM summaries WHERE id = %s", (summary_id,))[0][0]
        self.write(SUMMARY_UPDATE, (summary_text(content), summary_id))

    # ------------------------------------------------------------------ search

    def match_observations(
        self,
        plan: QueryPlan,
        scope: Scope,
        *,
        exclude_ids: Sequence[str],
        limit: int,
        until: int | None = None,
    ) -> list[ObservationMatch]:
        excluded, excluded_params = "", list[Any]()
        if exclude_ids:
            excluded, excluded_params = " AND o.id <> ALL(%s)", [list(exclude_ids)]
        if until is not None:  # nothing recorded after ``until``
            excluded += " AND o.ts <= %s"
            excluded_params.append(until)
        where, params = scope_where(scope, "o")
        where += excluded
        params += excluded_params
        query = tsquery_text(plan.terms, plan.phrases, plan.negated)
        if query is None:
            return []
        rank, rank_params, matches = self._rank_sql("observations", "o", plan)
        # Whether only the neighbour or intent matched: the query with every word limited to
        # weight A, against the whole vector (as cheap as the match; a ts_filter copy of every
        # matching vector took a third of a 10k-match search).
        own = tsquery_text(plan.terms, plan.phrases, plan.negated, weight="A")
        select = (
            f"SELECT {OBS_COLUMNS}, o.rowid, {rank} AS r,"
            f" NOT (o.search @@ to_tsquery('{CONFIG}', %s))"
        )
        rank_params = [*rank_params, own]
        tail = "ORDER BY r DESC, o.ts DESC, o.id ASC LIMIT %s"
        rows = []
        complete = False
        if matches > RANK_POOL_ABOVE:
            # So common that ranking every match would cost seconds: rank the matches among
            # the newest RECENT_WINDOW observations in scope (read in time-index order), and
            # fall back to every match only when those do not fill the page.
            with self.transaction():
                self.write("SET LOCAL enable_bitmapscan = off")  # keep the time-index walk
                rows = self.read(
                    f"{select}, o.window_rows FROM (SELECT w.*, count(*) OVER () AS window_rows"
                    f" FROM (SELECT * FROM observations o WHERE {where}"
                    f" ORDER BY o.ts DESC, o.id LIMIT {RECENT_WINDOW}) w) o,"
                    f" to_tsquery('{CONFIG}', %s) q WHERE o.search @@ q {tail}",
                    [*rank_params, *params, query, limit],
                )
            # a scope smaller than the window was searched whole: its matches are all there is
            complete = bool(rows) and int(rows[0][13]) < RECENT_WINDOW
        if len(rows) < limit and not complete:
            # Forgotten rows have no vector, so they never match (as in the SQLite index). The
            # scope is matched by its tokens in the same GIN scan, and tested exactly on the
            # row in a form no b-tree serves: AND-ing a b-tree bitmap of a whole repository
            # cost more than the search (migration 6).
            match = "o.search @@ q"
            if scope.items():
                tokens = ", ".join(["%s"] * len(SCOPE_FIELDS))
                match = f"o.search @@ (q && kindling_scope_query({tokens}))"
            exact, exact_params = scope_where(scope, "o", indexed=False)
            rows = self.read(
                f"{select} FROM observations o, to_tsquery('{CONFIG}', %s) q"
                f" WHERE {match} AND {exact}{excluded} {tail}",
                [
                    *rank_params,
                    query,
                    *(scope_values(scope) if scope.items() else ()),
                    *exact_params,
                    *excluded_params,
                    limit,
                ],
            )
        contexts = self._contexts([r[0] for r in rows])
        matches_found = []
        for r in rows:
            context, prompt, intent = contexts.get(r[0], ("", False, ""))
            matches_found.append(
                observation_match(
                    r,
                    -float(r[11]) * RANK_SCALE,
                    context_only=r[12],
                    context=context,
                    context_prompt=prompt,
                    intent=intent,
                )
            )
        return matches_found

    def _contexts(self, obs_ids: Sequence[str]) -> dict[str, tuple[str, bool, str]]:
        """id -> (neighbour excerpt, whether the neighbour is a user prompt, capsule intent):
        what the document holds besides the item's own text, as ``index_observations`` built
        it (one statement for the winners)."""
        if not obs_ids:
            return {}
        rows = self.read(
            "SELECT o.id, n.content, n.redacted, n.kind, n.provenance,"
            " (SELECT c.intent FROM capsule_observations co JOIN capsules c ON c.id = co.capsule_id"
            "   WHERE co.observation_id = o.id ORDER BY co.link_order LIMIT 1)"
            " FROM observations o LEFT JOIN LATERAL (SELECT p.content, p.redacted, p.kind,"
            "   p.provenance FROM observations p WHERE o.session_id IS NOT NULL"
            "   AND p.session_id = o.session_id AND (p.ts, p.rowid) < (o.ts, o.rowid)"
            "   ORDER BY p.ts DESC, p.rowid DESC LIMIT 1) n ON true WHERE o.id = ANY(%s)",
            (list(obs_ids),),
        )
        out: dict[str, tuple[str, bool, str]] = {}
        for obs_id, content, redacted, kind, provenance, intent in rows:
            text = "" if content is None or redacted else context_excerpt(content)
            out[obs_id] = (text, kind == "message" and _role(provenance) == "user", intent or "")
        return out

    def summary_text(self, plan: QueryPlan) -> SummaryText | None:
        query = tsquery_text(plan.terms, plan.phrases, plan.negated)
        if query is None:
            return None
        rank, rank_params, _ = self._rank_sql("summaries", "s", plan)
        return SummaryText(
            relevance=f"{rank} AS r",
            source=(
                f"summaries s JOIN capsules c ON c.id = s.capsule_id, to_tsquery('{CONFIG}', %s) q"
            ),
            condition="s.search @@ q",
            order="r DESC",
            params=[*rank_params, query],
        )

    def _doc_freqs(
        self, table: str, items: Sequence[str], *, weight: str = "", total: int | None = None
    ) -> tuple[int, dict[str, int]]:
        """``(documents, {item: documents containing it})``. Small tables are counted with
        the GIN index; from ``DF_EXACT_BELOW`` rows on, counting a common word costs more than
        the search (a second at 1M), so the frequencies PostgreSQL's ANALYZE keeps for the
        ``search`` column (``pg_stats.most_common_elems``) are used: a word it does not list is
        rarer than the rarest it lists. An estimate, like the idf it feeds. ``total``: the
        table's rows (``_table_rows``), when the caller has them."""
        if total is None:
            total = self._table_rows(table)
        queries = {item: word_query(item, weight=weight) for item in items}
        if total < DF_EXACT_BELOW:
            return total, self._counts(table, queries)
        freqs, floor = self._element_freqs(table)
        lexemes = self._lexemes([item for item, q in queries.items() if q is not None])
        counts: dict[str, int] = {}
        for item in items:
            found = [freqs.get(lex, floor / 2) for lex in lexemes.get(item, ())]
            counts[item] = int(min(found) * total) if found else 0
        return total, counts

    def _table_rows(self, table: str) -> int:
        estimate = self.read("SELECT reltuples FROM pg_class WHERE oid = to_regclass(%s)", (table,))
        rows = int(estimate[0][0]) if estimate and estimate[0][0] is not None else -1
        if rows < DF_EXACT_BELOW:  # never analysed (-1), or small: the exact number is cheap
            rows = int(self.read(f"SELECT COALESCE(MAX(rowid), 0) FROM {table}")[0][0])
        return rows

    def _counts(self, table: str, queries: dict[str, str | None]) -> dict[str, int]:
        """Exact document counts of several queries in one statement (one GIN scan)."""
        usable = [(item, q) for item, q in queries.items() if q is not None]
        counts = dict.fromkeys(queries, 0)
        if not usable:
            return counts
        to_q = f"to_tsquery('{CONFIG}', %s)"
        filters = ", ".join(f"count(*) FILTER (WHERE search @@ {to_q})" for _ in usable)
        union = " || ".join(to_q for _ in usable)
        row = self.read(
            f"SELECT {filters} FROM {table} WHERE search @@ ({union})",
            [q for _, q in usable] * 2,
        )[0]
        counts.update({item: int(n) for (item, _), n in zip(usable, row, strict=True)})
        return counts

    def _element_freqs(self, table: str) -> tuple[dict[str, float], float]:
        """Lexeme -> share of rows (ANALYZE's most common elements), and the smallest share;
        kept for ``STATS_TTL_S``: they change only when the table is analysed again."""
        cached = self.stats_cache.get(table)
        if cached is not None and time.monotonic() - cached[0] < STATS_TTL_S:
            return cached[1], cached[2]
        rows = self.read(
            "SELECT most_common_elems::text::text[], most_common_elem_freqs FROM pg_stats"
            " WHERE schemaname = current_schema() AND tablename = %s AND attname = 'search'",
            (table,),
        )
        freqs: dict[str, float] = {}
        floor = 1.0 / DF_EXACT_BELOW
        if rows and rows[0][0] is not None:
            elems, values = rows[0]
            freqs = dict(zip(elems, values[: len(elems)], strict=True))
            floor = float(values[len(elems)])  # then come the minimum, maximum, null share
        self.stats_cache[table] = (time.monotonic(), freqs, floor)
        return freqs, floor

    def _lexemes(self, items: Sequence[str]) -> dict[str, tuple[str, ...]]:
        if not items:
            return {}
        rows = self.read(
            f"SELECT t, tsvector_to_array(to_tsvector('{CONFIG}', t))"
            " FROM unnest(%s::text[]) AS u(t)",
            ([document_text(segment_query(i)) for i in items],),
        )
        by_text = {r[0]: tuple(r[1]) for r in rows}
        return {item: by_text.get(document_text(segment_query(item)), ()) for item in items}

    def _rank_sql(self, table: str, alias: str, plan: QueryPlan) -> tuple[str, list[Any], int]:
        """``sum(idf(t) * ts_rank_cd(doc, t))`` over the plan's terms and phrases: the rarity
        weighting BM25 has and ``ts_rank_cd`` lacks (document frequencies: ``_doc_freqs``);
        and an upper bound of the matches in the whole table."""
        items = [i for i in dict.fromkeys((*plan.terms, *plan.phrases)) if word_query(i)]
        total, freqs = self._doc_freqs(table, items)
        parts: list[str] = []
        params: list[Any] = []
        for item in items:
            df = freqs[item]
            idf = math.log(1 + (max(total, 1) - df + 0.5) / (df + 0.5))
            parts.append(f"%s * ts_rank_cd(%s, {alias}.search, to_tsquery('{CONFIG}', %s), %s)")
            params += [idf, RANK_WEIGHTS, word_query(item), RANK_NORMALIZATION]
        return " + ".join(parts) or "0", params, min(total, sum(freqs.values()))

    def count_documents(self, words: Sequence[str], *, total: int, cap: int) -> dict[str, int]:
        """Each word's documents, from ``_doc_freqs`` (on big tables its estimates, there
        over every weight, not only A); the shared verb cuts them at ``cap``."""
        return self._doc_freqs("observations", list(words), weight="A", total=total)[1]

    def indexed_observations(self) -> int:
        return self._table_rows("observations")


def _role(provenance: object) -> object:
    """The ``role`` of a stored provenance (JSON text, or already parsed)."""
    if isinstance(provenance, str):
        try:
            provenance = json.loads(provenance)
        except ValueError:
            return None
    return provenance.get("role") if isinstance(provenance, dict) else None

"""The ranked-search SQL shared by observations and summaries (pure string building).

One statement shape for both tables: FTS5 matches are materialised first and then joined to
the content table (``CROSS JOIN`` fixes that order, so SQLite never scans a scope index and
probes FTS row by row), filtered by scope, and ordered by the score without its per-hit
intent factor (see ``store.base.BaseRank``), then newest first, then id. Without a text query
the same shape ranks by recency alone.

Must not import anything from Kindling except ``store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kindling.store.base import BaseRank


def _score(bm25: str | None, ts: str, confidence: str, rank: BaseRank) -> tuple[str, list[Any]]:
    """The score as SQL, with the association of ``retrieval.scoring.calculate_score``."""
    recency = f"(? / (? + max(0, ? - {ts})))"
    recency_args = [rank.half_life_ms, rank.half_life_ms, rank.reference_ms]
    mult = f"((? * ?) * (1.0 - ? + ? * {confidence}))"
    mult_args = [rank.scope_mult, rank.intent_mult, rank.w_confidence, rank.w_confidence]
    if bm25 is None:
        return f"(0.0 + ? * {recency}) * {mult}", [rank.w_recency, *recency_args, *mult_args]
    relevance = f"(1.0 - ? / (? - min({bm25}, ?)))"
    relevance_args = [rank.relevance_k, rank.relevance_k, -rank.match_floor]
    return (
        f"(? * {relevance} + ? * {recency}) * {mult}",
        [rank.w_fts, *relevance_args, rank.w_recency, *recency_args, *mult_args],
    )


def ranked_search(
    *,
    fts: str,
    table: str,
    joins: str,
    columns: str,
    ts: str,
    id_col: str,
    where: str,
    params: Sequence[Any],
    match: str | None,
    rank: BaseRank,
    limit: int,
    confidence: str = "1.0",
) -> tuple[str, list[Any]]:
    """Build ``(sql, args)``; rows are ``columns``, then bm25 (0.0 without a text query).

    ``table`` is the content table with its alias (``observations o``), ``joins`` any further
    JOINs the scope filter needs, ``confidence`` the SQL of the confidence factor.
    """
    alias = table.split()[-1]
    if match is None:
        # Recency alone is monotone in time: with constant multipliers (observations) this is
        # the score's order, and an index gives it. For summaries the caller bounds the rest.
        sql = (
            f"SELECT {columns}, 0.0 FROM {table} {joins} WHERE {where}"
            f" ORDER BY {ts} DESC, {id_col} ASC LIMIT ?"
        )
        return sql, [*params, limit]
    # Two phases: rank small (rowid, bm25, ts, id) records, then read the winners' columns.
    inner, inner_args = _score("b", "t", confidence, rank)
    outer, outer_args = _score("top.b", "top.t", confidence, rank)
    sql = (
        f"WITH top AS (SELECT {alias}.rowid AS r, bm25({fts}) AS b, {ts} AS t, {id_col} AS i"
        f" FROM {fts} CROSS JOIN {table} ON {alias}.rowid = {fts}.rowid {joins}"
        f" WHERE {fts} MATCH ? AND {where} ORDER BY {inner} DESC, t DESC, i ASC LIMIT ?)"
        f" SELECT {columns}, top.b FROM top CROSS JOIN {table} ON {alias}.rowid = top.r {joins}"
        f" ORDER BY {outer} DESC, top.t DESC, top.i ASC"
    )
    return sql, [match, *params, *inner_args, limit, *outer_args]

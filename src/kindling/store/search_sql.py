"""The ranked-search SQL shared by observations and summaries (pure string building).

One statement shape for both tables: FTS5 matches are materialised first and then joined to
the content table (``CROSS JOIN`` fixes that order, so SQLite never scans a scope index and
probes FTS row by row), filtered by scope, and ordered by the additive part of the score
(see ``store.base.BaseRank``), newest first, then id. Without a text query the same shape
ranks by recency alone.

Must not import anything from Kindling except ``store``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kindling.store.base import BaseRank


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
) -> tuple[str, list[Any]]:
    """Build ``(sql, args)``; rows are ``columns``, then bm25 (0.0 without a text query).

    ``table`` is the content table with its alias (``observations o``), ``joins`` any further
    JOINs the scope filter needs.
    """
    alias = table.split()[-1]
    recency = f"? * ? / (? + max(0, ? - {ts}))"
    recency_args = [rank.w_recency, rank.half_life_ms, rank.half_life_ms, rank.reference_ms]
    order = f"ORDER BY base DESC, {ts} DESC, {id_col} ASC LIMIT ?"
    if match is None:
        sql = f"SELECT {columns}, 0.0, {recency} AS base FROM {table} {joins} WHERE {where} {order}"
        return sql, [*recency_args, *params, limit]
    sql = (
        f"WITH m AS MATERIALIZED (SELECT rowid AS rid, bm25({fts}) AS b FROM {fts}"
        f" WHERE {fts} MATCH ?) SELECT {columns}, m.b,"
        f" ? * max(-m.b, ?) / (max(-m.b, ?) + ?) + {recency} AS base"
        f" FROM m CROSS JOIN {table} ON {alias}.rowid = m.rid {joins}"
        f" WHERE {where} {order}"
    )
    text_args = [rank.w_fts, rank.match_floor, rank.match_floor, rank.relevance_k]
    return sql, [match, *text_args, *recency_args, *params, limit]

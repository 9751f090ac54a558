"""Build a PostgreSQL ``tsquery`` text from a query plan's backend-neutral parts (pure).

The plan (``store.fts.QueryPlan``) gives positive words (``terms``), ``phrases`` and
``negated`` words and phrases; the FTS5 ``match`` string is never read here. As in the FTS5
query: terms are OR'ed (a match needs any; ranking rewards documents matching more), a path
is its file name (``store.fts_syntax.file_name``), a word with punctuation inside
(``tokens.ts``, ``jwt.verify``) is a phrase of its parts, phrases keep their
word order, negated items exclude documents. Stemming is the store's ``kindling`` text
search configuration.

A Han, Kana, Hangul or Thai word is the phrase of its bigrams, as the documents spell it
(``store.segments``). Only runs of letters and digits reach the output, each single-quoted, so
no user text can be read as tsquery syntax: ``to_tsquery`` never raises on what this returns
(tested).

Must not import anything from Kindling except ``store.segments`` and ``store.fts_syntax``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kindling.store.fts_syntax import file_name
from kindling.store.segments import segment_query

_RUN = re.compile(r"[^\W_]+")


def word_query(text: str, *, weight: str = "") -> str | None:
    """One term or phrase: its runs in order (``<->``); None when it has none."""
    runs = [
        f"'{r.lower()}'" + (f":{weight}" if weight else "")
        for r in _RUN.findall(segment_query(text))
    ]
    if not runs:
        return None
    return runs[0] if len(runs) == 1 else "(" + " <-> ".join(runs) + ")"


def tsquery_text(
    terms: Iterable[str],
    phrases: Iterable[str] = (),
    negated: Iterable[str] = (),
    *,
    weight: str = "",
) -> str | None:
    """The ``to_tsquery`` input for these parts; None when nothing positive is left. With
    ``weight``, every word matches only positions of that weight (``'word':A``)."""
    positive = list(
        dict.fromkeys(
            q for t in (*map(file_name, terms), *phrases) if (q := word_query(t, weight=weight))
        )
    )
    if not positive:
        return None
    query = " | ".join(positive)
    negative = list(dict.fromkeys(q for t in negated if (q := word_query(t, weight=weight))))
    if negative:
        query = f"({query}) & !({' | '.join(negative)})"
    return query

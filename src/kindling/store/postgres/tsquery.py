"""Build a PostgreSQL ``tsquery`` text from a query plan's backend-neutral parts (pure).

The plan (``store.fts.QueryPlan``) gives positive words (``terms``), ``phrases`` and
``negated`` words; the FTS5 ``match`` string is never read here. The rules mirror FTS5's:

- terms are OR'ed: a match needs any of them (ranking rewards documents matching more);
- a word of four or more letters matches as a prefix (``authentication`` finds
  ``AuthenticationError`` once stemmed), shorter ones and numbers match whole;
- a word with punctuation inside (``src/auth/tokens.ts``) becomes a phrase of its parts;
- negated words exclude documents.

Only runs of letters and digits reach the output, each single-quoted, so no user text can
be read as tsquery syntax: ``to_tsquery`` never raises on what this returns.

Must not import anything from Kindling.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

MIN_PREFIX_CHARS = 4
_RUN = re.compile(r"[^\W_]+")


def _phrase(text: str, *, prefix_last: bool) -> str | None:
    runs = [r.lower() for r in _RUN.findall(text)]
    if not runs:
        return None
    parts = [f"'{r}'" for r in runs]
    last = runs[-1]
    if prefix_last and len(last) >= MIN_PREFIX_CHARS and not last.isdigit():
        parts[-1] += ":*"
    return parts[0] if len(parts) == 1 else "(" + " <-> ".join(parts) + ")"


def tsquery_text(
    terms: Iterable[str], phrases: Iterable[str] = (), negated: Iterable[str] = ()
) -> str | None:
    """The ``to_tsquery`` input for these parts; None when nothing positive is left."""
    positive = [p for t in terms if (p := _phrase(t, prefix_last=True))]
    positive += [p for t in phrases if (p := _phrase(t, prefix_last=False))]
    positive = list(dict.fromkeys(positive))
    if not positive:
        return None
    query = " | ".join(positive)
    negative = list(dict.fromkeys(p for t in negated if (p := _phrase(t, prefix_last=False))))
    if negative:
        query = f"({query}) & !({' | '.join(negative)})"
    return query

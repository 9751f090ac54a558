"""Identifiers as the search index spells them: the forms that let a word find an identifier
and an identifier find its words (pure functions, no SQLite).

- ``joined_form``: an identifier with inner punctuation as one token (``get_order_user`` ->
  ``getorderuser``, which is also FTS5's token for ``getOrderUser``). The query side
  (``store.fts.term_match``) matches this token instead of a phrase of common words.
- ``identifier_parts``: what the index adds to an item's own text (``store.sqlite.index`` and
  the PostgreSQL search document): the joined forms and the split camelCase words of every
  identifier in it.

An identifier is a maximal run of word characters, dots, colons and hyphens that has a step
inside: punctuation between word characters (``jwt.verify``, ``3.40.1``) or a camelCase step
(``getHTTPResponse``). Every capture computes the parts of its content, so the forms of each
run are remembered (runs repeat: the same names come back in every tool call of a session).

Must not import anything from Kindling.
"""

from __future__ import annotations

import _thread
import itertools
import re

# Punctuation inside one identifier (``get_order_user``, ``jwt.verify``, ``3.40.1``).
_INNER = re.compile(r"[._:\-]")
_RUN = re.compile(r"[\w.:\-]+")
# The same runs in an ASCII text (where ``\w`` is ``[A-Za-z0-9_]``), without Unicode lookups.
_ASCII_RUN = re.compile(r"[\w.:\-]+", re.ASCII)
_STEP = re.compile(r"\w[._:\-]+\w|[a-z0-9][A-Z]|[A-Z][A-Z][a-z]")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = re.compile(r"[^\W_]+")
# Inside a run, a character is a letter or digit (``str.isalnum``) exactly when it is none of
# these: a run holds only ``\w`` (letters, digits, ``_``) and ``.:-``.
_RUN_PUNCTUATION = str.maketrans("", "", "._:-")

# The forms of each run seen lately, oldest first; the older half goes when it is full.
_FORMS_LOCK = _thread.allocate_lock()  # threading.Lock, minus threading's import
_FORMS: dict[str, tuple[str, ...]] = {}
_FORMS_MAX = 16384


def joined_form(word: str) -> str | None:
    """An identifier written with inner punctuation as one token: ``get_order_user`` ->
    ``getorderuser`` (which is also how FTS5 reads ``getOrderUser``). None for a plain word.
    The index stores this form (``identifier_parts``), so a query matches one token instead
    of a phrase of common ones (``get order user``: up to 300 ms at a million observations)."""
    core = word.strip("._:-")
    if not _INNER.search(core):
        return None
    letters = "".join(ch for ch in core if ch.isalnum()).lower()
    return letters or None


def identifier_parts(text: str) -> str:
    """What the index adds to an item's own text so identifiers match their words and their
    whole: the split form of every camelCase word (``validateToken`` -> ``validate token``) and
    the joined form of every identifier with inner punctuation (``validate_token`` ->
    ``validatetoken``, which is also FTS5's token for ``validateToken``; see
    ``joined_form``). Space separated, each once, in order of first appearance."""
    seen: dict[str, None] = {}
    known = _FORMS
    runs = (_ASCII_RUN if text.isascii() else _RUN).findall(text)
    for run in dict.fromkeys(runs):  # each run once, in order
        if run.isalnum() and (run.islower() or run.isdigit()):
            continue  # a plain word or number: no step (see ``_run_forms``), kept out of the cache
        forms = known.get(run)
        if forms is None:
            forms = _run_forms(run)
            with _FORMS_LOCK:  # a server's threads share the cache: evict one at a time
                if len(known) >= _FORMS_MAX:
                    for old in list(itertools.islice(known, _FORMS_MAX // 2)):
                        known.pop(old, None)
                known[run] = forms
        for form in forms:
            seen[form] = None
    return " ".join(seen)


def _run_forms(run: str) -> tuple[str, ...]:
    """The forms of one run of word characters and ``.:-``, in order; none for a plain word."""
    if (run.isalnum() and run.islower()) or _STEP.search(run) is None:
        return ()  # a plain lower-case word (the common case) has no step
    forms: dict[str, None] = {}
    # The whole run, each piece between colons (``table.rs:42`` gives ``tablers``;
    # ``x.py::test_retry_once`` gives ``testretryonce``) and each piece between dots
    # (``pg_store.py`` gives ``pgstore``).
    colon = run.split(":") if ":" in run else [run]
    dots = [dot for part in colon for dot in part.split(".")] if "." in run else []
    for piece in dict.fromkeys((run, *colon, *dots)):
        if piece.isalnum():
            continue  # letters and digits only: no inner punctuation, nothing to join
        # ``joined_form`` of a piece of a run, without its per-character loop.
        core = piece.strip("._:-")
        letters = core.translate(_RUN_PUNCTUATION)
        if letters and len(letters) != len(core):
            forms.setdefault(letters.lower(), None)
    for word in () if run.islower() else _WORD.findall(run):  # no capital, no camelCase
        rest = word[1:]
        if rest == rest.lower():
            continue  # no upper-case letter after the first: no camelCase step
        parts = _CAMEL.split(word)
        if len(parts) > 1:
            forms.setdefault(" ".join(parts).lower(), None)
    return tuple(forms)

"""The first page of a repository-wide question: one session cannot fill it.

A question asked of a whole repository often matches one session best, and every step of that
session then outranks the other sessions' answers: the first page holds one session's story
(and when that session is the wrong one, nothing else). ``spread_sessions`` keeps the score
order but lets a session hold at most ``SESSION_CAP`` of the first ``FIRST_PAGE`` places while
another session has an item that matches the question; when fewer sessions match, their items
fill the page. A question scoped to one session is not spread (the provider does not call it),
nor a list the semantic signal ranked (see ``spread_sessions``). ``placed_scores`` then makes
each hit's score say what its place says: an item held below the page scores no more than the
last item on it.

Must not import anything from Kindling except ``model`` and ``retrieval``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from kindling.model import RELEVANCE_THRESHOLD
from kindling.retrieval.signals import Scored

if TYPE_CHECKING:
    from kindling.retrieval.provider import ProviderHit

# The first page, and how many of its places one session may hold.
FIRST_PAGE = 10
SESSION_CAP = 3


def spread_sessions(
    ranked: Sequence[Scored],
    page: int = FIRST_PAGE,
    cap: int = SESSION_CAP,
    own: float = 0.5,
) -> list[Scored]:
    """The first ``page`` places of a score-ordered list with at most ``cap`` items of one
    session among the items that match the question: relevance at or above
    ``RELEVANCE_THRESHOLD`` and at least ``own`` of the question's weight in their own text
    (not only through their episode or context). An item past its session's cap waits below
    the page while another session has a matching item to show; when fewer sessions match than
    can fill the page, the best of the rest fill it, in score order. Everything after the page
    follows in score order. One session can no longer fill a question's first page while
    another holds the question in its own words.

    When the semantic signal ranked the list (an item carries its value), nothing is spread:
    the cap guards the order of words, where a session that repeats the question's words
    outranks the rest; a list also ordered by meaning has that check already, and the answers
    to one question are often several steps of one session, which the cap would push down
    (issue 35: on the free-question set's and Molweni's tuning parts, R@10 with the signal on
    0.585 -> 0.606 and 0.783 -> 0.787 without the cap; caps of 5 and 7 lay between)."""
    if any(item.semantic is not None for item in ranked):
        return list(ranked)
    head: list[Scored] = []
    taken: dict[str, int] = {}
    for item in ranked:
        if len(head) >= page:
            break
        relevant = item.relevance >= RELEVANCE_THRESHOLD and item.own >= own
        if not relevant:
            continue
        if item.session is not None:
            if taken.get(item.session, 0) >= cap:
                continue
            taken[item.session] = taken.get(item.session, 0) + 1
        head.append(item)
    placed = {id(item) for item in head}
    if len(head) < page:  # fewer sessions match: the best of the rest fill the page
        fill = [item for item in ranked if id(item) not in placed][: page - len(head)]
        head = sorted([*head, *fill], key=lambda s: s.key)
        placed = {id(item) for item in head}
    return [*head, *(item for item in ranked if id(item) not in placed)]


def placed_scores(
    hits: Sequence[ProviderHit], pooled: int, page: int = FIRST_PAGE
) -> tuple[ProviderHit, ...]:
    """Scores that follow the order, highest first (seed 000's order of candidates). A hit
    placed below one that scored less takes that lower score: one held below the first page
    while other sessions' matches show (``spread_sessions``), or one of the matches read below
    the text pool (the first ``pooled`` hits are the pool's), which follow the pool's results
    whatever they score. Its ``why`` says what it scored on its own and why it stands lower;
    its signals are its own, as before. The order is the ranking, and the score says so."""
    out: list[ProviderHit] = []
    floor = 1.0
    for place, hit in enumerate(hits):
        if hit.score > floor:
            if place >= pooled:
                reason = "read below the best matches, placed after them"
            elif place >= page:
                reason = "held below the first page while other sessions' matches show"
            else:
                reason = "placed below better-ranked results"
            why = f"{hit.why}; {reason} (its own score {hit.score:.6f})"
            explanation = replace(hit.explanation, why=why, score=floor)
            hit = replace(hit, why=why, score=floor, explanation=explanation)
        floor = hit.score
        out.append(hit)
    return tuple(out)

"""Which plan of a text question is searched, and the counts it is weighed with.

Very common words are dropped from a plain OR question before it runs (``COMMON_SHARE``),
when a rarer word remains: they match a large share of the store, so FTS5 would score most of
it, and they add little to bm25 (they still count in every match's relevance). A long
question (a pasted error line) then runs on its ``RAREST_WORDS`` rarest words: what answers it
holds those too, and each further word of middling frequency only widened the walk (a pasted
line matched 5,000 rows of its repository at 100k). The plan's ``dropped`` list names every
word left out. When the rarer words alone find fewer matches than a page, the
whole question runs after all, so dropping never turns a question with answers into one
without. A quoted phrase that matches nothing is read as its words (``read_terms``).

Must not import anything from Kindling except ``store`` and ``retrieval``.
"""

from __future__ import annotations

from collections.abc import Callable

from kindling.retrieval.scoring import ScoringWeights
from kindling.retrieval.signals import Query, Scored, fill_text_signals
from kindling.retrieval.spread import FIRST_PAGE
from kindling.retrieval.terms import phrases_as_terms
from kindling.store.base import Store
from kindling.store.fts import QueryPlan, identifier_words, without_terms

# A word found in more than this share of the indexed observations (and in more than
# COMMON_MIN_DOCS of them) is dropped from an OR question that keeps a rarer word. At 5 % a
# word's IDF is about 3, against 7-9 for the words that usually carry a question.
COMMON_SHARE = 0.05
COMMON_MIN_DOCS = 500
# A plain OR question searches by at most this many of its words, the rarest (ties: the
# earlier in the question); chosen on the tuning parts (free set 0.568 R@10 with 5, 0.562 with
# 4, 0.565 with all; coding set 0.812, 0.810, 0.811).
RAREST_WORDS = 5
# ... and by no more of them than this many items hold (their document counts added up; at
# least the rarest word): every match of the words it searches by can then be ranked, where a
# broader walk ranks only its newest (``store.sqlite.search.RANK_WINDOW``) and buries an old
# answer under new look-alikes. Chosen on the tuning part of the free set in a store of a
# million rows (``bench.quality.free.scale``: 0.552 with 2,000, 0.553 with 5,000, 0.549 with
# 10,000, 0.551 without); ``None`` turns it off.
WALK_BUDGET: int | None = 5_000


def drop_common(plan: QueryPlan, total: int, counts: dict[str, int]) -> QueryPlan:
    """``plan`` without its very common words, when a rarer one remains, and then without all
    but its ``RAREST_WORDS`` rarest words."""
    if plan.mode != "terms" or len(plan.terms) < 2 or not counts:
        return plan
    threshold = max(COMMON_MIN_DOCS, int(total * COMMON_SHARE))
    common = {word for word in plan.terms if counts.get(word, 0) > threshold}
    if len(common) == len(plan.terms):
        return plan
    left = [word for word in dict.fromkeys(plan.terms) if word not in common]
    # rarest first, a word found nowhere last (it can find nothing); stable: question order
    by_count = sorted(left, key=lambda word: (counts.get(word, 0) == 0, counts.get(word, 0)))
    keep = by_count[:RAREST_WORDS]
    if WALK_BUDGET is not None:
        held = 0
        for n, word in enumerate(keep):
            held += counts.get(word, 0)
            if n and held > WALK_BUDGET:
                keep = keep[:n]
                break
    return without_terms(plan, set(plan.terms) - set(keep))


def common_parts(plan: QueryPlan, total: int, counts: dict[str, int]) -> set[str]:
    """The plan's very common words that the question holds as parts of one of its
    identifiers (``sync`` of ``TestSyncToken``): evidence of the identifier, which weigh half
    (``terms.PART_SHARE``), not topics of their own."""
    threshold = max(COMMON_MIN_DOCS, int(total * COMMON_SHARE))
    parts = {p for t in plan.words for p in identifier_words(t) if p != t.lower()}
    return {w for w in plan.terms if w.lower() in parts and counts.get(w, 0) > threshold}


def search_plans(
    full: QueryPlan,
    query: Query,
    weights: ScoringWeights,
    candidates: Callable[[QueryPlan], list[Scored]],
) -> tuple[QueryPlan, list[Scored]]:
    """The candidates of the question without its very common words when the rarer ones find
    a page, else of the whole question; a text query's come back with their text signals
    (``fill_text_signals``)."""
    plan = drop_common(full, query.total, query.counts)
    found = candidates(plan)
    if plan is not full and len(found) < FIRST_PAGE:
        # The rarer words alone found too little (they may not be the topic: "what queue
        # did we pick"): the whole question decides after all, but for the common parts of
        # its identifiers, which would bring in most of the store as no word of the question
        # does ("why did TestSyncToken fail": test, sync, token).
        parts = common_parts(full, query.total, query.counts)
        wider = without_terms(full, parts)
        if wider is not full and wider.match != plan.match:
            plan = wider
            found = candidates(plan)
        # Those common parts never come back to a question that found something without
        # them: "SetUserEvent" would otherwise fill its page with every item that says "user"
        # (and rank most of its repository to do so).
        if len(found) < FIRST_PAGE and not (parts and found):
            plan = full
            found = candidates(plan)
    if plan.match is not None:
        fill_text_signals(found, query, weights)
    return plan, found


def read_terms(
    store: Store, plan: QueryPlan
) -> tuple[QueryPlan, tuple[int, dict[str, int]], tuple[str, ...]]:
    """Document counts of the plan's terms (own text only; none for a single term) and the
    plan with every phrase that matches nothing read as its words (reported)."""
    items = [*plan.terms, *plan.phrases]
    if plan.match is None or (len(items) < 2 and not plan.phrases):
        return plan, (0, {}), ()
    total = store.indexed_observations()
    if len(items) == 1:
        # A phrase alone is the whole question whatever its count: only whether it matches
        # at all is asked, and the count stops at the first match (a phrase is read in full
        # positions, so counting it to the threshold cost as much as the search itself).
        _, counts = store.document_counts(items, share=0.0, minimum=0)
    else:
        _, counts = store.document_counts(items, share=COMMON_SHARE, minimum=COMMON_MIN_DOCS)
    empty = tuple(p for p in plan.phrases if counts.get(p, 0) == 0)
    if not empty:
        return plan, (total, counts), ()
    plan = phrases_as_terms(plan, empty)
    items = [*plan.terms, *plan.phrases]
    _, counts = store.document_counts(items, share=COMMON_SHARE, minimum=COMMON_MIN_DOCS)
    return plan, (total, counts), empty

"""Turn any user text into a safe FTS5 MATCH expression (pure functions, no SQLite).

The rules, chosen so that no string can make SQLite raise and a term that matches is never lost:

- Every word is emitted as a double-quoted FTS5 string, so punctuation inside it
  (``multi-agent``, ``src/auth/tokens.ts``, ``user:name``, ``C++``) is tokenized by FTS5 itself
  into a phrase of adjacent tokens and never read as syntax.
- Words are joined with OR: a match needs any term, not all of them; BM25 ranks documents that
  match more and rarer terms higher.
- Explicit syntax is honoured when it is well formed: ``"quoted phrases"``, ``AND``/``OR``/``NOT``
  (upper case, as in FTS5), ``prefix*`` and balanced parentheses. Anything malformed (a lone
  operator, unbalanced quotes or brackets) falls back to reading every word as a plain term.
- Stop words (``the``, ``what``, ``did`` ...) are dropped from OR lists when a content word
  remains; they add no ranking signal and make every document a candidate.
- No per-query prefix expansion (``"word"*`` expands to every index term it starts, a hundred on
  a median query). Identifiers match their parts and their whole because the index stores, at
  write time, the split form of camelCase words and the joined form of identifiers with inner
  punctuation (``store.identifiers.identifier_parts``): ``authentication`` finds
  ``AuthenticationError``, ``validateToken`` finds ``validate_token`` and the other way round
  (both are the token ``validatetoken``), and a path matches through its file name.
- Han, Kana, Hangul and Thai words are spelled as the index spells them: the phrase of their
  bigrams; a question is cut into the words it asks for (``store.segments``).
- ``summary_match`` is the same query for an index of plain content (the summaries'), where
  identifiers match as phrases of their parts.
- The plan keeps its parse tree, so the caller can drop very common terms afterwards
  (``without_terms``) and report them, and backends other than FTS5 read ``terms``,
  ``phrases`` and ``negated`` instead of the MATCH string.

Must not import from Kindling except ``model``, ``store.fts_syntax``, ``store.identifiers``,
``store.segments``.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

from kindling.model import QueryMode
from kindling.store.fts_syntax import (
    Leaf,
    Node,
    Op,
    file_name,
    lex,
    parse_syntax,
    usable,
    without_line,
)
from kindling.store.identifiers import joined_form
from kindling.store.segments import query_words, segment_query

__all__ = [
    "Leaf",
    "Node",
    "Op",
    "QueryPlan",
    "build_query",
    "identifier_words",
    "term_match",
    "with_parts",
    "without_line",
    "without_terms",
]

# Queries longer than this many clauses are cut: FTS5 cost grows with every OR'ed term, and no
# human question needs more. The cut is reported in the plan's ``dropped`` list.
MAX_CLAUSES = 32

STOPWORDS: frozenset[str] = frozenset(
    """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing done down during each few
    for from further had has have having he her here hers herself him himself his how i if
    in into is it its itself just me more most my myself no nor not now of off on once only
    or other our ours ourselves out over own same she should so some such than that the
    their theirs them themselves then there these they this those through to too under until
    up very was we were what when where which while who whom why will with would you your
    yours yourself yourselves get got let lets please thing things something anything us
    also may might must shall ever again last latest recent recently still yet
    """.split()  # noqa: SIM905 - a word list reads better as prose
)


@dataclass(frozen=True, slots=True)
class QueryPlan:
    """How a query string was read: the mode, the MATCH expression, and what was dropped.

    ``terms`` are the plain words that can make a document match (lower case, in order),
    ``phrases`` the quoted phrases, ``negated`` the words and phrases after ``NOT``; together
    they let a backend without FTS5 build its own query. ``words`` are the positive terms and
    phrases as typed, for highlighting. ``dropped`` lists what was removed
    (stop words, unusable tokens, clauses past the limit, very common terms)."""

    mode: QueryMode
    match: str | None
    terms: tuple[str, ...]
    dropped: tuple[str, ...]
    clauses: int
    phrases: tuple[str, ...] = ()
    negated: tuple[str, ...] = ()
    words: tuple[str, ...] = ()  # the positive terms and phrases as typed (case kept)
    # The MATCH for an index of plain content (summaries): identifiers as phrases of parts.
    summary_match: str | None = None
    tree: Node | None = field(default=None, repr=False, compare=False)


def _quote(text: str) -> str:
    return '"' + segment_query(text).replace('"', '""') + '"'


# ---------------------------------------------------------------------------------------------
# Simplifying and rendering


def _prune(node: Node, dropped: list[str]) -> Node | None:
    """Remove unusable leaves, then stop words from OR lists that keep a content word."""
    if isinstance(node, Leaf):
        if not usable(node.text):
            if node.text:
                dropped.append(node.text)
            return None
        return node
    if node.op == "NOT":
        keep, minus = (_prune(c, dropped) for c in node.children)
        if keep is None or minus is None:
            return keep
        return Op("NOT", (keep, minus))
    kids = [k for c in node.children if (k := _prune(c, dropped)) is not None]
    if node.op == "OR":
        content = [k for k in kids if not _is_stopword(k)]
        if content and len(content) < len(kids):
            dropped.extend(k.text for k in kids if isinstance(k, Leaf) and _is_stopword(k))
            kids = content
        kids = _dedupe(kids)
    if not kids:
        return None
    return kids[0] if len(kids) == 1 else Op(node.op, tuple(kids))


def _is_stopword(node: Node) -> bool:
    return (
        isinstance(node, Leaf)
        and not node.phrase
        and not node.prefix
        and node.text.lower().strip("'.,;:!?") in STOPWORDS
    )


def _dedupe(nodes: list[Node]) -> list[Node]:
    seen: set[str] = set()
    out: list[Node] = []
    for node in nodes:
        key = _render(node).lower()
        if key not in seen:
            seen.add(key)
            out.append(node)
    return out


_PART = re.compile(r"[^\W_]+")
_CAMEL_STEP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def identifier_words(word: str) -> list[str]:
    """The words of an identifier as a person would type them, lower case: split at dots,
    slashes, ``::``, ``-``, ``_``, ``=`` and camelCase steps (``Frame.resample`` -> ``frame``,
    ``resample``; ``LinkedDeque`` -> ``linked``, ``deque``; ``--max-depth=3`` -> ``max``,
    ``depth``). A path gives its file name's words (``src/io/ascii/html.py:42`` -> ``html``);
    numbers are no words here. One word or none for a plain word."""
    name = file_name(word)
    if name != word and "." in name:
        name = name.rsplit(".", 1)[0]  # a file's name without its extension
    out: list[str] = []
    for piece in _PART.findall(name):
        for part in _CAMEL_STEP.split(piece):
            if part and not part.isdigit() and part.lower() not in out:
                out.append(part.lower())
    return out


def with_parts(word: str) -> list[str]:
    """``word`` and, when it is an identifier or a path (``Frame.resample``, ``Class::method``,
    ``obj.method()``, ``pkg/file.py:42``, ``--flag=value``, ``LinkedDeque``, ``snake_case``),
    each of its words that is no stop word: the identifier is matched as written (its joined
    form, ``term_match``) and by its parts, in the question as in the index."""
    parts = identifier_words(word)
    if len(parts) < 2 and file_name(word) == word:
        return [word]
    return [word, *(p for p in parts if p not in STOPWORDS and p != word.lower())]


def term_match(word: str) -> str:
    """The MATCH expression of one plain query word against the observation index: a path
    is its file name (the last segment), an identifier its joined form, anything else is
    quoted (so FTS5's tokenizer reads it and punctuation is never syntax).

    A path's directories (``src``, ``api``, ``internal``) are a repository's commonest words:
    weighing each costs bm25 a walk of its whole doclist (40 ms for ``src`` in a million
    rows), and they narrow little that the file name has not."""
    tail = file_name(word)
    if tail != word:
        return _quote(joined_form(tail) or tail)
    core = word.strip("\"'.,;:!?()[]{}<>")
    joined = joined_form(core)
    return _quote(joined) if joined else _quote(word)


def _render_leaf(leaf: Leaf, *, plain: bool) -> str:
    text = _quote(leaf.text) + ("*" if leaf.prefix else "")
    if leaf.phrase or leaf.prefix:
        return text
    if not plain:
        return term_match(leaf.text)
    # The summary index stores content only: an identifier with inner punctuation matches as
    # the phrase of its parts (FTS5 reads the quoted word so), a camelCase one as its token.
    return text


def _render(node: Node, *, plain: bool = False) -> str:
    if isinstance(node, Leaf):
        return _render_leaf(node, plain=plain)
    inner = f" {node.op} ".join(_render(c, plain=plain) for c in node.children)
    return f"({inner})"


def _leaves(node: Node, *, positive: bool = True) -> list[Leaf]:
    """The leaves that can make a document match (not those on the right of NOT)."""
    if isinstance(node, Leaf):
        return [node]
    if node.op == "NOT":
        return _leaves(node.children[0]) if positive else []
    return [leaf for c in node.children for leaf in _leaves(c)]


def _cut(node: Node, limit: int, dropped: list[str]) -> Node:
    """Keep at most ``limit`` clauses of a top-level OR (the first ones the user typed)."""
    if isinstance(node, Op) and node.op == "OR" and len(node.children) > limit:
        dropped.extend(_render(c) for c in node.children[limit:])
        return Op("OR", node.children[:limit])
    return node


def _plan(mode: QueryMode, tree: Node | None, dropped: list[str]) -> QueryPlan:
    if tree is None:
        return QueryPlan("recency", None, (), tuple(dropped), 0)
    leaves = _leaves(tree)
    rendered = _render(tree)
    plain = _render(tree, plain=True)
    if isinstance(tree, Op) and tree.op == "OR":
        rendered, plain = rendered[1:-1], plain[1:-1]
    negated = [leaf for leaf in _all_leaves(tree) if leaf not in leaves]
    return QueryPlan(
        mode=mode,
        match=rendered,
        terms=tuple(dict.fromkeys(leaf.text.lower() for leaf in leaves if not leaf.phrase)),
        dropped=tuple(dropped),
        clauses=max(1, len(leaves)),
        phrases=tuple(leaf.text for leaf in leaves if leaf.phrase),
        negated=tuple(leaf.text for leaf in negated),
        words=tuple(leaf.text for leaf in leaves),
        summary_match=plain,
        tree=tree,
    )


def _all_leaves(node: Node) -> list[Leaf]:
    if isinstance(node, Leaf):
        return [node]
    return [leaf for c in node.children for leaf in _all_leaves(c)]


def build_query(query: str) -> QueryPlan:
    """Read ``query`` and return its plan. Never raises; an empty plan means "by recency"."""
    text = query if isinstance(query, str) else ""
    text = "".join(ch if ch.isprintable() or ch.isspace() else " " for ch in text)
    tree: Node | None = None
    mode: QueryMode = "terms"
    dropped: list[str] = []
    tree = parse_syntax(text)
    if tree is not None:
        mode = "fts5"
    else:
        words = lex(text, syntax=False)
        leaves = [
            Leaf(form)
            for w in words
            for p in query_words(w.replace('"', " "))
            for form in with_parts(p)
        ]
        tree = Op("OR", tuple(leaves)) if leaves else None
        mode = "terms"
    pruned = _prune(tree, dropped) if tree is not None else None
    if pruned is not None:
        pruned = _cut(pruned, MAX_CLAUSES, dropped)
    return _plan(mode, pruned, dropped)


def without_terms(plan: QueryPlan, words: Collection[str]) -> QueryPlan:
    """The plan with the plain terms ``words`` (lower case) removed from its top-level OR list,
    each reported in ``dropped``. Only OR'ed plain words go: removing one from an AND, a phrase
    or a NOT would change which documents match rather than only how many."""
    tree = plan.tree
    if not words or not isinstance(tree, Op) or tree.op != "OR" or plan.match is None:
        return plan
    keep = [
        c
        for c in tree.children
        if not (isinstance(c, Leaf) and not c.phrase and not c.prefix and c.text.lower() in words)
    ]
    if not keep or len(keep) == len(tree.children):
        return plan
    gone = [c.text for c in tree.children if c not in keep and isinstance(c, Leaf)]
    new_tree = keep[0] if len(keep) == 1 else Op("OR", tuple(keep))
    return _plan(plan.mode, new_tree, [*plan.dropped, *gone])

"""The syntax of a search query: lexing, and parsing FTS5's operators when they are well formed
(``"phrases"``, ``AND``/``OR``/``NOT``, ``prefix*``, balanced parentheses) into a tree of
``Leaf`` and ``Op``. Pure; ``store.fts`` turns the tree into a MATCH expression.

Must not import from Kindling except ``store.segments`` and ``errors``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, TypeAlias

from kindling.errors import QuerySyntaxError
from kindling.store.segments import query_words


@dataclass(frozen=True, slots=True)
class Leaf:
    """A term or phrase; ``text`` is what the user wrote, ``prefix`` a trailing ``*``."""

    text: str
    phrase: bool = False
    prefix: bool = False


@dataclass(frozen=True, slots=True)
class Op:
    """A boolean operator between terms of a parsed query."""

    op: Literal["OR", "AND", "NOT"]
    children: tuple[Node, ...]


Node: TypeAlias = Leaf | Op


def usable(text: str) -> bool:
    """True when FTS5's unicode61 tokenizer would find at least one token in ``text``."""
    return any(ch.isalnum() for ch in text)


_LINE = re.compile(r"(?:[:#]L?\d+)+$")


def without_line(word: str) -> str:
    """``word`` without the line and column a pasted location ends with (``a.py:42:7`` ->
    ``a.py``, ``a.py#L42`` -> ``a.py``), when something is left."""
    bare = _LINE.sub("", word)
    return bare if bare != word and usable(bare) and not bare.isdigit() else word


def file_name(word: str) -> str:
    """A path's last segment (``src/api/offset.rs`` -> ``offset.rs``), without the line and
    column a pasted location ends with (``offset.rs:42``, ``offset.rs:42:7``, ``offset.rs#L42``):
    how every backend matches a path (``store.fts.term_match``). Any other word is returned as
    it is."""
    core = word.strip("\"'.,;:!?()[]{}<>")
    segments = [seg for seg in core.split("/") if usable(seg)] if "/" in core else []
    tail = segments[-1] if len(segments) > 1 else core
    bare = without_line(tail)
    if bare != tail:
        return bare
    return tail if len(segments) > 1 else word


def lex(query: str, *, syntax: bool) -> list[str]:
    """Split into tokens. With ``syntax``, quotes make phrases and parentheses are tokens."""
    tokens: list[str] = []
    i, n = 0, len(query)
    while i < n:
        ch = query[i]
        if ch.isspace() or ch in "\x00":
            i += 1
        elif syntax and ch == '"':
            end = query.find('"', i + 1)
            tokens.append(query[i : end + 1])
            i = end + 1
        elif syntax and ch in "()":
            tokens.append(ch)
            i += 1
        else:
            j = i
            stops = '"()' if syntax else ""
            while j < n and not query[j].isspace() and query[j] not in stops:
                j += 1
            tokens.append(query[i:j])
            i = j
    return tokens


class _Parser:
    """Recursive descent over: or := and (["OR"] and)* ; and := not ("AND" not)* ;
    not := primary ("NOT" primary)* ; primary := word | "phrase" | "(" or ")"."""

    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def parse(self) -> Node:
        node = self.parse_or()
        if self.peek() is not None:
            raise QuerySyntaxError("trailing tokens")
        return node

    def parse_or(self) -> Node:
        children = [self.parse_and()]
        while (tok := self.peek()) is not None and tok != ")":
            if tok == "OR":
                self.take()
            children.append(self.parse_and())
        return children[0] if len(children) == 1 else Op("OR", tuple(children))

    def parse_and(self) -> Node:
        children = [self.parse_not()]
        while self.peek() == "AND":
            self.take()
            children.append(self.parse_not())
        return children[0] if len(children) == 1 else Op("AND", tuple(children))

    def parse_not(self) -> Node:
        node = self.parse_primary()
        while self.peek() == "NOT":
            self.take()
            node = Op("NOT", (node, self.parse_primary()))
        return node

    def parse_primary(self) -> Node:
        tok = self.peek()
        if tok is None or tok in {"AND", "OR", "NOT", ")"}:
            raise QuerySyntaxError(f"expected a term, got {tok!r}")
        self.take()
        if tok == "(":
            node = self.parse_or()
            if self.peek() != ")":
                raise QuerySyntaxError("unclosed parenthesis")
            self.take()
            return node
        if tok.startswith('"'):
            return Leaf(tok[1:-1], phrase=True)
        if tok.endswith("*") and usable(tok):
            return Leaf(tok.rstrip("*"), prefix=True)
        words = query_words(tok)  # a CJK question: the OR of the words it asks for
        return Leaf(words[0]) if len(words) == 1 else Op("OR", tuple(Leaf(w) for w in words))


def _has_syntax(tokens: list[str]) -> bool:
    return any(
        t in {"AND", "OR", "NOT"} or t.startswith('"') or (t.endswith("*") and usable(t))
        for t in tokens
    )


def _balanced(query: str) -> bool:
    if query.count('"') % 2:
        return False
    depth = 0
    in_quote = False
    for ch in query:
        if ch == '"':
            in_quote = not in_quote
        elif not in_quote and ch == "(":
            depth += 1
        elif not in_quote and ch == ")":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def parse_syntax(text: str) -> Node | None:
    """The tree of ``text`` when it uses FTS5 syntax and is well formed, else None (the caller
    then reads every word as a plain term)."""
    if not _balanced(text):
        return None
    tokens = lex(text, syntax=True)
    if not _has_syntax(tokens):
        return None
    try:
        return _Parser(tokens).parse()
    except QuerySyntaxError:
        return None

"""Value checks shared by the scrubber's rules: what a masked value, a placeholder, code or a
generated credential looks like, and the patterns the rule handlers use; and the pieces every
rule module shares (``Rule``, ``LazyPattern``, ``LazyRe``).

The leaf of the scrubber: ``secrets.scrub`` and every rule module import it, and it imports
none of them, so the scrubber's modules form no cycle. Loaded with the rules on the first call
of ``scrub_secrets`` (``compile_values`` fills ``P``). Every pattern here and in the rule
modules is compiled through ``secrets.regex_cache`` (``re.compile`` unless a hook turned the
cache on). Must not import anything from Kindling except ``secrets.regex_cache``.
"""

from __future__ import annotations

import math
import re

from kindling.secrets.regex_cache import compile as cached_compile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    # A rule looks at one match and returns (kind, replacement), or None to leave it as is.
    Rule = Callable[[re.Match[str]], tuple[str, str] | None]


def mask(kind: str) -> str:
    return f"[REDACTED:{kind}]"


class LazyPattern:
    """A rule's pattern, compiled the first time text holding one of its keywords needs it.

    A hook is a fresh process that scrubs one event: compiling all ~140 rules up front cost
    about 20 ms of its 40 ms budget, while a typical event wakes a handful of them (and with
    ``secrets.regex_cache`` on, even those come compiled from the previous hook)."""

    __slots__ = ("_compiled", "flags", "source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self.source = source
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    def sub(self, repl: Callable[[re.Match[str]], str], text: str) -> str:
        if self._compiled is None:
            self._compiled = cached_compile(self.source, self.flags)
        return self._compiled.sub(repl, text)


class LazyRe:
    """A helper pattern compiled on first use: a hook process scrubs one event, and compiling
    every helper up front would cost it milliseconds for patterns it never asks."""

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source, self._flags = source, flags
        self._compiled: re.Pattern[str] | None = None

    def _re(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = cached_compile(self._source, self._flags)
        return self._compiled

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return self._re().fullmatch(text)

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self._re().match(text, pos)

    def search(self, text: str) -> re.Match[str] | None:
        return self._re().search(text)

    def findall(self, text: str) -> list[str]:
        return self._re().findall(text)

    def sub(self, repl: Callable[[re.Match[str]], str], text: str) -> str:
        return self._re().sub(repl, text)


# --------------------------------------------------------------------------- value checks
# Pattern sources; ``_compile`` turns them into ``P`` attributes on first use.

_LEAVE_VALUE_SRC = r"""
      \[REDACTED:[a-z0-9_]+\]
    | \$\{.*                       # ${VAR}, ${VAR:-default}, ${{ secrets.X }}
    | \$\(.*                       # $(pass show x)
    | \$[A-Z_][A-Z0-9_]*           # $VAR (lower case after $ could be a real password)
    | \{\{.*\}\}                   # {{ template }}
    | \{\w*\}                      # {} {0} {token}
    | <[^<>]+>                     # <your-token>
    | %\(?\w*\)?[sd]               # %s %(password)s
    | %[A-Za-z_]\w*%               # %NUGET_PASSWORD%
    | [?] | :[A-Za-z_]\w*          # SQL parameters
    | \*+ | x{3,} | X{3,} | \.{3,} | …
    | (?i:your|insert|enter)[_-].* # your_api_key_here
    """

# Unquoted values that are code, types or literals rather than secrets.
_CODE_VALUE_SRC = r"""
      [A-Za-z_$][\w$]*+(?:(?:\.|::|->)[A-Za-z_$][\w$]*+)*+(?:::)?[(\[<].*  # call: f(, T::new(
    | [A-Za-z_]++(?:\.[A-Za-z_]++)*+\{                 # Go/Rust struct literal: pkg.Type{}
    | [A-Za-z_][\w]*+(?:::[A-Za-z_][\w]*+)++[;,)]?       # a path: Ordering::Relaxed, std::io
    | [A-Za-z_]++(?:\.[A-Za-z_]++)++                      # attribute chain, no digits: self.token
    | [{\[(\#].*                                       # structure opener or comment
    | (?i:none|null|nil|true|false|undefined|yes|no|on|off|str|string|bytes|int|integer
         |number|bool|boolean|any|unknown|object|secretstr)
    | [*&]++[A-Za-z_][\w.]*+[,;)}]?                   # Go/C pointer: Token: *scanToken,
    | [\^~]\d[\w.+-]*+ | [<>]=?\d[\w.+-]*+ | \d++(?:\.\d++){1,3}[\w.+-]*+  # version: ^5.0.12
    | (?:~|\.{1,2})?/[\w.@+~/-]*                      # POSIX path
    | [A-Za-z]:\\.*                                    # Windows path
    """


class P:
    """Compiled patterns, filled by ``compile_values`` on the first call."""

    marker: re.Pattern[str]
    leave: re.Pattern[str]
    code: re.Pattern[str]
    identifier: re.Pattern[str]
    prose_word: re.Pattern[str]
    next_word: re.Pattern[str]
    loose_key: re.Pattern[str]
    loose_words: tuple[str, ...]
    vendor_words: tuple[str, ...]
    hex: re.Pattern[str]


def entropy(text: str) -> float:
    """Shannon entropy of ``text`` in bits per character (0 for an empty text)."""
    counts: dict[str, int] = {}
    for c in text:
        counts[c] = counts.get(c, 0) + 1
    n = len(text)
    return -sum(k / n * math.log2(k / n) for k in counts.values())


# A token that could be a generated credential: 8+ characters of a credential's alphabet with a
# digit among them or 8 hex digits in a row (``deadbeef``), or 20+ with two capitals at most
# one letter apart (``xKQz``, not the ``ClientSerializer`` of a CamelCase name). The rules that
# find a secret by its value alone (self-identifying shapes, random tokens, a value near a key
# word, loose keys, the kingfisher data rules) mask only such a value, so a text with none
# skips them and their keyword scan (``gated``). The runs
# are maximal (a run of 8 or more is matched from its start), so a value's run lies inside
# one of its text's runs.
_RUN = cached_compile(r"[A-Za-z0-9+/=_.~-]{8,}", re.ASCII)
_DIGIT = cached_compile(r"[0-9]|[a-fA-F]{8}", re.ASCII)
_CAPITALS = cached_compile(r"[A-Z][a-z]?[A-Z]", re.ASCII)
_GATED: set[object] = set()


def has_candidate(text: str) -> bool:
    """True when ``text`` holds a token that could be a generated credential (see above)."""
    for run in _RUN.findall(text):
        if _DIGIT.search(run) is not None:
            return True
        if len(run) >= 20 and _CAPITALS.search(run) is not None:
            return True
    return False


def gated(rule: Rule) -> Rule:
    """Mark ``rule`` as one that masks only a candidate value: ``secrets.scrub`` runs it only
    on texts for which ``has_candidate`` is true. The rule must check its value with
    ``has_candidate`` itself, so skipping it never changes a result."""
    _GATED.add(rule)
    return rule


def is_gated(rule: Rule) -> bool:
    return rule in _GATED


# ``^5.0.12``, ``>=1.2 <2``, ``^5.0.0 || ^6.0.2``: npm's ranges, alone or joined.
_RANGE = r"(?:[\^~]|[<>]=?|=)\d++(?:\.[\dx*]++)*+(?:[-+][\w.]++)?"
VERSION_RANGE = LazyRe(rf"(?:{_RANGE}(?:[ \t]*+\|\|[ \t]*+|[ \t]++|\Z))++", re.ASCII)


def leave_value(value: str) -> bool:
    return P.leave.fullmatch(value) is not None


def random_enough(value: str, min_len: int = 12) -> bool:
    """Looks like a generated credential: long, mixed character classes, not one repeated run."""
    chars = set(value)
    if len(value) < min_len or len(chars) < min(10, len(value) // 2):
        return False
    digit = any(c.isdigit() for c in chars)
    classes = any(c.islower() for c in chars) + any(c.isupper() for c in chars) + digit
    return (classes >= 2 and digit) or classes == 3


def compile_values(vendor_words: tuple[str, ...], loose_words: tuple[str, ...]) -> None:
    """Compile the patterns of ``P`` (once, before any rule runs)."""
    a, compile = re.ASCII, cached_compile
    P.marker = compile(r"\[REDACTED:[a-z0-9_]+\]", a)
    P.leave = compile(_LEAVE_VALUE_SRC, a | re.VERBOSE)
    P.code = compile(_CODE_VALUE_SRC, a | re.VERBOSE)
    P.identifier = compile(r"[A-Za-z_$][\w$]*", a)
    # A single word of prose ("authentication", "Required.", "token-based") is no credential.
    P.prose_word = compile(r"[A-Za-z][a-z]*(?:[-'][a-z]+)*[.,;:!?]?", a)
    P.next_word = compile(r"[ \t]++[A-Za-z]", a)
    P.loose_key = compile(r"(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]{1,80}+\Z", a)
    P.loose_words = (*loose_words, *vendor_words)
    P.vendor_words = vendor_words
    P.hex = compile(r"[0-9a-fA-F]+", a)

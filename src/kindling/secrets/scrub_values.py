"""Value checks shared by the scrubber's rules: what a masked value, a placeholder, code or a
generated credential looks like, and the patterns the rule handlers use; and the pieces every
rule module shares (``Rule``, ``LazyPattern``, ``LazyRe``).

The leaf of the scrubber: ``secrets.scrub`` and every rule module import it, and it imports
none of them, so the scrubber's modules form no cycle. Loaded with the rules on the first call
of ``scrub_secrets`` (``compile_values`` fills ``P``). Every pattern here and in the rule
modules is compiled through ``secrets.regex_cache`` (``re.compile`` unless a hook turned the
cache on). Must not import anything from Kindling except ``secrets.regex_cache`` and
``secrets.scrub_placeholders`` (what ``leave_value`` leaves).
"""

from __future__ import annotations

import itertools
import math
import re

from kindling.secrets.regex_cache import compile as cached_compile
from kindling.secrets.scrub_placeholders import LEAVE_VALUE_SRC

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

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
        self.source, self.flags = source, flags
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

    def finditer(self, text: str, pos: int, endpos: int) -> Iterator[re.Match[str]]:
        return self._re().finditer(text, pos, endpos)

    def sub(self, repl: Callable[[re.Match[str]], str], text: str) -> str:
        return self._re().sub(repl, text)


# ---------------------------- value checks (sources; ``compile_values`` fills ``P`` with them)


# Unquoted values that are code, types or literals rather than secrets.
_CODE_VALUE_SRC = r"""
      [A-Za-z_$][\w$]*+(?:(?:\.|::|->)[A-Za-z_$][\w$]*+)*+(?:::|[!?])?[(\[<].*  # f(, T::new(, f!(
    | [A-Za-z_]++(?:\.[A-Za-z_]++)*+\{                 # Go/Rust struct literal: pkg.Type{}
    | [A-Za-z_][\w]*+(?:::[A-Za-z_][\w]*+)++[;,)]?       # a path: Ordering::Relaxed, std::io
    | [A-Za-z_]++(?:\.[A-Za-z_]++)++                      # attribute chain, no digits: self.token
    | [{\[(\#].*                                       # structure opener or comment
    | (?i:none|null|nil|nothing|true|false|undefined|yes|no|on|off|str|string|bytes|int|integer
         |number|bool|boolean|any|unknown|object|secretstr)
    | [*&]++[A-Za-z_][\w.]*+[,;)}]?                   # Go/C pointer: Token: *scanToken,
    | [\^~]\d[\w.+-]*+ | [<>]=?\d[\w.+-]*+ | \d++(?:\.\d++){1,3}[\w.+-]*+  # version: ^5.0.12
    | (?i:aes|des|3des|rsa|ecdsa|ecdh|ed25519|ed448|x25519|chacha20|hmac|sha|md5|blowfish)
      (?:-?\d{1,4})?(?:[-_](?i:gcm|cbc|ctr|ecb|cfb|ofb|siv|ccm|poly1305|oaep|pss|sha\d{1,3}
      |\d{1,4}))*+ | (?:HS|RS|ES|PS)(?:256|384|512)     # an algorithm: AES-256-GCM, HS256
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


def digits_and_letters(core: str) -> bool:
    """Letters and digits interleaved as in a generated key (``a8Fq2m9Kx...``), not words with
    a number or two (``release2024build7``)."""
    digits = sum(map(str.isdigit, core))
    if digits < 3 or len(core) - digits < 3:
        return False
    if sum(a.isdigit() != b.isdigit() for a, b in itertools.pairwise(core)) < 5:
        return False
    return entropy(core) >= 3.6


def looks_generated(value: str) -> bool:
    """A value of 16+ characters drawn as a key generator draws: letters and digits
    interleaved, letters of both cases at random, or 32+ hex digits; never a dotted name, a
    call or a path."""
    if len(value) < 16 or not value.replace("_", "").replace("-", "").isalnum():
        return False
    core = value.replace("_", "").replace("-", "")
    if len(core) >= 32 and P.hex.fullmatch(core):
        return len(set(core)) >= 8
    return digits_and_letters(core) or generated_letters(core)


def sequential(core: str, *, keyboard: bool = False, share: int = 4) -> bool:
    """A placeholder typed along the alphabet (``abcdef...``, ``123456...``, ``zyxw...``), and
    with ``keyboard`` along a keyboard's rows too (``qwerty...``, ``asdf...``): a quarter of
    its neighbours are consecutive characters (one in ``share``). A generated key has about
    one in sixty.
    Without ``keyboard`` it is the test that a value is no draw (``generated_letters``...):
    a value mashed on the keyboard and given as a secret is still one to mask."""
    steps = sum(
        abs(ord(b) - ord(a)) == 1 or (keyboard and (a + b).lower() in _KEYBOARD)
        for a, b in itertools.pairwise(core)
    )
    return steps * share >= len(core)


# Neighbours along a keyboard's rows, both ways (``qwer``, ``lkjh``).
_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_KEYBOARD = frozenset(
    pair
    for row in (*_ROWS, *(r[::-1] for r in _ROWS))
    for pair in map("".join, itertools.pairwise(row))
)

LOWER_HEX, UPPER_HEX = frozenset("0123456789abcdef"), frozenset("0123456789ABCDEF")


def mixed_case(token: str) -> bool:
    return sum(map(str.isupper, token)) >= 3 and sum(map(str.islower, token)) >= 3


# Entropy a random draw of n characters from 52+ letters and digits reaches in 99 of 100
# draws (measured by sampling), rounded down: below it a token repeats itself as words do.
def entropy_floor(n: int) -> float:
    return 3.5 if n < 24 else 3.75 if n < 32 else 4.0


def generated_letters(core: str) -> bool:
    """A token of 20+ letters (and maybe digits) in both cases, as random as a generated key:
    the case changes as often as a random draw changes it (a run of one class of characters
    is 3 long on average at most; a random draw of letters averages 2), its characters are as
    varied as a random draw (``entropy_floor``), not typed in sequence, and not spelled from
    words (``wordy``: ``getAccessTokenFromHeaders`` is a name).
    ``generated_letters("kETSVUrnPuVzCcVj32iAkQCcHHYxXGx2")`` is true."""
    n = len(core)
    if n < 20 or not mixed_case(core) or not core.isalnum():
        return False
    runs = 1 + sum(char_class(a) != char_class(b) for a, b in itertools.pairwise(core))
    if n > 3 * runs or entropy(core) < entropy_floor(n) or sequential(core):
        return False
    return not wordy(core)


def short_generated(token: str, signs: str = "-_", most: int = 1) -> bool:
    """16-19 letters and digits (a Vonage or LinkedIn secret, a generated password; ``most`` of
    ``signs`` join parts: one ``-`` or ``_``, or base64's ``+/`` three) drawn as a generator
    draws (issue 32): both cases (2+ each) and a digit, the class changing every 2.5 characters,
    3.5 bits a character; or one case, 3+ letters and 2+ digits (no ``0x``, no sign) changing
    every 4 (a draw's mean is 2.5: half fell under it; 21st pass), 3.3 bits, not typed along a
    row; never words, nor hex. Of 215 such of one case in installed code and docs, 13 pass."""
    core = "".join(c for c in token if c not in signs)
    n = len(core)
    if not (16 <= len(token) <= n + most and n <= 19 and core.isalnum()) or P.hex.fullmatch(core):
        return False
    digits, upper, lower = (sum(map(f, core)) for f in (str.isdigit, str.isupper, str.islower))
    one_case = not (upper and lower) and n - digits >= 3 and not core.startswith(("0x", "0X"))
    if not one_case and (digits < 1 or upper < 2 or lower < 2):
        return False
    runs = 1 + sum(char_class(a) != char_class(b) for a, b in itertools.pairwise(core))
    if one_case and core == token and digits >= 2:  # (a draw of one case, no sign)
        if n > 4 * runs or entropy(core) < 3.3 or sequential(core.lower(), keyboard=True):
            return False
    elif n > 2.5 * runs or entropy(core) < 3.5 or sequential(core) or (one_case and digits < 3):
        return False
    return not wordy(core.lower() if one_case else core)


def generated_one_case(core: str) -> bool:
    """A token of 20+ letters of one case and digits (2+), as random as a draw of them: the
    draws ``digits_and_letters`` misses because their few digits sit together
    (``k3mz8qwhvtrplxnbgsfd``: a draw of 36 characters puts a digit at one place in four, so a
    quarter of 20-character draws alternate fewer than 5 times). Varied as a draw
    (``entropy_floor``), not typed in sequence, not spelled from words."""
    n = len(core)
    if n < 20 or not core.isalnum() or not (core.islower() or core.isupper()):
        return False
    if sum(map(str.isdigit, core)) < 2 or sum(map(str.isalpha, core)) < n // 2:
        return False
    if entropy(core) < entropy_floor(n) or sequential(core):
        return False
    return not wordy(core.lower())


def char_class(c: str) -> int:  # a letter or digit's: 0 small, 1 capital, 2 digit
    return 0 if c.islower() else 1 if c.isupper() else 2


# The most frequent letter pairs of English text (published bigram tables, 221 of the 676):
# names in code are spelled from words, so most of their pairs are among these; a random draw
# of letters has about a third of its pairs here.
COMMON_PAIRS = frozenset(
    """th he in er an re on at en nd ti es or te of ed is it al ar st to nt ng se ha as ou io
    le ve co me de hi ri ro ic ne ea ra ce li ch ll be ma si om ur ca el ta la ns di fo ho pe
    ec pr no ct us ac ot il tr ly nc et ut ss so rs un lo wa ge ie wh ee wi em ad ol rt po we
    na ul ni ts mo ow pa im mi ai sh ir su id os iv ia am fi ci vi pl ig tu ev ld ry mp fe bl
    ab gh ty op wo sa ay ex ke fr oo av ag if ap gr od bo sp rd do uc bu ei ov by rm ep tt oc
    fa ef cu rn sc gi da yo cr cl du ga qu ue ff ba ey ls va um pp ua up lu go ht ru ug ds lt
    pi rc rr eg au ck ew mu br bi pt ak pu ui rg ib tl ny ki rk ys ob mm fu ph og ms ye ud mb
    ip ub oi rl gu dr hr cc tw ft wn nu""".split()  # noqa: SIM905
)
# A letter and the lower-case letter after it: the pairs inside a word (``Token``: to ok ke en).
_PAIR = LazyRe(r"(?=([A-Za-z][a-z]))", re.ASCII)


def common_pairs(word: str) -> bool:
    """Every letter pair of ``word`` is a common English pair (``level``, ``prev``): a word,
    as a draw of four letters is one time in thirty."""
    return all(word[i : i + 2].lower() in COMMON_PAIRS for i in range(len(word) - 1))


def wordy(core: str) -> bool:
    """Spelled from words, as a name is: 13 in 20 of its letter pairs inside words (a capital
    or small letter and the small letter after it) are common English pairs. Of the 6,998
    mixed-case names of 20+ characters in this virtualenv's site-packages, every one that
    passes the other tests of ``generated_letters`` is wordy but two (base64 of English text,
    left by the base64 check); of 2,000 random draws of letters (and digits), 2% are (at 6 in
    10: 4%, with the same names; at 7 in 10, 5 names pass). Too few pairs to read (fewer
    than one per three letters: a draw that is mostly capitals, ``RIAcBkEQQWPWhRXF...``) say
    nothing, and the token is not wordy."""
    pairs = _PAIR.findall(core)
    if len(pairs) < 3 or 3 * len(pairs) < sum(map(str.isalpha, core)):
        return False
    common = sum(p.lower() in COMMON_PAIRS for p in pairs)
    return 20 * common >= 13 * len(pairs)


def compile_values(vendor_words: tuple[str, ...], loose_words: tuple[str, ...]) -> None:
    """Compile the patterns of ``P`` (once, before any rule runs)."""
    a, compile = re.ASCII, cached_compile
    P.marker = compile(r"\[REDACTED:[a-z0-9_]+\]", a)
    P.leave = compile(LEAVE_VALUE_SRC, a | re.VERBOSE)
    P.code = compile(_CODE_VALUE_SRC, a | re.VERBOSE)
    P.identifier = compile(r"[A-Za-z_$][\w$]*", a)
    # A single word of prose ("authentication", "Required.", "token-based") is no credential.
    P.prose_word = compile(r"[A-Za-z][a-z]*(?:[-'][a-z]+)*[.,;:!?]?", a)
    P.next_word = compile(r"[ \t]++[A-Za-z]", a)
    P.loose_key = compile(r"(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]{1,80}+\Z", a)
    P.loose_words, P.vendor_words = (*loose_words, *vendor_words), vendor_words
    P.hex = compile(r"[0-9a-fA-F]+", a)


# Words joined the ways code joins them (``KeySerializationEncryption``, ``AI_ADDRCONFIG``,
# ``sha256_digest``): a name, never a generated credential.
WORDY = LazyRe(
    r"(?:[A-Z]{1,4}[a-z]{2,}+|[A-Z][a-z](?=[0-9])|[a-z]{3,}+|(?<=[_.-])[a-z]{2}(?![a-z])"
    r"|[A-Z]{2,}(?=[A-Z][a-z]|[^A-Za-z]|$)|[A-Z](?=[^A-Za-z]|$)|[0-9]++|[_.-])+",
    re.ASCII,
)


def is_name(value: str) -> bool:
    """Words joined as code joins them, with few digits: ``sha256_digest``, not hex."""
    if HEXISH.fullmatch(value):
        return False  # hex (with dashes): a digest or key, never a name
    letters = sum(map(str.isalpha, value))
    if letters < 0.6 * sum(map(str.isalnum, value)) or _WORD3.search(value) is None:
        return False  # mostly digits: generated
    if any(not _VOWEL.search(w) for w in _LOWER_RUN.findall(value)):
        return False  # "tpvgx": letters no language strings together
    if len(_DIGIT_RUN.findall(value)) > 2 or (len(value) >= 24 and entropy(value) >= 4.3):
        return False  # digits scattered through it, or letters as varied as a random draw
    return WORDY.fullmatch(value) is not None and _LONG_DIGITS.search(value) is None


_LOWER_RUN = LazyRe(r"[a-z]{3,}", re.ASCII)
_VOWEL = LazyRe(r"[aeiouy]", re.ASCII)
_WORD3 = LazyRe(r"[a-z]{3}|[A-Za-z]_[A-Za-z]", re.ASCII)


def decoded(token: str) -> bytes | None:
    """``token`` decoded as base64 or base64url, padded or not; None when it is neither."""
    import base64
    import binascii

    padded = token.replace("-", "+").replace("_", "/")
    padded += "=" * (-len(padded.rstrip("=")) % 4 if not padded.endswith("=") else 0)
    try:
        return base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError):
        return None


HEXISH = LazyRe(r"[0-9a-fA-F-]++", re.ASCII)
# A UUID, either case (an id: issue 32's line leaves it out of the secrets it counts).
UUID = LazyRe(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}", re.ASCII)
_LONG_DIGITS = LazyRe(r"[0-9]{6}", re.ASCII)
_DIGIT_RUN = LazyRe(r"[0-9]+", re.ASCII)


def compared_value(kind: str, value: str) -> bool:
    """Whether a literal a secret is compared with is that secret: a password of 4+
    characters, one word (``if password == "-"`` tests for stdin; ``== "a secret"`` is a
    test's phrase), or a generated key (``event.key === "ArrowDown"`` compares a name)."""
    if kind != "password":
        return random_enough(value)
    return len(value) >= 4 and not any(c.isspace() for c in value)


def too_short(kind: str, value: str) -> bool:
    # A password can be short; a token, key or secret that short is a count, id or word.
    return kind != "password" and kind != "private_key" and len(value) < 8

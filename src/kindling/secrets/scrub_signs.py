"""What a value drawn with signs in it reads as, for the rules of ``secrets.scrub`` that judge one:
a draw from every printable character (a Django secret key, a WordPress salt), a password a
manager generates with a few signs strewn through it, and such a password after a secret's key,
where a bracket in it would otherwise read as code (issue 32, fifteenth pass: ``keyed_draw``).
Each judge reads the value's letters and digits as a draw on their own, and refuses what code,
a path, a pattern or a name holds (the ``*_TELLS`` patterns below).

``near_signs_rule`` masks such a password near a word that names a password or a secret, in
the near-key rule's reach (``"password", "<value>"``, ``insecure-password <value>``).

Must not import anything from Kindling except ``secrets.scrub_values`` and
``secrets.scrub_context`` (``about_other``: a word about something else, as the near-key rule
reads it).
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_context import about_other
from kindling.secrets.scrub_values import (
    LazyPattern,
    LazyRe,
    char_class,
    common_pairs,
    entropy,
    entropy_floor,
    mask,
    sequential,
    wordy,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule


# What a pattern, a template or a format holds and a draw seldom does.
PATTERN_TELLS = LazyRe(r"\\[dwsDWS.]|[aA]-[zZfF]|0-9|\][+*?{]|\.[*+]|\(\?|\$\{|\{\{|%[sd]|  ", re.A)
# What code, a path, an address or a pattern holds and a draw seldom does (read in a draw that
# stands alone or follows a key unquoted; a draw of Django's or WordPress's alphabet holds no
# backslash).
CODE_TELLS = LazyRe(
    r"\);|=>|->|::|\|\||//|</|/>|\[\]|\{\}|\\"
    r"|\[-?[0-9]+\]|\{[A-Za-z_]\w+\}|[A-Za-z]{2}\.[A-Za-z_]{2}"
    r"|\A-XX:|\{[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-",  # a JVM's -XX: option; .NET's {GUID}
    re.A,
)
CALL = LazyRe(r"[A-Za-z_]{2}\w*+\([\w.,]*+\)", re.A)  # ``b64decode(key)``, ``get()``


def drawn_printable(value: str, tells: int = 0) -> bool:
    """``value`` reads as drawn from the printable characters (a WordPress salt, a Django secret
    key): a letter in four characters or more, digits, four different signs or more, as varied
    as a draw, at most a blank in 16 characters, and at most ``tells`` of what a pattern or a
    template holds (a draw of 64 holds one, ``.+`` or ``%d``, one time in twelve)."""
    signs = {c for c in value if not c.isalnum() and c != " "}
    if len(signs) < 4 or not value.isascii() or value.count(" ") * 16 > len(value):
        return False
    if 4 * sum(map(str.isalpha, value)) < len(value):
        return False
    if not any(map(str.isdigit, value)) or len(PATTERN_TELLS.findall(value)) > tells:
        return False
    return entropy(value) >= entropy_floor(len(value)) + 0.25


# Longer runs of one class than a draw of Django's or WordPress's alphabet makes (1 in 15 of
# Django's 50 characters holds 10 small letters in a row), and a word's small letters.
_RUN = LazyRe(r"[a-z]{10}|[A-Z]{7}|[0-9]{6}", re.A)
_LOWER_WORD = LazyRe(r"[A-Za-z][a-z]{4,}", re.A)


def _spelled(value: str, core: str) -> bool:
    """What a draw seldom holds and a name does: a long run of one class, a word's small
    letters, keys typed along the keyboard, or letters spelled from words (``core``: the
    value's letters and digits)."""
    if _RUN.search(value) is not None or any(map(common_pairs, _LOWER_WORD.findall(value))):
        return True
    return sequential(core, keyboard=True) or wordy(core)


# The signs a draw alone holds four of at least (not base64's or a URL's: ``+/=_-.~``).
DRAW_SIGNS = frozenset("!#$%&*@^?(){}<>[];|,:")


# What code and markup hold in a token and a draw seldom does: an entity or a tag, a call
# with its arguments (``asl(Rs32,#u5)``) or an index (``v[NACT+1:m]``), a variable (``$PORT``),
# a placeholder (``[IMAGE]``), a pattern's class of letters or group of alternatives,
# a snake_case or CONSTANT_CASE part, an intrinsic's ``__``, a doubled operator (``<<``, ``@@``).
# (The code's part of them a manager's password with a few signs seldom holds either:
# ``signs_in_draw`` asks ``_CODE_PARTS`` alone.)
_CODE_PARTS_SRC = r"\w\([^()]{1,20}\)|\w\[[^\[\]]{1,20}\]|__[a-z]|[A-Z0-9]{2}_[A-Z]{3}"
_CODE_PARTS = LazyRe(_CODE_PARTS_SRC, re.A)
MARKUP_TELLS = LazyRe(
    r"&(?:[a-z]{2,6}|#[0-9]{2,5});|</?[a-z]{1,6}>|\$[A-Z_]{3,}|\[[A-Z_]{3,}\]|\[[A-Za-z]{4,}\]"
    r"|\((?:\w{1,4}\|){2,}\w{1,4}\)|[a-z]{2}_[a-z]{2}|[A-Z]{2}_[A-Z0-9]{2}|<<|>>|@@|"
    + _CODE_PARTS_SRC,
    re.A,
)


def signs_drawn(value: str) -> bool:
    """Drawn from every printable character: a password drawn from the whole keyboard, 16
    characters or more (``keyboard_draw``), or a salt of 24 or more (a Django secret key, a
    WordPress salt: blanks and a pattern's tell may be in it)."""
    return keyboard_draw(value) or (len(value) >= 24 and _salt(value))


def _salt(value: str) -> bool:
    signs = {c for c in value if not c.isalnum()}
    if len(DRAW_SIGNS.intersection(signs)) < 4:
        return False
    if len(signs - set("+/=_-.~")) < 4 or len(signs) < 5 or not drawn_printable(value):
        return False
    core = "".join(c for c in value if c.isalnum())
    if wordy(core):
        return False
    if 24 * sum(map(str.isdigit, core)) < len(value):
        return False  # a draw of 94 characters holds a digit in 9 of them
    if _RUN.search(value) is not None or any(map(common_pairs, _LOWER_WORD.findall(value))):
        return False  # a name (``CHANGELOG``, ``level``): a draw seldom spells one
    return entropy(value) >= entropy_floor(len(value)) + 0.5


# Names before the bracket or ``=`` that follows them (``mask(``, ``maxsize=``).
_NAMED_BEFORE = LazyRe(r"[A-Za-z]{3,}+(?=[(\[<{=])", re.A)


def keyboard_draw(value: str) -> bool:
    """A password drawn from the whole keyboard, 16 characters or more (about a third of them
    signs; issue 32, nineteenth pass): four different signs or more, three of them a draw's
    alone; letters of both cases (two of each) and a digit; no blank;
    nothing a pattern, code, a name or markup holds (``MARKUP_TELLS``); nothing repeated; as
    varied as a draw."""
    n = len(value)
    signs = {c for c in value if not c.isalnum()}
    if n < 16 or len(signs) < 4 or " " in signs or len(DRAW_SIGNS.intersection(signs)) < 3:
        return False
    if 4 * sum(map(str.isalpha, value)) < n or not value.isascii():
        return False
    core = "".join(c for c in value if c.isalnum())
    if min(sum(map(str.isupper, core)), sum(map(str.islower, core))) < 2:
        return False
    if not any(map(str.isdigit, core)):
        return False
    for tells in (PATTERN_TELLS, CODE_TELLS, CALL, NAME_TELLS, MARKUP_TELLS):
        if tells.search(value) is not None:
            return False
    if any(common_pairs(w) for w in _NAMED_BEFORE.findall(value)):
        return False
    if len({value[i : i + 3] for i in range(n - 2)}) < n - 2:
        return False  # a part repeated: a draw does not repeat itself
    return not _spelled(value, core) and entropy(value) >= entropy_floor(n) + 0.25


_NO_SIGNS = str.maketrans("", "", "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")  # (ASCII's signs)


def signs_in_draw(value: str) -> bool:
    """A password a manager generates: a key's draw of letters and digits with a few signs
    strewn through it (``7xu6SrY&iyMUJ$Em&QXDObb4``, ``d6uRPs?X)@NXC5lTOrf7``), 16 characters
    or more. Its letters and digits read as a draw on their own: both cases and a digit, the
    class changing as a draw changes it, as varied as a draw, no word, no run a name holds,
    nothing typed along the keyboard; and nothing in it reads as a pattern."""
    core = value.translate(_NO_SIGNS)  # (the token is ASCII: its pattern's characters)
    n = len(core)
    if n < 12 or 10 * n < 6 * len(value) or core.isupper() or core.islower():
        return False  # (first: what most tokens of code fail, counted in C)
    if PATTERN_TELLS.search(value) is not None:
        return False
    if value[1:-1].isalnum():
        return False  # a sign at an end only: a statement's ``;``, a list's ``,``
    upper, lower = sum(map(str.isupper, core)), sum(map(str.islower, core))
    if min(upper, lower) < max(3, 0.3 * (upper + lower)) or upper + lower == n:
        return False  # a draw's two cases, as a draw mixes them (a name's capitals are few)
    if CALL.search(value) is not None or NAME_TELLS.search(value) is not None:
        return False
    if _CODE_PARTS.search(value) is not None:
        return False  # (``__m256bh([BF16_TWO,``: an intrinsic's call, a constant)
    classes = [char_class(c) for c in core]
    runs = [k for i, k in enumerate(classes) if i == 0 or classes[i - 1] != k]
    if 3 * len(runs) < n or runs.count(0) < 2 or runs.count(1) < 2:
        return False  # one class in runs longer than a draw's, or a case in one run (``GHSA-``)
    if len({value[i : i + 4] for i in range(len(value) - 3)}) < len(value) - 3:
        return False  # a part repeated (``Flags2.a|Flags2.b``): a draw does not repeat itself
    return not _spelled(value, core) and entropy(value) >= entropy_floor(len(value))


# A name's part after a dot (``mio5p.mxUINT8``), an index by name (``arr[i]``), punycode
# (``Xn--Hdh8283gdoaqa``), a path (``/tmp/cc3E8kPH.o``), a query's parameter (``?gclid=``),
# a URL's escape of a sign (``%3D``: base64 URL-encoded, a cursor's or a signature's), and an
# id's prefix starting a field (``ord_8Kq2Zx7Lm3,cus_Pq4Ty8Nw2Vb6``: a row of ids).
NAME_TELLS = LazyRe(
    r"[A-Za-z0-9]{2}\.[A-Za-z_]{2}|\w\[[A-Za-z_]\w*+\]|[Xx][Nn]--|(?:^|/)[a-z]{3,}+/|^/"
    r"|[?&][A-Za-z_][\w.-]*+=|(?:^|[,;|])[a-z]{2,8}+_[A-Za-z0-9]"
    r"|%(?:2[0-9A-F]|3[A-F]|[57][B-F]|40|5B)",
    re.A,
)


# A name just before the bracket it opens (``getpass(``, ``environ[``, ``List<``, ``cfg{``).
_OPENED = LazyRe(r"[A-Za-z]{3,}+(?=[(\[<{])", re.A)


def keyed_draw(value: str) -> bool:
    """After a secret's key, unquoted, a password a generator drew with signs from the whole
    keyboard, which a bracket or ``#`` in it would otherwise make read as code (issue 32,
    fifteenth pass): ``password: ig(.vEJ/&w-[yOv$g]h1``, ``Password=_[x@R*2h1NDq{eF~;``,
    ``passwd = [bsC,Z3s~@u~vb8p``. The key says a secret follows, so the test is looser than
    ``signs_in_draw``'s for a token alone (8 characters, two signs); its letters and digits
    still read as a draw: both cases and a digit, no word, nothing repeated, as varied as a
    draw; and nothing reads as code: no call, no index by name, no path, no pattern, no name
    before the bracket it opens (``os.environ[``, ``getpass(``, ``Map<String,Int32>``)."""
    if not 8 <= len(value) <= 128 or not value.isascii():
        return False
    core = value.translate(_NO_SIGNS)
    if len(value) - len(core) < 2 or len(core) < 6 or core.isupper() or core.islower():
        return False
    if core.isalpha() or CODE_TELLS.search(value) is not None or CALL.search(value) is not None:
        return False
    if NAME_TELLS.search(value) is not None or PATTERN_TELLS.search(value) is not None:
        return False
    if any(common_pairs(w) for w in _OPENED.findall(value)):
        return False
    if len({value[i : i + 3] for i in range(len(value) - 2)}) < len(value) - 2:
        return False  # a part repeated: ``$cfg{pw}{pw}``
    return not _spelled(value, core) and entropy(value) >= entropy_floor(len(value)) - 0.5


# A word that names a password or a secret (a drawn password's signs are a password's, not an
# API key's), at most two short words and separators after it (as the near-key rule reads
# them), then a token of the whole keyboard's signs, letters and digits, apart from the word
# (``gcpUserAccessBindings/...`` and ``SIGSEGV`` hold no key word and value).
_WORDS = ("passw(?:or)?d", "passphrase", "passwd", "pwd", "pass", "secret", "credentials?")
_NEAR_SIGNS_SRC = (
    r"(?=[CPScps])(?:(?<![a-z])|(?=[A-Z]))("
    + "|".join("".join(f"[{c.upper()}{c}]" if c.isalpha() else c for c in w) for w in _WORDS)
    + r")(?![a-z])"
    r"(?P<between>[^A-Za-z0-9\r\n]{0,6}+(?:[A-Za-z0-9]{1,16}+[^A-Za-z0-9\r\n]{1,6}+){0,2}?)"
    r"(?<![A-Za-z0-9])(?P<value>[^\s\"'`\\]{8,64}+)(?![^\s\"'`\\])"
)


def _near_signs(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"].rstrip(".,;")  # a sentence's or a list's end
    if value.isalnum() or "[REDACTED:" in value or any(c in m["between"] for c in "/\\#@"):
        return None  # (the word a path's, a reference's or an address's part)
    if about_other(m) or not keyed_draw(value):
        return None
    tail = m["value"][len(value) :]
    return "password", f"{m.string[m.start() : m.start('value')]}{mask('password')}{tail}"


def near_signs_rule() -> tuple[tuple[str, ...], LazyPattern, Rule]:
    """After the near-key rule (which takes letters, digits and base64's signs)."""
    words = ("pass", "pwd", "secret", "credential")
    return words, LazyPattern(_NEAR_SIGNS_SRC, re.ASCII), _near_signs

"""Dummies typed in a key's place, which name themselves (issue 32, sixteenth pass):
``jiraApiTokenFake00000001``, ``mixpanel_token_0000000000000000``,
``hf_FAKEtokenFAKEtokenFAKEtokenFAKE1``, ``xkeysib-EXAMPLE0000...``.

Such a value stands where a key stands (a test's input, a ``.env.example``, a README's "for
example"), and scanners count it as the secret it stands for; a memory loses nothing by
masking it. Two rules, after every other rule (a key's name or a shape names its kind first):

- ``_selfnamed``: a token of 16+ characters with **a credential's name among its words**
  (``key``, ``token``, ``secret``, ``password``, ``pat``, ``credential``, read at ``_``, ``-``
  and changes of case; the long names inside any run of letters: ``myadminsecretkey``) and
  **a fill a name never has** (``_filled``): 4+ digits ending it, one character 4 times in a
  row (``0000``, ``aaaa``; ``xxxx`` is a placeholder and left, ``scrub_values.leave_value``),
  a chunk typed three times (``testTESTtest``), four characters along the alphabet or the
  digits (``abcd``, ``1234``), a part drawn as a key is (not hex: a hash's or an id's), or a
  word that says it is a dummy (``FAKE`` among small letters; ``fake`` beside a digit).
- ``_prefixed``: a vendor's prefix (``secret_shapes``' literals that end with a separator or
  hold a digit: ``xkeysib-``, ``glpat-``, ``dckr_pat_``) before a body its own shape does not
  take, filled the same way or drawn.

Names are left: a token a ``(``, ``=``, ``: `` or ``::`` follows (a call, an assignment's
target, a key), one after ``def``, a path, a constant (``MAX_OUTPUT_TOKENS_4096``,
``FAILING_EXAMPLES_KEY``: capitals, ``_`` and short numbers), a test's name (``test_...`` in
small letters, unless one character fills it four times), a name of words alone
(``fake_token_factory``), a class's name with a number in it (``Ed25519PrivateKey``: no fill),
a key of another kind (``cache_key_...``, ``scrub_loose.OTHER_KEYS``) and a migration's
(``89956ba5301a_add_token_index``).

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_values``, ``secrets.scrub_keys`` (``ABOUT_WORDS``),
``secrets.scrub_loose`` (``OTHER_KEYS``), ``secrets.scrub_refs`` (``after_function``),
``secrets.secret_shapes`` and ``secrets.regex_cache``.
"""

from __future__ import annotations

import re

from kindling.secrets.regex_cache import compile as cached_compile
from kindling.secrets.scrub_keys import ABOUT_WORDS
from kindling.secrets.scrub_loose import OTHER_KEYS
from kindling.secrets.scrub_refs import after_function
from kindling.secrets.scrub_values import LazyPattern, leave_value, looks_generated, mask
from kindling.secrets.secret_shapes import TOKEN_SHAPES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule

_WORDS = ("key", "token", "secret", "passw", "pwd", "pat", "credential")
# A token: credential characters, not inside a longer run of them (judged by ``_selfnamed``).
_SRC = (
    r"(?<![A-Za-z0-9_.+/=:@$%\\~-])"
    r"[A-Za-z0-9][A-Za-z0-9_+/=:-]{15,200}+(?![A-Za-z0-9_.+/=~@-])"
)
# A credential's name as a word of the token: its letters one case (or capitalised), a
# separator, a digit, a change of case or an end on each side (``BINANCEtestnetKEYaaaa``,
# ``FRESHDESKapikey12345``); the long names inside any run of letters (``myadminsecretkey``).
_NAMED = cached_compile(
    r"(?i:secret|token|passw(?:or)?d|api_?key|credential)"
    r"|(?<![a-z])(?:key|pat|pwd)(?![a-z])|(?<![A-Z])(?:KEY|PAT|PWD)(?![A-Z])|(?:Key|Pat)(?![a-z])",
    re.ASCII,
)
# The fill: digits ending it, one character four times (``aaaa``, ``0000``), a chunk of three
# to twelve letters or digits typed three times in a row.
_FILL = cached_compile(r"[0-9]{4,}+=*\Z|([A-Za-z0-9])\1{3}|(?i:([a-z0-9]{3,12})\2\2)", re.ASCII)
# Words that say a dummy fills the place: in capitals among small letters (``...FAKE...``), or
# in any case beside a digit (``fake_token_1``; ``fake_token_factory`` is a fixture's name).
_DUMMY_CAPS = cached_compile(r"FAKE|EXAMPLE|DUMMY|PLACEHOLDER|DEMO|SAMPLE|TEST", re.ASCII)
_DUMMY = cached_compile(r"(?i:fake|example|dummy|placeholder|not-?a?-?real)", re.ASCII)
_REPEAT = cached_compile(r"(.)\1{3}", re.ASCII)
_NUMBER = cached_compile(r"[0-9]+", re.ASCII)
_SEPARATOR = cached_compile(r"[-_:]", re.ASCII)
_ALONG = cached_compile(
    "(?i:"
    + "|".join(
        run[i : i + 4]
        for run in ("0123456789", "abcdefghijklmnopqrstuvwxyz")
        for i in range(len(run) - 3)
    )
    + ")",
    re.ASCII,
)
# A key of another kind, named by a word of the token (``crowdin`` holds no ``row``).
_OTHER_WORDS = frozenset(w.strip("_") for w in OTHER_KEYS if w.strip("_").isalpha())
_OTHER_JOINED = tuple(w for w in OTHER_KEYS if not w.strip("_").isalpha())  # code_challenge
_WORD = cached_compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", re.ASCII)
_HEX = cached_compile(r"[0-9a-f]+|[0-9A-F]+", re.ASCII)
_UUID = cached_compile(r"[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}", re.ASCII)
_PATH = cached_compile(r"/[a-z]", re.ASCII)
_CAMEL_ID = cached_compile(r"[a-z](?:Id|ID)s?\Z", re.ASCII)  # tokenID, secretId
_AFTER_NAME = cached_compile(r"[ \t]*+(?:\(|=(?!=)|:(?:\s|\Z|:))", re.ASCII)


def _filled(token: str) -> bool:
    """A fill a name never has (see the module's docstring)."""
    if _FILL.search(token) or _ALONG.search(token) or _drawn_part(token):
        return True
    if _DUMMY_CAPS.search(token):
        return not token.isupper()
    return _DUMMY.search(token) is not None and any(map(str.isdigit, token))


def _names_other_key(token: str) -> bool:
    lowered = token.lower()
    if any(w in lowered for w in _OTHER_JOINED):
        return True
    return not _OTHER_WORDS.isdisjoint(w.lower() for w in _WORD.findall(token))


def _drawn_part(token: str) -> bool:
    """A part between separators drawn as a key is (``KUCOIN-KEY-x4F0a1b2C3d4e5f6``); not hex,
    which is never told from a hash or an id (``89956ba5301a_add_token_index``, a migration)."""
    return any(
        looks_generated(part) and _HEX.fullmatch(part) is None for part in _SEPARATOR.split(token)
    )


def _labels_name(token: str) -> bool:
    """Only labels before a ``:`` hold the credential's name, in letters alone (CloudFormation's
    ``{{resolve:secretsmanager:123456}}``, ``token:1234...``): a path or a key, not a fill."""
    *labels, last = token.split(":")
    named = [part for part in labels if _NAMED.search(part)]
    return _NAMED.search(last) is None and all(part.isalpha() for part in named)


def _constant(token: str) -> bool:
    """``MAX_OUTPUT_TOKENS_4096``, ``FAILING_EXAMPLES_KEY``: words in capitals joined by ``_``
    and a number at most, a constant's name (``MIXPANEL_TOKEN_00000000`` is a fill)."""
    if not token.isupper() or "_" not in token or _REPEAT.search(token) or _ALONG.search(token):
        return False
    return all(len(n) <= 5 for n in _NUMBER.findall(token))


def _selfnamed(m: re.Match[str]) -> tuple[str, str] | None:
    token = m[0].rstrip(":")
    text, start = m.string, m.start()
    if _NAMED.search(token) is None or _AFTER_NAME.match(text, start + len(token)):
        return None  # no credential's name; or a call, an assignment's target, a key
    if "://" in token:
        return None  # a URL's scheme and user (the URL rules judge its parts)
    key, eq, value = token.rstrip("=").partition("=")  # (base64 pads only its end)
    if eq and (any(w in key.lower() for w in ABOUT_WORDS) or _CAMEL_ID.search(key)):
        return None  # the value of a key that names an id, a name, a hash: ``token_id=<uuid>``
    if eq and (not value.strip("xX*.") or (leave_value(value) and "x" in value.lower())):
        return None  # KEY=xxxxxxxx, KEY=9bxxxxxxxxJFHg: a placeholder (KEY=00000000 is a fill)
    test = token.startswith("test_") and token.islower() and not _REPEAT.search(token)
    if len(token) < 16 or _constant(token) or test:
        return None  # a constant's name, a test's (``test_issue_1234``; not ``test_key_0000``)
    if ":" in token and _labels_name(token):
        return None  # resolve:secretsmanager:123456, a store's path (a key's value: its rules')
    if _PATH.search(token) and not token.endswith("=") and "+" not in token:
        return None  # a path (base64's ``/`` comes with ``+`` or padding)
    if after_function(text, start):
        return None  # !Ref DBApiKey123: a parameter's name
    if text.endswith("def ", 0, start) or "[REDACTED" in text[max(0, start - 10) : start]:
        return None  # a function's name; a mask's tail
    if not _filled(token) or _names_other_key(token):
        return None  # a cache's, a public or an idempotency key: an id's or a hash's name
    if leave_value(token):
        return None
    keep = f"{key}=" if eq else ""  # (``DB_PASSWORD=2222...``: the key is kept)
    return "secret", keep + mask("secret") + m[0][len(token) :]


def selfnamed_rules() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    """Stand-alone, after every rule that reads a key's name (a key names its kind first) and
    every shape's (a key of its vendor's shape is named by its kind)."""
    return [(_WORDS, LazyPattern(_SRC, re.ASCII), _selfnamed), prefixed_rule()]


# A vendor's prefix that names its token (``secret_shapes``' literals of 4+ characters that end
# with a separator or hold a digit: ``xkeysib-``, ``dckr_pat_``, ``glpat-``), and GitHub's,
# Stripe's and Slack's, whose shapes split the prefix. Left out: prefixes that are words or
# start other things (``live_``, ``test_``, ``TEST-``, ``key-``, ``secret_``, ``npm_config_...``).
_GENERIC = frozenset(
    """1//0 1000. API- base64: key- live_ pat. secret_ test_ ico- pul- scp- sha256~ v1.0- npm_
    Mid-server- SB-Mid-server- fo1_ p8e- xai- sdk- mob- TEST-""".split()  # noqa: SIM905
)
_SPLIT = (
    *("sk_", "sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    *("sk_live_", "sk_test_", "rk_live_", "rk_test_"),
    *("xoxb-", "xoxp-", "xoxa-", "xoxe-", "xoxs-", "xoxr-", "dckr_pat_"),
)


def _prefixes() -> tuple[str, ...]:
    literals = {lit for _, lit, _ in TOKEN_SHAPES}
    named = {
        lit
        for lit in literals
        if len(lit) >= 4 and (lit[-1] in "_-." or any(map(str.isdigit, lit)))
    }
    return tuple(sorted((named - _GENERIC) | set(_SPLIT), key=lambda p: (-len(p), p)))


def _prefixed(m: re.Match[str]) -> tuple[str, str] | None:
    body = m["body"].rstrip(":")
    if len(body) < 12 or leave_value(m[0]) or _AFTER_NAME.match(m.string, m.end()):
        return None
    # (Hex or a UUID after a key's prefix is its key: ``sk_<32 hex>``, not a digest or an id.)
    keyed = (len(body) >= 32 and _HEX.fullmatch(body)) or _UUID.fullmatch(body)
    if not _filled(body) and not keyed:
        return None
    return "vendor_secret", mask("vendor_secret") + m["body"][len(body) :]


def prefixed_rule() -> tuple[tuple[str, ...], LazyPattern, Rule]:
    """A token its vendor's prefix names, whatever its body: a dummy typed in a key's place
    (``xkeysib-EXAMPLE0000...``, ``figd_TEST-token_0000``) or a key whose body the prefix's own
    shape does not take. After the shapes' rules, so a key of the shape is named by its kind."""
    prefixes = _prefixes()
    alternation = "|".join(map(re.escape, prefixes))
    source = (
        rf"(?<![A-Za-z0-9_.+/=:@$%\\~-])(?:{alternation})"
        r"(?P<body>[A-Za-z0-9_+/=:-]{12,200}+)(?![A-Za-z0-9_.+/=~@-])"
    )
    return tuple(p.lower() for p in prefixes), LazyPattern(source, re.ASCII), _prefixed

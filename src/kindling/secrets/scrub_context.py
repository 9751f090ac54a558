"""The context rules of ``secrets.scrub``: a value is a secret because of what surrounds it.

- ``near_key``: a value shaped like a generated credential (mixed letters and digits, a UUID,
  long hex or base64) with a word that means secret (key, secret, token, password, auth,
  credential, private, access, ...) shortly before it on the same line, in any syntax:
  ``heroku key 0c4e...``, ``bugherdKEY=...``, ``aws_secret_access_key <40 chars>``. A value
  given explicitly to the word (only blanks, ``=``, ``:``, quotes or more secret words between:
  ``SECRET abcdefghijklmnopqrst``, ``PRIVATE KEY=...``) is masked when it is a ``typed_key``,
  random or typed in sequence.
- ``said``: a key said with what it is for, farther from its word than the near-key rule
  reads (``use this key for the weather api: <value>``, ``the token for staging is <value>``;
  issue 32, fifteenth pass), the value judged as ``near_key`` judges it.
- URL query parameters that carry a credential (``&sig=`` of an Azure SAS, ``?token=``,
  ``X-Amz-Signature=``), and a token used as the user of a URL
  (``https://<40 hex>:x-oauth-basic@github.com``).
- Webhook URLs whose path is the secret (Discord, Microsoft Teams).
- ``Cookie:`` and ``Set-Cookie:`` headers: a cookie whose value looks generated is a session
  credential, whatever its name; one named for a session (``session_id``, ``PHPSESSID``,
  ``auth_token``) is one whatever its value's look (16+ characters, letters and digits).
- An access key's id, then 40 characters on its line or the next: its secret key (a
  credentials CSV's row, an id and a secret printed one under the other; issue 32, 23rd pass).

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_values``, ``secrets.scrub_typed``, ``secrets.scrub_gate``
``secrets.scrub_refs`` (a name after a YAML function's tag is no value),
``secrets.scrub_ids`` (a public id) and ``secrets.scrub_lines``.
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_gate import has_candidate, woken_by_typed_key
from kindling.secrets.scrub_ids import public_id
from kindling.secrets.scrub_lines import line_start
from kindling.secrets.scrub_refs import DOTTED_CODE, after_function
from kindling.secrets.scrub_typed import typed_key
from kindling.secrets.scrub_values import (
    HEXISH,
    UUID,
    LazyPattern,
    LazyRe,
    entropy,
    is_name,
    leave_value,
    looks_generated,
    mask,
    wordy,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule

# ------------------------------------------------------------------ value shape


# A version, alone or with the file it versions (``v0.22.0/go.mod`` in a go.sum line).
VERSION_PATH = LazyRe(
    r"v?[0-9]++(?:\.[0-9]++)++(?:[-+][A-Za-z0-9.+-]*+)?(?:/[A-Za-z0-9_.+-]++)*+", re.ASCII
)


def _path_word(part: str) -> bool:
    """A word, as a path's parts are: one case, a title, or words (``accessPolicies``)."""
    return part.islower() or part.isupper() or part.istitle() or wordy(part)


def credential_like(value: str) -> bool:
    """Shaped like a generated credential: not a word, name, path, version or number."""
    n = len(value)
    if n < 12 or n > 400:
        return False
    if UUID.fullmatch(value):
        return True
    if len(value) < 24 and HEXISH.fullmatch(value):
        return False  # a short hex id: a GPG key id, a short commit, a color
    # CamelCase or snake_case words, an attribute chain: a name in code. Letters of both
    # cases at random are no name (``KMgvuanz1Wyl2werMcvYKamg`` reads as CamelCase).
    core = value.rstrip("=")  # (an assignment's name: ``B2_APPLICATION_KEY_ID=<key-id>``)
    named = is_name(core) and not looks_generated(value)
    if named or DOTTED_CODE.fullmatch(value) or VERSION_PATH.fullmatch(value):
        return False
    digits = sum(map(str.isdigit, core))
    lower = sum(map(str.islower, core))
    upper = sum(map(str.isupper, core))
    if digits == len(core):
        return n >= 16 and len(set(core)) >= 6  # a long numeric key; not 0000... or a date
    if not digits and not (lower and upper and n >= 20):
        return False  # one case of letters, no digit: a word or a name
    if "." in core and all(p.isalpha() or not p for p in core.split(".")):
        return False  # a.dotted.name
    if "/" in core and not any(c in core for c in "+="):
        parts = [p for p in core.split("/") if p]
        if any(len(p) >= 4 and p.isalpha() and _path_word(p) for p in parts):
            return False  # a path: a word between slashes (``cCwzW`` is base64's draw)
    words = re.split(r"[-_.]", core)
    if len(words) > 1 and max(map(len, words)) < 8 and digits < 4:
        return False  # snake, kebab or dotted words with a number: a name
    return entropy(core) >= (3.0 if n >= 20 else 2.8)


# ------------------------------------------------------------------ near a key word


# A word that means secret, in any case; ``auth`` and ``pass`` must not run on into a longer
# lowercase word (``author``, ``passing``), which the handler checks against the original case.
def _any_case(*words: str) -> str:
    """An alternation of ``words`` in any letter case, spelled out (``[Kk][Ee][Yy]``): the
    ``(?i)`` flag makes this pattern cost a hook process a millisecond more to compile."""
    return "|".join(
        "".join(f"[{c.upper()}{c}]" if c.isalpha() else c for c in word) for word in words
    )


STEM_SRC = "({})".format(
    _any_case(
        *("api[_-]?key", "apikey", "secret", "token", "passw(?:or)?d", "passphrase", "passwd"),
        *("pwd", "pass", "auth", "credentials?", "private", "access", "key", "sig(?:nature)?"),
        "bearer",
    )
)
# After the word: what makes the key about a secret, not one (``key_id``, ``token_type``).
ABOUT = LazyRe(
    r"[_.-]?(?i:ids?|names?|hash|sha|length|len|size|type|file|path|url|uri|count|expir\w*|"
    r"version|format|field|header|prefix|alias|ref|arn|index|length)\b|Id\b|Name\b|_?ID\b",
    re.ASCII,
)
# A key about something else that happens to hold a key word: a cache key, a primary key.
NOT_SECRET_WORDS = (
    *("public", "publishable", "pubkey", "pub_", "keyboard", "keyword", "cache", "primary"),
    *("foreign", "partition", "sort_key", "sort-key", "idempotency", "dedup", "hash"),
    *("websocket",),  # (``Sec-WebSocket-Key``: a handshake's nonce)
)
# From the key word to the value: the word (a whole word, or a CamelCase part: ``adobeKey``,
# not ``monkey`` or ``author``), at most two short words and separators, then the value.
# The first-letter look-ahead lets a position that starts no key word fail at once.
NEAR_HEAD_SRC = (
    rf"(?=[ABCKPSTabckpst])(?:(?<![a-z])|(?=[A-Z])){STEM_SRC}(?![a-z])"
    r"(?P<between>[^A-Za-z0-9\r\n]{0,6}+(?:[A-Za-z0-9]{1,16}+[^A-Za-z0-9\r\n]{1,6}+){0,2}?)"
)
_NEAR_SRC = (
    NEAR_HEAD_SRC
    # A value joined to its key by a dash (``dd-apikey-<hex>``) is checked harder (handler).
    # A shell default (``${KEY:-<value>}``) is given to the key as ``=`` gives it.
    + r"(?:(?<=[A-Za-z]-)|(?<=:-)|(?<![A-Za-z0-9+/=_.~$%@-])(?<!\$\{))"  # (not ${NAME})
    r"(?P<value>[A-Za-z0-9][A-Za-z0-9+/_.~-]{11,399}+={0,3})"
    r"(?![A-Za-z0-9+/=_.~$%@-])"
)


def about_other(m: re.Match[str], word: tuple[int, int] | None = None) -> bool:
    """The secret word of a near-key match (group 1, or the span ``word`` when the rule read
    it back; the value in group ``value``) is about something else: a key's id or name
    (``key_id``), a mask's kind, a cache or primary key, or the value is called (``(``) or
    indexed (``[``)."""
    text = m.string
    start, end = word or (m.start(), m.end(1))
    if text[m.end() : m.end() + 1] in ("(", "["):
        return True  # a call or a subscript
    if ABOUT.match(text, end) or "[REDACTED:" in m[0]:
        return True
    if text.endswith("[REDACTED:", 0, start):
        return True  # the kind of a mask (``[REDACTED:secret]``) is no key word
    head_start = line_start(text, start)
    if head_start is not None and _HCL_BLOCK.match(text, head_start):
        return True  # resource "aws_secretsmanager_secret" "main": a block's labels are names
    if after_function(text, m.start("value")):
        return True  # Password: !Ref DBApiKey1 names the parameter
    head_start = max(text.rfind("\n", max(0, start - 48), start) + 1, start - 48)
    lowered = text[head_start : m.start("value")].lower()
    return any(w in lowered for w in NOT_SECRET_WORDS)


_VB_TYPE = LazyRe(r"[ \t]++As[ \t]++[A-Za-z]", re.ASCII)
_ID_KEY = LazyRe(r"(?:[a-z](?:Id|ID)|[_-](?i:id))[\"']?[ \t]*+[:=][ \t\"']*+\Z", re.ASCII)
_ADD_KEY = LazyRe(r"=[ \t]*+\"[^\"\r\n]{1,80}+\"[ \t]++value=", re.ASCII)
_HCL_BLOCK = LazyRe(r"[ \t]*+(?:resource|data|module|output|provider)[ \t]++\"", re.ASCII)


@woken_by_typed_key
def _near_key(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"]
    text = m.string
    if about_other(m) or leave_value(value) or "@" in m["between"] or public_id(value):
        return None  # (``@``: the word was a URL's placeholder, ``<password>@host:5432/db``;
        # an address: ``tokenAddress = '0x3643...'``)
    if leave_value(m["between"].lstrip(" \t=:\"'`") + value):
        return None  # a part of a reference: ``password: vault:secret/app#pw``
    if _ID_KEY.search(m["between"]) or _ADD_KEY.match(m["between"]):
        return None  # the value of a key that names an id: ``signature. RequestId:<uuid>``;
        # an attribute's ``key`` names the setting: ``<add key="UserIds" value="<uuid>"/>``
    if m[1].lower() == "private" and _VB_TYPE.match(text, m.end()):
        return None  # Visual Basic's ``Private <Name> As String``: a modifier, then a name
    # Given explicitly to the word (``SECRET abcdefghijklmnopqrst``), a run of letters and
    # digits spelled from no words is the secret's value or its dummy, random or not.
    drawn = credential_like(value) and has_candidate(value)
    if not (drawn or (_explicit(m["between"]) and typed_key(value))):
        return None
    dash = text[m.start("value") - 2 : m.start("value")]
    if dash[-1:] == "-" and dash != ":-" and not looks_generated(value):
        return None  # kebab-case: ``token-refresh-2fa-interval``
    return "secret", f"{text[m.start() : m.start('value')]}{mask('secret')}"


# What may stand between a secret word and the value given to it explicitly: blanks, an
# operator, a quote, and further secret words (``PRIVATE KEY=``, ``access TOKEN``); any other
# word makes the value something the sentence talks about.
_EXPLICIT = LazyRe(rf"""[ \t=:"'`_-]*+(?:(?:{STEM_SRC})[ \t=:"'`_-]++)*+""", re.ASCII)


def _explicit(between: str) -> bool:
    return _EXPLICIT.fullmatch(between) is not None


# ------------------------------------------------------------------ URLs

# Query keys the key-value rules do not know (they mask ``token=``, ``password=``, ...); the
# weak ones name a credential only when its value looks generated.
QUERY_KEYS: tuple[str, ...] = ("sig", "signature", "x-amz-signature", "x-goog-signature")
QUERY_KEYS += ("x-amz-credential", "auth", "key", "code")
_WEAK_QUERY_KEYS = ("key", "code", "auth")
_QUERY_SRC = (
    rf"(?P<keep>[?&;](?i:{'|'.join(QUERY_KEYS)})=)"
    r"(?P<value>[^&\s\"'#<>;]++)"
)


def query_secret(key: str, value: str) -> bool:
    """The value of query key ``key`` (one of ``QUERY_KEYS``, any case) is a credential."""
    if "[REDACTED:" in value or leave_value(value):
        return False
    weak = key.lower() in _WEAK_QUERY_KEYS
    return len(value) >= (16 if weak else 6) and (not weak or credential_like(value))


def _query(m: re.Match[str]) -> tuple[str, str] | None:
    if not query_secret(m["keep"][1:-1], m["value"]):
        return None
    return "url_secret", f"{m['keep']}{mask('url_secret')}"


# The words OAuth's servers take as a password after a token given as a URL's user.
OAUTH_PLACEHOLDERS = frozenset({"x-oauth-basic", "x-oauth-token", "x-token-auth", "oauth2"})


# A cookie header: each cookie whose value looks generated is a session credential, whatever
# its name (``session=``, ``sid=``, ``_gh_sess=``); ``theme=dark`` is left.
_COOKIE_SRC = r"(?P<keep>(?i:set-cookie|cookie)[ \t]*+:[ \t]*+)(?P<value>[^\r\n]{1,4000}+)"
_COOKIE_PAIR = LazyRe(r"(?P<name>[^=;\s]{1,100}+)=(?P<value>[^;\s]*+)", re.ASCII)


# A cookie's name that says it holds a session (``session_id``, ``PHPSESSID``, ``connect.sid``,
# ``_app_session``, ``auth_token``, ``remember_user_token``, ``jwt``; not ``author``).
_SESSION_COOKIE = LazyRe(
    r"(?i:[\w.-]*?(?:sess|sid\b|token|auth(?!or)|jwt|remember)[\w.-]*+)", re.ASCII
)
# A session's value: a token's characters (no ``:``, as a time has), 2+ digits, 2+ letters.
_SESSION_VALUE = LazyRe(
    r"(?=(?:[^0-9]*+[0-9]){2})(?=(?:[^A-Za-z]*+[A-Za-z]){2})[\w%+/=.-]++", re.ASCII
)


def _cookie(m: re.Match[str]) -> tuple[str, str] | None:
    masked = []

    def pair(p: re.Match[str]) -> str:
        value = p["value"].strip('"')
        if len(value) < 16 or "[REDACTED:" in value:
            return p[0]
        named = _SESSION_COOKIE.fullmatch(p["name"].strip("\"'")) is not None
        if named and _SESSION_VALUE.fullmatch(value) and has_candidate(value) and not wordy(value):
            pass  # a session's cookie: its value is the session, however random it looks
        elif "." in value or not (looks_generated(value.rstrip("=")) or credential_like(value)):
            return p[0]  # dotted (an analytics id: ``GA1.2.1234.1600``), or not drawn
        masked.append(value)
        raw = p["value"]  # (a quote around the value, or around the whole pair, is kept)
        lead, trail = raw[: len(raw) - len(raw.lstrip('"'))], raw[len(raw.rstrip('"')) :]
        return f"{p['name']}={lead}{mask('token')}{trail}"

    text = _COOKIE_PAIR.sub(pair, m["value"])
    return ("token", f"{m['keep']}{text}") if masked else None


_WEBHOOK_SRC = (
    r"(?P<keep>(?:discord(?:app)?\.com/api/webhooks/[0-9]{5,30}/"
    r"|\.office(?:365)?\.com/webhook(?:b2)?/))(?P<value>[A-Za-z0-9_@./-]{20,400}+)"
)


def _webhook(m: re.Match[str]) -> tuple[str, str] | None:
    return "webhook_url", f"{m['keep']}{mask('webhook_url')}"


# A key shown in groups of four after a secret's label (a TOTP setup key as an authenticator's
# page shows it, ``Secret key: JBSW Y3DP EHPK 3PXP``; a key read out in groups): the groups are
# one value, masked whole when they read as a draw (issue 32, fourteenth pass).
_GROUPED_SRC = (
    r"(?i:secret|key|token|seed|passw(?:or)?d)[\"']?(?:[ \t]*+[:=]|[ \t]++is\b)[ \t]*+"
    r"(?P<value>[A-Za-z0-9]{4}(?:[ ][A-Za-z0-9]{4}){2,7}+)(?![ ]?[A-Za-z0-9])"
)


def _grouped(m: re.Match[str]) -> tuple[str, str] | None:
    groups = m["value"].split(" ")
    core = "".join(groups)
    if 2 * sum(any(map(str.isdigit, g)) for g in groups) < len(groups) or wordy(core):
        return None  # words read in fours (``this text here``), not a draw's groups
    if core.isdigit():
        return None  # a number read in fours: a date, a card's or an account's number
    return "secret", f"{m.string[m.start() : m.start('value')]}{mask('secret')}"


# An access key's id (AWS's, masked by its own shape first; a Cloud Storage HMAC key's,
# ``GOOG...``), then on its line or the next the 40 characters of base64 its secret key is.
_KEY_PAIR_SRC = (
    r"(?:\[REDACTED:aws_access_key_id\]|(?<![A-Za-z0-9])GOOG[A-Z0-9]{20,57}(?![A-Za-z0-9]))"
    r"[\"']?[ \t]*+[,:;|=]?[ \t]*+(?:\r?\n[ \t]*+)?[\"']?"
    r"(?P<value>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
)


def _key_pair(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"]
    if value.isalpha() or not has_candidate(value) or entropy(value) < 3.0 or leave_value(value):
        return None  # a word run, a number, or a one-letter run: no drawn key
    if HEXISH.fullmatch(value) and value in (value.lower(), value.upper()):
        return None  # 40 hex digits of one case: a SHA-1 (a commit), not a secret key
    kind = "aws_secret_access_key" if m[0].startswith("[") else "secret"
    return kind, f"{m.string[m.start() : m.start('value')]}{mask(kind)}"


def context_rules() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    """The context rules, in the order they run: the URL and header rules here run with the
    other shape rules (before ``secrets.scrub_commands``' places), ``near_key`` last (before
    ``random_token``)."""
    a = re.ASCII
    return [
        (("/api/webhooks/", "/webhook"), LazyPattern(_WEBHOOK_SRC, a), _webhook),
        (("cookie",), LazyPattern(_COOKIE_SRC, a), _cookie),
        (("[redacted:aws_access_key_id]", "goog"), LazyPattern(_KEY_PAIR_SRC, a), _key_pair),
        (("secret", "key", "token", "seed", "passw"), LazyPattern(_GROUPED_SRC, a), _grouped),
        (
            ("sig=", "signature=", "key=", "code=", "auth=", "credential="),
            LazyPattern(_QUERY_SRC, a),
            _query,
        ),
    ]


NEAR_KEYWORDS = (
    *("key", "secret", "token", "pass", "pwd", "auth", "credential", "private", "access"),
    *("sig", "bearer"),
)


# A key said with what it is for, as people write one down (issue 32, fifteenth pass): ``use
# this key for the weather api: <value>``, ``the token for staging is <value>``, ``access key
# of the bot = <value>``. The word, ``for`` or ``of`` and up to six words, then ``:``,
# ``=``, ``is`` or ``was``; the value judged as the near-key rule judges it.
_SAID_SRC = (  # (from the blank before "for": rarer than the word's letters; the word is read back)
    r"(?<=[A-Za-z])[ \t]++(?i:for|of)[ \t]++(?:[^\s:=]{1,30}+[ \t]++){0,5}?[^\s:=]{1,30}?"
    r"(?:[ \t]*+[:=]|[ \t]++(?:is|was))[ \t]++(?P<q>[\"'`]?)"
    r"(?P<value>[A-Za-z0-9][A-Za-z0-9+/_.~-]{11,399}+={0,3})(?![A-Za-z0-9+/=_.~$%@(\[-])"
)
_SAID_WORD = LazyRe(rf"(?:(?<![A-Za-z])|(?=[A-Z])){STEM_SRC}s?+\Z", re.ASCII)
# What a key for something else is (``the key for the cache is <hash>``).
_OTHER_THINGS = frozenset(("cache", "map", "dict", "table", "index", "lookup", "row", "sort"))


def _said(m: re.Match[str]) -> tuple[str, str] | None:
    text, start = m.string, m.start()
    head_start = max(0, start - 40)
    word = _SAID_WORD.search(text[head_start:start])
    if word is None or about_other(m, (head_start + word.start(), head_start + word.end())):
        return None  # no secret word before, or one about something else (a mask's kind)
    value, words = m["value"].rstrip("."), m[0][: m.start("value") - start].lower().split()
    if any(w.strip(".,'\"`") in _OTHER_THINGS for w in words) or leave_value(value):
        return None  # a key for a cache, a map, a sort order
    if not (credential_like(value) and has_candidate(value)):
        return None
    tail = m["value"][len(value) :]
    return "secret", f"{text[start : m.start('value')]}{mask('secret')}{tail}"


def near_key_rules() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    return [
        (NEAR_KEYWORDS, LazyPattern(_NEAR_SRC, re.ASCII), _near_key),
        ((" for ", " of "), LazyPattern(_SAID_SRC, re.ASCII), _said),
    ]

"""The context rules of ``secrets.scrub``: a value is a secret because of what surrounds it.

- ``near_key``: a value shaped like a generated credential (mixed letters and digits, a UUID,
  long hex or base64) with a word that means secret (key, secret, token, password, auth,
  credential, private, access, ...) shortly before it on the same line, in any syntax:
  ``heroku key 0c4e...``, ``bugherdKEY=...``, ``aws_secret_access_key <40 chars>``.
- URL query parameters that carry a credential (``&sig=`` of an Azure SAS, ``?token=``,
  ``X-Amz-Signature=``), and a token used as the user of a URL
  (``https://<40 hex>:x-oauth-basic@github.com``).
- Files and commands that hold a password in a known place: ``.netrc`` (``machine x login y
  password z``), credential commands with positional values (``aws configure set
  aws_secret_access_key X``, ``vault operator unseal KEY``, ``vault login TOKEN``), flags of
  programs that take a password (``PsExec -p``, ``plink -pw``, ``sqlcmd -P``, ``ldapsearch -w``,
  ``zip -P``, ``keytool -storepass``), PowerShell's ``-Password X`` and
  ``ConvertTo-SecureString 'x' -AsPlainText``.
- Webhook URLs whose path is the secret (Discord, Microsoft Teams).
- ``Cookie:`` and ``Set-Cookie:`` headers: a cookie whose value looks generated is a session
  credential, whatever its name.

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_values``.
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_values import (
    LazyPattern,
    LazyRe,
    P,
    entropy,
    gated,
    has_candidate,
    leave_value,
    looks_generated,
    mask,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule

# ------------------------------------------------------------------ value shape


# Words joined the ways code joins them (``KeySerializationEncryption``, ``AI_ADDRCONFIG``,
# ``sha256_digest``): a name, never a generated credential.
WORDY = LazyRe(
    r"(?:[A-Z]{1,4}[a-z]{2,}+|[A-Z][a-z](?=[0-9])|[a-z]{3,}+|(?<=[_.-])[a-z]{2}(?![a-z])"
    r"|[A-Z]{2,}(?=[A-Z][a-z]|[^A-Za-z]|$)|[A-Z](?=[^A-Za-z]|$)|[0-9]++|[_.-])+",
    re.ASCII,
)


def is_name(value: str) -> bool:
    """Words joined as code joins them, with few digits: ``sha256_digest``, not hex."""
    if _HEXISH.fullmatch(value):
        return False  # hex (with dashes): a digest or key, never a name
    letters = sum(map(str.isalpha, value))
    if letters < 0.6 * sum(map(str.isalnum, value)) or _WORD3.search(value) is None:
        return False  # mostly digits: generated
    if any(not _VOWEL.search(w) for w in _LOWER_RUN.findall(value)):
        return False  # "tpvgx": letters no language strings together
    if len(_DIGIT_RUN.findall(value)) > 2 or (len(value) >= 24 and entropy(value) >= 4.3):
        return False  # digits scattered through it, or letters as varied as a random draw
    return WORDY.fullmatch(value) is not None and _LONG_DIGITS.search(value) is None


# A version, alone or with the file it versions (``v0.22.0/go.mod`` in a go.sum line).
_VERSION_PATH = LazyRe(
    r"v?[0-9]++(?:\.[0-9]++)++(?:[-+][A-Za-z0-9.+-]*+)?(?:/[A-Za-z0-9_.+-]++)*+", re.ASCII
)
_LOWER_RUN = LazyRe(r"[a-z]{3,}", re.ASCII)
_VOWEL = LazyRe(r"[aeiouy]", re.ASCII)
_WORD3 = LazyRe(r"[a-z]{3}|[A-Za-z]_[A-Za-z]", re.ASCII)
_HEXISH = LazyRe(r"[0-9a-fA-F-]++", re.ASCII)
_LONG_DIGITS = LazyRe(r"[0-9]{6}", re.ASCII)
_DIGIT_RUN = LazyRe(r"[0-9]+", re.ASCII)


_DOTTED_CODE = LazyRe(r"[A-Za-z_][\w]*+(?:\.[A-Za-z_][\w]*+)++", re.ASCII)
_UUID = LazyRe(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}", re.ASCII)


def credential_like(value: str) -> bool:
    """Shaped like a generated credential: not a word, name, path, version or number."""
    n = len(value)
    if n < 12 or n > 400:
        return False
    if _UUID.fullmatch(value):
        return True
    if len(value) < 24 and _HEXISH.fullmatch(value):
        return False  # a short hex id: a GPG key id, a short commit, a color
    if is_name(value) or _DOTTED_CODE.fullmatch(value) or _VERSION_PATH.fullmatch(value):
        return False  # CamelCase or snake_case words, an attribute chain: a name in code
    core = value.rstrip("=")
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
        if any(p.isalpha() and len(p) >= 4 for p in parts):
            return False  # a path
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


_STEM_SRC = "({})".format(
    _any_case(
        *("api[_-]?key", "apikey", "secret", "token", "passw(?:or)?d", "passphrase", "passwd"),
        *("pwd", "pass", "auth", "credentials?", "private", "access", "key", "sig(?:nature)?"),
        "bearer",
    )
)
# After the word: what makes the key about a secret, not one (``key_id``, ``token_type``).
_ABOUT = LazyRe(
    r"[_.-]?(?i:ids?|names?|hash|sha|length|len|size|type|file|path|url|uri|count|expir\w*|"
    r"version|format|field|header|prefix|alias|ref|arn|index|length)\b|Id\b|Name\b|_?ID\b",
    re.ASCII,
)
# A key about something else that happens to hold a key word: a cache key, a primary key.
_NOT_SECRET_WORDS = (
    *("public", "publishable", "pubkey", "pub_", "keyboard", "keyword", "cache", "primary"),
    *("foreign", "partition", "sort_key", "sort-key", "idempotency", "dedup", "hash"),
)
# From the key word to the value: the word (a whole word, or a CamelCase part: ``adobeKey``,
# not ``monkey`` or ``author``), at most two short words and separators, then the value.
_NEAR_SRC = (
    # The first-letter look-ahead lets a position that starts no key word fail at once.
    rf"(?=[ABCKPSTabckpst])(?:(?<![a-z])|(?=[A-Z])){_STEM_SRC}(?![a-z])"
    r"(?P<between>[^A-Za-z0-9\r\n]{0,6}+(?:[A-Za-z0-9]{1,16}+[^A-Za-z0-9\r\n]{1,6}+){0,2}?)"
    # A value joined to its key by a dash (``dd-apikey-<hex>``) is checked harder (handler).
    r"(?:(?<=[A-Za-z]-)|(?<![A-Za-z0-9+/=_.~$%@-]))"
    r"(?P<value>[A-Za-z0-9][A-Za-z0-9+/_.~-]{11,399}+={0,3})"
    r"(?![A-Za-z0-9+/=_.~$%@-])"
)


@gated
def _near_key(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"]
    text = m.string
    if text[m.end() : m.end() + 1] in ("(", "["):
        return None  # a call or a subscript
    if _ABOUT.match(text, m.end(1)) or "[REDACTED:" in m[0]:
        return None
    if text.endswith("[REDACTED:", 0, m.start()):
        return None  # the kind of a mask (``[REDACTED:secret]``) is no key word
    line_start = max(text.rfind("\n", 0, m.start()) + 1, m.start() - 48)
    lowered = text[line_start : m.start("value")].lower()
    if any(w in lowered for w in _NOT_SECRET_WORDS):
        return None
    if not credential_like(value) or leave_value(value) or not has_candidate(value):
        return None
    if text[m.start("value") - 1] == "-" and not looks_generated(value):
        return None  # kebab-case: ``token-refresh-2fa-interval``
    return "secret", f"{text[m.start() : m.start('value')]}{mask('secret')}"


# ------------------------------------------------------------------ URLs

_QUERY_SRC = (
    # Keys the key-value rules do not know (they mask ``token=``, ``password=``, ...).
    r"(?P<keep>[?&;](?i:sig|signature|x-amz-signature|x-goog-signature|x-amz-credential|"
    r"auth|key|code)=)"
    r"(?P<value>[^&\s\"'#<>;]++)"
)


def _query(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"]
    key = m["keep"][1:-1].lower()
    if "[REDACTED:" in value or leave_value(value):
        return None
    weak = key in ("key", "code", "auth")
    if len(value) < (16 if weak else 6) or (weak and not credential_like(value)):
        return None
    return "url_secret", f"{m['keep']}{mask('url_secret')}"


# The user of a URL that is a token: ``https://<token>@host``, ``https://<token>:x-oauth-basic@``.
_URL_USER_SRC = r"(?P<keep>://)(?P<value>[A-Za-z0-9_.~+-]{16,200}+)(?=(?::[^\s/@?#]*+)?@)"
OAUTH_PLACEHOLDERS = frozenset({"x-oauth-basic", "x-oauth-token", "x-token-auth", "oauth2"})


def _url_user(m: re.Match[str]) -> tuple[str, str] | None:
    if not credential_like(m["value"]):
        return None
    return "url_token", f"{m['keep']}{mask('url_token')}"


# A cookie header: each cookie whose value looks generated is a session credential, whatever
# its name (``session=``, ``sid=``, ``_gh_sess=``); ``theme=dark`` is left.
_COOKIE_SRC = r"(?P<keep>(?i:set-cookie|cookie)[ \t]*+:[ \t]*+)(?P<value>[^\r\n]{1,4000}+)"
_COOKIE_PAIR = LazyRe(r"(?P<name>[^=;\s]{1,100}+)=(?P<value>[^;\s]*+)", re.ASCII)


def _cookie(m: re.Match[str]) -> tuple[str, str] | None:
    masked = []

    def pair(p: re.Match[str]) -> str:
        value = p["value"].strip('"')
        if len(value) < 16 or "[REDACTED:" in value or "." in value:
            return p[0]  # short, masked, or dotted (an analytics id: ``GA1.2.1234.1600``)
        if not (looks_generated(value.rstrip("=")) or credential_like(value)):
            return p[0]
        masked.append(value)
        quote = '"' if p["value"].startswith('"') else ""
        return f"{p['name']}={quote}{mask('token')}{quote}"

    text = _COOKIE_PAIR.sub(pair, m["value"])
    return ("token", f"{m['keep']}{text}") if masked else None


_WEBHOOK_SRC = (
    r"(?P<keep>(?:discord(?:app)?\.com/api/webhooks/[0-9]{5,30}/"
    r"|\.office(?:365)?\.com/webhook(?:b2)?/))(?P<value>[A-Za-z0-9_@./-]{20,400}+)"
)


def _webhook(m: re.Match[str]) -> tuple[str, str] | None:
    return "webhook_url", f"{m['keep']}{mask('webhook_url')}"


# ------------------------------------------------------------------ files and commands

_ARG = r"""(?:"[^"\r\n]*+"|'[^'\r\n]*+'|[^\s"'`|;&]++)"""
_NETRC_SRC = (
    r"(?P<keep>\b(?:machine|default|login)\b(?:[ \t\r\n]++\S++){0,4}?[ \t\r\n]++password"
    r"[ \t]++)(?P<value>\S++)"
)
# (keywords, pattern with ``keep`` and ``value``): commands that take a secret in a known place.
# The first two are certain places (any value there is a secret, even one shaped like a path).
COMMAND_SRC: tuple[tuple[tuple[str, ...], str], ...] = (
    (
        ("configure set",),
        r"(?P<keep>\baws[ \t]++configure[ \t]++set[ \t]++[\w.-]*(?i:secret|token|key|password)"
        rf"[ \t]++)(?P<value>{_ARG})",
    ),
    (
        ("vault",),
        r"(?P<keep>\bvault[ \t]++(?:operator[ \t]++)?(?:unseal|login)"
        r"(?:[ \t]++-[\w-]++(?:=\S*+)?)*+[ \t]++)(?P<value>(?!-)[^\s=]++={0,2})(?=\s|$)",
    ),
    (
        ("psexec", "paexec"),
        rf"(?P<keep>\b(?i:psexec|psexec64|paexec)(?:\.exe)?\b[^\r\n]{{0,300}}?[ \t]-p[ \t]++)"
        rf"(?P<value>{_ARG})",
    ),
    (
        ("plink", "pscp", "psftp"),
        rf"(?P<keep>\b(?:plink|pscp|psftp)(?:\.exe)?\b[^\r\n]{{0,300}}?[ \t]-pw[ \t]++)"
        rf"(?P<value>{_ARG})",
    ),
    (
        ("sqlcmd", "bcp", "osql"),
        rf"(?P<keep>\b(?:sqlcmd|bcp|osql)\b[^\r\n]{{0,300}}?[ \t]-P[ \t]*+)(?P<value>{_ARG})",
    ),
    (
        ("ldap",),
        rf"(?P<keep>\bldap\w*+\b[^\r\n]{{0,300}}?[ \t]-w[ \t]++)(?P<value>{_ARG})",
    ),
    (
        ("zip", "7z", "rar "),
        rf"(?P<keep>\b(?:zip|unzip|7z|7za|rar|unrar)\b[^\r\n]{{0,300}}?[ \t]-(?:P[ \t]++|p))"
        rf"(?P<value>{_ARG})",
    ),
    (
        ("storepass", "keypass"),
        rf"(?P<keep>[ \t]-(?:src|dest|new)?(?:storepass|keypass)[ \t]++)(?P<value>{_ARG})",
    ),
    (
        ("/p:", "/password:"),
        r"(?P<keep>[ \t]/(?i:p|password|pass):)(?P<value>\"[^\"\r\n]*+\"|[^\s\"]++)",
    ),
    (
        ("securestring",),
        rf"(?P<keep>(?i:ConvertTo-SecureString)[ \t]++(?:-String[ \t]++)?)(?P<value>{_ARG})",
    ),
    (
        ("identified",),
        # SQL: ALTER USER app IDENTIFIED BY pw (MySQL, Oracle).
        r"(?P<keep>(?<![^\n])[ \t]*+(?:[\w.-]{0,20}[>#=]{1,2}[ \t]*+)?(?i:alter|create|grant)\b"
        r"[^\r\n;]{0,120}?"
        r"\b(?i:identified)[ \t]++(?i:by)[ \t]++(?:(?i:password)[ \t]++)?)"
        rf"(?P<value>(?!(?i:password|values?)\b){_ARG})",
    ),
    (
        ("net user",),
        # Windows: net user NAME PASSWORD [/add]
        rf"(?P<keep>\b(?i:net)[ \t]++(?i:user)[ \t]++(?!/){_ARG}[ \t]++)(?P<value>(?![/*]){_ARG})",
    ),
    (
        ("password-stdin",),
        # echo PW | docker login --password-stdin: the value piped into a credential prompt.
        rf"(?P<keep>\becho[ \t]++(?:-n[ \t]++)?)(?P<value>{_ARG})"
        r"(?=[ \t]*+\|[^\r\n]{0,200}?--password-stdin)",
    ),
    (
        ("env ", "arg "),
        # Dockerfile ``ENV DB_PASSWORD hunter2`` (the old form: key, blank, value).
        r"(?P<keep>(?<![^\n])[ \t]*+(?:ENV|ARG)[ \t]++[A-Za-z_][\w.-]{0,60}?"
        r"(?i:password|passwd|pwd|token|secret|api_?key|access_?key|credentials?)[ \t]++)"
        rf"(?P<value>(?![=\s]){_ARG})",
    ),
    (
        ("mongo",),
        rf"(?P<keep>\bmongo(?:sh|dump|restore|import|export)?\b[^\r\n]{{0,300}}?[ \t]-p[ \t]++)"
        rf"(?P<value>{_ARG})",
    ),
    (
        ("password", "passwd", "token", "secret", "apikey", "api-key", "accesskey"),
        # PowerShell and other single-dash flags: -Password x, -ApiKey x, -Token x. The flag is
        # read whole (possessive) and its end checked by look-behinds: trying each keyword at
        # every letter after each dash cost a diff's worth of backtracking.
        r"(?P<keep>-(?<![\w-]-)[A-Za-z][A-Za-z-]{0,39}+"
        r"(?i:(?<=password)|(?<=passwd)|(?<=token)|(?<=secret)|(?<=apikey)|(?<=api-key)"
        rf"|(?<=accesskey)|(?<=secretkey))[ \t]++)(?P<value>(?!-){_ARG})",
    ),
)


def _certain(m: re.Match[str]) -> tuple[str, str] | None:
    """A value in a place that only ever holds a secret (``vault operator unseal X``)."""
    return _command(m, certain=True)


def _command(m: re.Match[str], certain: bool = False) -> tuple[str, str] | None:
    value = m["value"]
    inner = value[1:-1] if value[:1] in "\"'" and value[-1:] == value[:1] else value
    if not inner or leave_value(inner) or "[REDACTED:" in inner:
        return None
    if not certain and P.code.fullmatch(inner) and not credential_like(inner):
        return None  # -Password $cred.Password, a path
    if inner.startswith("$") or inner.lower() in ("true", "false", "-"):
        return None
    quote = value[0] if inner is not value else ""
    return "password", f"{m['keep']}{quote}{mask('password')}{quote}"


def context_rules() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    """The context rules, in the order they run: URL and command rules with the other
    shape rules, ``near_key`` last (before ``random_token``)."""
    a = re.ASCII
    return [
        (("/api/webhooks/", "/webhook"), LazyPattern(_WEBHOOK_SRC, a), _webhook),
        (("cookie",), LazyPattern(_COOKIE_SRC, a), _cookie),
        (("://",), LazyPattern(_URL_USER_SRC, a), _url_user),
        (
            ("sig=", "signature=", "key=", "code=", "auth=", "credential="),
            LazyPattern(_QUERY_SRC, a),
            _query,
        ),
        (("password",), LazyPattern(_NETRC_SRC, a | re.IGNORECASE), _certain),
        *((words, LazyPattern(src, a), _certain) for words, src in COMMAND_SRC[:2]),
        *((words, LazyPattern(src, a), _command) for words, src in COMMAND_SRC[2:]),
    ]


NEAR_KEYWORDS = (
    *("key", "secret", "token", "pass", "pwd", "auth", "credential", "private", "access"),
    *("sig", "bearer"),
)


def near_key_rule() -> tuple[tuple[str, ...], LazyPattern, Rule]:
    return (NEAR_KEYWORDS, LazyPattern(_NEAR_SRC, re.ASCII), _near_key)

"""The loose-key rule of ``secrets.scrub``: a key that names a secret only loosely, with a value
that looks generated.

A key holding a secret word or a vendor name anywhere (``SECRET_KEY_BASE``, ``datadog_app``),
or ending in a word that means secret but also names settings (``STRIPE_KEY``, ``AUTH``,
``x_amz_sig``, ``private``: ``auth=basic`` and ``private=true`` are settings), given a value
as random as a generated one (for a key ending in such a word, also a ``typed_key``: the
dummy ``STRIPE_KEY=abcdefghijklmnopqrstuvwx`` is given to it as explicitly as a real key).
Runs after the key-value rules of ``secrets.scrub_keyed``.

Issue 32, twelfth pass: a quoted value drawn from the printable characters given to a key that
ends in a weak word or "salt" (WordPress's ``define('NONCE_KEY', '...')``) is masked to its
closing quote (``drawn_printable``; unquoted after ``=`` or ``:``, to its end); and
``drawn_alone_rule``, run after every other rule, masks such a draw standing alone (a Django
secret key) when nothing in it reads as code, a path, a pattern or a name.

Issue 32, fourteenth pass: ``drawn_alone_rule`` also masks a password a manager generates with
signs from the whole keyboard strewn through it (``signs_in_draw``: its letters and digits
read as a draw on their own), 16 characters or more; and ``_client_literal`` masks a literal
an API client's constructor takes first when it reads as a key (``FirecrawlClient("fc-...")``).

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_values``, ``secrets.scrub_typed``, ``secrets.scrub_encoded``,
``secrets.scrub_signs`` (the judges of a draw with signs in it), ``secrets.scrub_gate``,
``secrets.scrub_keys`` (the words that make a key name a secret loosely),
``secrets.scrub_refs`` (a value that names a secret) and ``secrets.scrub_ids`` (a public id).
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_encoded import DIGEST_LABELS, base64_secret
from kindling.secrets.scrub_gate import gated, has_candidate, woken_by_typed_key
from kindling.secrets.scrub_ids import public_id
from kindling.secrets.scrub_keys import ABOUT_WORDS, ANYWHERE_WORDS, loosely_named
from kindling.secrets.scrub_refs import names_a_secret
from kindling.secrets.scrub_signs import (
    CALL,
    CODE_TELLS,
    DRAW_SIGNS,
    drawn_printable,
    signs_drawn,
    signs_in_draw,
)
from kindling.secrets.scrub_typed import typed_key
from kindling.secrets.scrub_values import (
    LazyPattern,
    LazyRe,
    P,
    leave_value,
    looks_generated,
    mask,
    random_enough,
    short_generated,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule


# A key holding a secret word or a vendor name anywhere (``SECRET_KEY_BASE``,
# ``datadog_app = ...``, ``<vendor>_api = ...``), with a value that looks generated.
_API_ENDS = ("_api", "-api")  # ending the key only: ``google-api-services-x:<version>`` names
LOOSE_WORDS = (*ANYWHERE_WORDS, *_API_ENDS)


# A quoted value may open a parenthesis (``KEY = ("..."``: Python joins the strings of a long
# value inside one, as the strict key rules already read it).
_OPEN = r"(?:\([ \t]*+(?=[\"'`]))?"

# Starts at the operator (rarer than letters) and looks back for the key in the handler, so
# a long run of key-like words costs one short look-back per operator, not a scan per letter.
_LOOSE_SRC = (
    rf"(?P<keep>[\"'`]?[ \t]*+(?::{{1,3}}=|\?=|=>|=|:)[ \t]*+{_OPEN}[\"'`]?)"
    r"(?P<value>[A-Za-z0-9_+/.~@%|-]{12,300}+={0,3})"
)


_PORT = LazyRe(r"[0-9]{1,5}+(?:/|\Z)", re.A)
_AUTHORITY = LazyRe(r"://(?:[^\s/@]{0,256}+@)?[\w.-]++\Z", re.A)  # (a user and password first)
_USERINFO = LazyRe(r"://[^\s/@]{0,256}+\Z", re.A)


@gated
def _loose(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"].rstrip(".")
    if value != m["value"] and leave_value(m["value"]):
        return None  # dots that elide it (``xoxp-...``), not a sentence's full stop
    # The value test the end needs, first: most operators in code are followed by a name or a
    # path, and then the key is never looked at.
    long_number = value.isdigit() and len(value) >= 14
    if not (long_number or random_enough(value)) or leave_value(value) or names_a_secret(value):
        return None  # (``"GITHUB_TOKEN_2"``: a variable's name)
    if public_id(value):
        return None  # an address or an id by its format: ``BeeTokenAddress = '0x3643...'``
    if not has_candidate(value) or m.string.startswith("(", m.end()):
        return None  # (``tokenSigner := signer.NewHS256()``: a call names a function)
    start = m.start()
    before = m.string[max(0, start - 260) : start]
    if _PORT.match(value) and _AUTHORITY.search(before):
        return None  # a URL's host and port (``https://secret-app.example.net:443/api``,
        # ``postgresql://app:pw@db.x.supabase.co:5432/postgres``)
    if value[0] == "@" and _USERINFO.search(before):
        return None  # a URL's user, an empty password and its host: ``https://u+token-4:@h/``
    key_match = P.loose_key.search(m.string, max(0, start - 80), start)
    if key_match is None:
        return None
    key = key_match[0].lower()
    vendor = any(word in key for word in P.vendor_words)
    if any(w in key for w in ("public", "publishable", "pub_")):
        return None  # published on purpose: a publishable key is not a secret
    if long_number and key.rstrip("\"' \t:=").endswith("id"):
        return None  # DiscordConsoleChannelId: "7190...": a number given to an id's key
    if any(w in key for w in _TELEMETRY):
        return None  # sentry-trace: <trace id>-<span id>-1 names a request, not a secret
    if not vendor and not loosely_named(key) and not key.endswith(_API_ENDS):
        return None  # (a key ending in a weak word is the rule below's)
    if not vendor and (any(w in key for w in ABOUT_WORDS) or _CAMEL_ID.search(key_match[0])):
        return None  # secret_name, token_id, tokenID, password_hash: about a secret, not one
    # A vendor's key can be a long number (a client id) as well as a random string.
    if not (random_enough(value) or (vendor and long_number)):
        return None
    return "secret", f"{m['keep']}{mask('secret')}{m['value'][len(value) :]}"


# An id's name joined in camel case (``tokenID``, ``secretId``): the id of a secret, not one.
_CAMEL_ID = LazyRe(r"[a-z](?:Id|ID)s?\Z", re.ASCII)
# Keys that name a trace, a span or a correlation id, whatever vendor names them (issue 32, 24th
# pass: ``sentry-trace``, ``datadog_trace_id``).
_TELEMETRY = ("trace", "span_id", "spanid", "correlation")
# Keys ending in "key" that hold something other than a credential: an index, a cache or
# database key, a key published on purpose (a publishable key, a reCAPTCHA site key), a word
# ending in "key".
OTHER_KEYS = (
    *("public", "publishable", "pub_"),
    *("cache", "primary", "foreign", "partition", "sort", "idempotency", "dedup", "site"),
    *("row", "hash", "lookup", "map", "dict", "object", "group", "order", "field", "react"),
    *("monkey", "turkey", "hockey", "jockey", "donkey", "whiskey", "hotkey", "shortcut"),
    # (a handshake's nonce, ``Sec-WebSocket-Key``; PKCE's public challenge; an ad click's id)
    *("websocket", "code_challenge", "gclid", "fbclid", "msclkid", "dclid", "gbraid", "wbraid"),
)


# Words that mean secret when they end a key but also name settings (``auth=basic``,
# ``private: true``, ``signature: required``): their value must look generated.
_WEAK_ENDINGS = ("key", "auth", "sig", "signature", "private", "salt")


def _any_key(key: str) -> bool:
    """A key that ends in the word key, auth, sig, signature, private or salt (``STRIPE_KEY``,
    ``stripeKey``, ``app.key``, ``AUTH``, ``x-amz-sig``, ``hash_salt``): with a value as random
    as a generated one, a credential whatever the vendor."""
    key = key.rstrip("\"'`")
    if key.endswith("salt"):
        return True  # a salt keys a hash whatever the key's other words (Drupal's hash_salt)
    return key.endswith(_WEAK_ENDINGS) and not any(w in key for w in OTHER_KEYS)


# Starts at the weak word ending the key (its first letter a class the engine skips to, so other
# positions cost nothing), then the operator and a value of a generated key's characters.
_WEAK_SRC = (
    r"[KkAaSsPp](?:(?<=[Kk])[Ee][Yy]|(?<=[Aa])[Uu][Tt][Hh]"
    r"|(?<=[Ss])[Ii][Gg](?:[Nn][Aa][Tt][Uu][Rr][Ee])?|(?<=[Pp])[Rr][Ii][Vv][Aa][Tt][Ee]"
    r"|(?<=[Ss])[Aa][Ll][Tt])(?![A-Za-z0-9_])"
    # (``']`` too: PHP's ``$settings['hash_salt'] = '...'``)
    rf"(?P<keep>[\"'`]?\]?[ \t]*+(?::{{1,3}}=|\?=|=>|=|:)[ \t]*+{_OPEN}[\"'`]?)"
    r"(?P<value>[A-Za-z0-9_+/-]{16,300}+={0,6})(?![A-Za-z0-9_.(\[+/=-])"
)


# A dummy that names itself a secret and ends in a number (``HARDCODED_KEY = "SuperSecretKey12"``):
# given to a key, its value, as a typed one is (26th pass).
_SELF_NAMED = LazyRe(r"[A-Za-z]*?(?i:secret|token|passw(?:or)?d)[A-Za-z]*+[0-9]{2,6}", re.ASCII)


@woken_by_typed_key
def _weak(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"]
    if not value.strip("xX*") or leave_value(value):
        return None  # MINIO_SECRET_KEY=xxxxxxxx..., 9bxxxxxxxxJFHg: a placeholder, a key x'd out
    if value.endswith("===") or not any(c in value for c in "+/=") or "_" in value or "-" in value:
        # A 16-19 character key is judged as a draw (``short_generated``), as a bare token is;
        # a run of letters and digits spelled from no words is the key's value or its dummy
        # (``typed_key``), whether or not it looks drawn.
        # (base64url keeps its padding: a Fernet key, ``urlsafe_b64encode`` of random bytes)
        core = value.rstrip("=")
        drawn = (looks_generated(core) or short_generated(core)) and has_candidate(core)
        if not (drawn or typed_key(core) or _SELF_NAMED.fullmatch(core)):
            return None
    elif base64_secret(value, "") is None:
        return None  # standard base64 (``STRIPE_KEY=<base64>``) is judged as a bare token is
    text = m.string
    key_match = P.loose_key.search(text, max(0, m.start() - 80), m.start("keep"))
    if key_match is None or not _any_key(key_match[0].lower()):
        return None
    label = text[max(0, key_match.start() - 16) : key_match.start()].lower().rstrip(" _-.")
    if any(label.endswith(w) for w in OTHER_KEYS):
        return None  # a label of words saying what the key is (``Cache key:``, ``Public key:``)
    return "secret", f"{text[m.start() : m.start('value')]}{mask('secret')}"


# A value drawn from every printable character, given to a key ending in a weak word or "salt"
# (WordPress's ``define('NONCE_KEY', '<64 characters>')`` and ``AUTH_SALT``, CakePHP's
# ``'salt' => '...'``, Drupal's ``hash_salt``, ``NONCE_KEY=...`` in an ``.env``). The key's
# quote, then ``,`` (``define``), ``=>``, ``=`` or ``:``; a quoted value is masked to its
# closing quote (blanks inside), an unquoted one to its end.
_DRAWN_AFTER_KEY_SRC = (
    r"[KkSs](?:(?<=[Kk])[Ee][Yy]|(?<=[Ss])[Aa][Ll][Tt])(?![A-Za-z0-9_])"
    r"(?P<keep>[\"'`]?\]?[ \t]*+(?P<op>=>|=|:|,)[ \t]*+(?P<q>[\"'`])?)"
    r"(?(q)(?P<value>(?:[^\"'`\r\n\\]|(?!(?P=q))[\"'`]){20,256}+)(?P=q)"
    # (unquoted, after ``=`` or ``:`` only: an ``.env`` line, YAML; no blank inside)
    r"|(?P<bare>[!#-&(-_a-~]{20,256}+)(?![!#-&(-_a-~]))"
)


def _drawn_after_key(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"] or m["bare"]
    if m["bare"] and (m["op"] not in ("=", ":") or CODE_TELLS.search(value) or CALL.search(value)):
        return None  # an argument after a comma, or code (``base64.b64decode(key)``)
    # (the key's name says what it holds; a value another rule masked in part is masked whole:
    # ``'[REDACTED:password]<g<)iLRp!~+~ )ODE(...'``, a draw's part read as a password first)
    first = P.marker.match(value)
    rest = value[first.end() :] if first is not None else ""
    partly = len(rest) >= 12 and len(DRAW_SIGNS.intersection(rest)) >= 2
    if not partly and not drawn_printable(value, tells=1):
        return None
    text = m.string
    key_match = P.loose_key.search(text, max(0, m.start() - 80), m.start("keep"))
    if key_match is None or not _any_key(key_match[0].lower()):
        return None
    return "secret", f"{text[m.start() : m.end('keep')]}{mask('secret')}{m['q'] or ''}"


# A token standing alone, drawn from every printable character (a Django secret key, a
# WordPress salt's part between blanks, a generated password): 24 to 128 characters with no
# blank or quote, between blanks, quotes or the text's ends (a longer run is minified code).
_DRAWN_ALONE_SRC = r"(?<![!#-&(-_a-~])(?P<value>[!#-&(-_a-~]{16,128}+)(?![!#-&(-_a-~])"


def _drawn_alone(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"]
    if not DRAW_SIGNS.intersection(value) or CODE_TELLS.search(value) is not None:
        return None  # (first: the cheapest test, and what most such tokens fail)
    if signs_drawn(value):
        return "secret", mask("secret")
    if value[0] + value[-1] in ("[]", "()", "{}", "<>"):
        return None  # a token in brackets: the token rules judge it (``[evt_<id>]``)
    label = f"{m.string[max(0, m.start() - 30) : m.start()]}{value[:8]}".lower()
    if signs_in_draw(value) and not any(word in label for word in DIGEST_LABELS):
        return "secret", mask("secret")  # (not a digest: ``h1:<base64>``, ``sha384-...``)
    return None


def drawn_alone_rule() -> tuple[tuple[str, ...], LazyPattern, Rule]:
    """Stand-alone, after every other rule (the token rules give their kinds first). Woken by
    a digit, as a draw holds one (signs, as keywords, would wake it on every line of code)."""
    return tuple("0123456789"), LazyPattern(_DRAWN_ALONE_SRC, re.ASCII), _drawn_alone


# A literal an API client's constructor takes first (``FirecrawlClient("fc-<hex>")``, ``new
# AxiomApi('<key>')``): the client names what it is given, as a key's name would (issue 32,
# fourteenth pass). Masked when it reads as a key: generated, or a short prefix and hex digits
# or a UUID; a URL, a host, a name, an id or a digest (hex alone, a UUID alone) is left.
_CLIENT_SRC = (
    r"\b[A-Z][A-Za-z0-9]{0,40}?(?:Client|Api|API|Sdk|SDK)[ \t]*+\([ \t]*+(?P<keep>(?P<q>[\"'`]))"
    r"(?P<value>[A-Za-z0-9_.+/=-]{16,256}+)(?P=q)"
)
_PREFIXED_HEX = LazyRe(
    r"(?!0x)[A-Za-z]{1,8}+[._-](?:[0-9a-f]{32,}+|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})", re.A
)
_ONE_CASE_HEX = LazyRe(r"(?:0x)?+(?:[0-9a-f-]++|[0-9A-F-]++)", re.A)


def _client_literal(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"]
    if any(value.lower().startswith(w) for w in DIGEST_LABELS):
        return None  # a digest (``sha384-...``)
    if _PREFIXED_HEX.fullmatch(value) is None:
        drawn = not _ONE_CASE_HEX.fullmatch(value) and looks_generated(value.rstrip("="))
        if not (drawn or (any(c in value for c in "+/=") and base64_secret(value, ""))):
            return None
    return "secret", f"{m.string[m.start() : m.end('keep')]}{mask('secret')}{m['q']}"


def loose_rules() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    """The loose-key rule, and the rule of keys ending in a weak word (woken by the word just
    before an operator or its quote: "keys", "keyword", "key_id" in code would wake it for
    nothing; "private " is a modifier on most lines of Java or TypeScript)."""
    a = re.ASCII
    weak = tuple(
        f"{word}{after}"
        for word in _WEAK_ENDINGS
        for after in ("=", ":", '"', "'", "`", "?", *((" ", "\t") if word != "private" else ()))
    )
    return [
        (P.loose_words, LazyPattern(_LOOSE_SRC, a), _loose),
        (weak, LazyPattern(_WEAK_SRC, a), _weak),
        (
            tuple(f"{w}{q}" for w in ("key", "salt") for q in ("'", '"', "`", "=", ":", ",")),
            LazyPattern(_DRAWN_AFTER_KEY_SRC, a),
            _drawn_after_key,
        ),
        (("client(", "api(", "sdk("), LazyPattern(_CLIENT_SRC, a), _client_literal),
    ]

"""The loose-key rule of ``secrets.scrub``: a key that names a secret only loosely, with a value
that looks generated.

A key holding a secret word or a vendor name anywhere (``SECRET_KEY_BASE``, ``datadog_app``),
or ending in a word that means secret but also names settings (``STRIPE_KEY``, ``AUTH``,
``x_amz_sig``, ``private``: ``auth=basic`` and ``private=true`` are settings), given a value
as random as a generated one (for a key ending in such a word, also a ``typed_key``: the
dummy ``STRIPE_KEY=abcdefghijklmnopqrstuvwx`` is given to it as explicitly as a real key).
Runs after the key-value rules of ``secrets.scrub_keyed``.

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_values``, ``secrets.scrub_typed``, ``secrets.scrub_encoded``
and ``secrets.scrub_gate``.
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_encoded import base64_secret
from kindling.secrets.scrub_gate import gated, has_candidate, woken_by_typed_key
from kindling.secrets.scrub_typed import typed_key
from kindling.secrets.scrub_values import (
    LazyPattern,
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
_ANYWHERE = ("secret", "token", "passw", "apikey", "api_key", "api-key", "credential")
_API_ENDS = ("_api", "-api")  # ending the key only: ``google-api-services-x:<version>`` names
LOOSE_WORDS = (*_ANYWHERE, *_API_ENDS)


# A quoted value may open a parenthesis (``KEY = ("..."``: Python joins the strings of a long
# value inside one, as the strict key rules already read it).
_OPEN = r"(?:\([ \t]*+(?=[\"'`]))?"

# Starts at the operator (rarer than letters) and looks back for the key in the handler, so
# a long run of key-like words costs one short look-back per operator, not a scan per letter.
_LOOSE_SRC = (
    rf"(?P<keep>[\"'`]?[ \t]*+(?::{{1,3}}=|\?=|=>|=|:)[ \t]*+{_OPEN}[\"'`]?)"
    r"(?P<value>[A-Za-z0-9_+/.~@%|-]{12,300}+={0,3})"
)


@gated
def _loose(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"].rstrip(".")
    # The value test the end needs, first: most operators in code are followed by a name or a
    # path, and then the key is never looked at.
    long_number = value.isdigit() and len(value) >= 14
    if not (long_number or random_enough(value)) or leave_value(value):
        return None
    if not has_candidate(value):
        return None
    start = m.start()
    key_match = P.loose_key.search(m.string, max(0, start - 80), start)
    if key_match is None:
        return None
    key = key_match[0].lower()
    vendor = any(word in key for word in P.vendor_words)
    if not vendor and not any(w in key for w in _ANYWHERE) and not key.endswith(_API_ENDS):
        return None  # (a key ending in a weak word is the rule below's)
    if any(w in key for w in ("public", "publishable", "pub_")):
        return None  # published on purpose: a publishable key is not a secret
    if not vendor and any(w in key for w in ("_id", "-id", "hash", "sha", "name")):
        return None  # secret_name, token_id, password_hash: about a secret, not one
    # A vendor's key can be a long number (a client id) as well as a random string.
    if not (random_enough(value) or (vendor and long_number)):
        return None
    return "secret", f"{m['keep']}{mask('secret')}{m['value'][len(value) :]}"


# Keys ending in "key" that hold something other than a credential: an index, a cache or
# database key, a key published on purpose (a publishable key, a reCAPTCHA site key), a word
# ending in "key".
OTHER_KEYS = (
    *("public", "publishable", "pub_"),
    *("cache", "primary", "foreign", "partition", "sort", "idempotency", "dedup", "site"),
    *("row", "hash", "lookup", "map", "dict", "object", "group", "order", "field", "react"),
    *("monkey", "turkey", "hockey", "jockey", "donkey", "whiskey", "hotkey", "shortcut"),
)


# Words that mean secret when they end a key but also name settings (``auth=basic``,
# ``private: true``, ``signature: required``): their value must look generated.
_WEAK_ENDINGS = ("key", "auth", "sig", "signature", "private")


def _any_key(key: str) -> bool:
    """A key that ends in the word key, auth, sig, signature or private (``STRIPE_KEY``,
    ``stripeKey``, ``app.key``, ``AUTH``, ``x-amz-sig``): with a value as random as a generated
    one, a credential whatever the vendor."""
    key = key.rstrip("\"'`")
    return key.endswith(_WEAK_ENDINGS) and not any(w in key for w in OTHER_KEYS)


# Starts at the weak word ending the key (the first-letter look-ahead lets other positions fail
# at once), then the operator and a value of a generated key's characters.
_WEAK_SRC = (
    r"(?=[KkAaSsPp])(?:[Kk][Ee][Yy]|[Aa][Uu][Tt][Hh]|[Ss][Ii][Gg](?:[Nn][Aa][Tt][Uu][Rr][Ee])?"
    r"|[Pp][Rr][Ii][Vv][Aa][Tt][Ee])(?![A-Za-z0-9_])"
    rf"(?P<keep>[\"'`]?[ \t]*+(?::{{1,3}}=|\?=|=>|=|:)[ \t]*+{_OPEN}[\"'`]?)"
    r"(?P<value>[A-Za-z0-9_+/-]{16,300}+={0,2})(?![A-Za-z0-9_.(\[+/=-])"
)


@woken_by_typed_key
def _weak(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"]
    if not any(c in value for c in "+/=") or "_" in value or "-" in value:
        # A 16-19 character key is judged as a draw (``short_generated``), as a bare token is;
        # a run of letters and digits spelled from no words is the key's value or its dummy
        # (``typed_key``), whether or not it looks drawn.
        drawn = (looks_generated(value) or short_generated(value)) and has_candidate(value)
        if not (drawn or typed_key(value)):
            return None
    elif base64_secret(value, "") is None:
        return None  # standard base64 (``STRIPE_KEY=<base64>``) is judged as a bare token is
    text = m.string
    key_match = P.loose_key.search(text, max(0, m.start() - 80), m.start("keep"))
    if key_match is None or not _any_key(key_match[0].lower()):
        return None
    return "secret", f"{text[m.start() : m.start('value')]}{mask('secret')}"


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
    ]

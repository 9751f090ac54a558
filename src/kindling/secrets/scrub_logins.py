"""Logins stored encoded as a protocol or a format carries them (issue 32, 30th pass): base64 of
HTTP Basic's ``user:secret`` (a docker config's ``auth``, ``echo -n u:p | base64``'s output),
of SASL PLAIN's ``[authzid] NUL user NUL password`` (SMTP's, IMAP's and XMPP's ``AUTH PLAIN``:
29th pass), and of a Windows answer file's password (``unattend.xml``'s ``<Value>`` with
``<PlainText>false</PlainText>``: UTF-16LE of the password followed by its element's name,
``Password`` or ``AdministratorPassword``, which hides nothing).

``scrub_encoded.encoded_login`` asks ``login_kind`` of a token's bytes, for the stand-alone
token rules and for a value given to a key alike.

A leaf: must not import anything from Kindling except ``secrets.regex_cache``.
"""

from __future__ import annotations

import re

from kindling.secrets.regex_cache import compile as cached_compile

# ``user:secret``, not ``https://host`` (base64 of a URL is a tracking link, not a login): a
# secret of 4+ characters (``admin:admin``), a blank inside it but not at its ends; not a time
# or a run of numbers (``12:34:56``; issue 32, 24th pass).
BASIC = cached_compile(
    r"(?![\d:]++\Z)[\w.@+-]{1,64}+:(?!//)(?=[\x20-\x7e]{4,}+\Z)"
    r"[\x21-\x7e](?:[\x20-\x7e]*+(?<=[\x21-\x7e]))?",
    re.ASCII,
)
# Read as Latin-1, so that each byte is one character.
_SASL_PLAIN = cached_compile(
    r"[\x21-\x7e]{0,64}+\x00[\x21-\x7e]{1,64}+\x00[\x20-\x7e]{4,}+", re.ASCII
)
_ANSWER_NAMES = (b"Password", b"AdministratorPassword")
_PRINTABLE = bytes(range(32, 127)) + b"\t\n\r"
_VISIBLE = bytes(range(32, 127))


def printable(raw: bytes) -> bool:
    # At most 15% of the bytes outside printable ASCII (``translate`` counts them in C).
    return bool(raw) and len(raw.translate(None, _PRINTABLE)) <= 0.15 * len(raw)


def login_kind(raw: bytes) -> str | None:
    """The kind of login ``raw`` (a token's decoded bytes) is, or None."""
    if _SASL_PLAIN.fullmatch(raw.decode("latin-1")) is not None:
        return "basic_credential"
    if printable(raw):
        text = raw.decode("ascii", "replace").strip()
        return "basic_credential" if BASIC.fullmatch(text) is not None else None
    return "password" if _answer_file(raw) else None


def _answer_file(raw: bytes) -> bool:
    """UTF-16LE of printable ASCII that ends with an answer file's element name, after a
    password of one character or more."""
    if len(raw) % 2 or len(raw) > 1024 or raw[1::2].strip(b"\x00"):
        return False
    text = raw[0::2]
    if text.translate(None, _VISIBLE):
        return False
    return any(text.endswith(name) and len(text) > len(name) for name in _ANSWER_NAMES)

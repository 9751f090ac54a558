"""Public ids: formats that say a token names something and is no secret (issue 32, fourteenth
pass).

``public_id`` is asked by the stand-alone token rules of ``secrets.scrub_rules`` and
``secrets.scrub_encoded`` before they judge a token as a draw: a Stripe object's id (``cus_``,
``ch_``, ``pi_``, ``evt_``: an API's reference to a customer, a charge, an event; Stripe's keys
are ``sk_`` and ``rk_``, shapes of their own, and a payment's client secret holds
``_secret_``), a ULID (26 of Crockford's base32, a time in this century first), an IPFS
content id (``Qm`` and 44 of base58, a SHA-256 multihash; ``bafy`` or ``bafk`` and base32), a
GitHub GraphQL node id (``PR_kwDO...``, and the first form's ``MDEwOlJlcG9zaXRvcnkx...``), and
base64 that starts with a file's signature (a PNG's ``iVBORw0KGg``: ``DATA_MAGIC``). Each
format is drawn, so only its fixed parts tell it from a key.

Must not import anything from Kindling except ``secrets.scrub_values``.
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_values import decoded

# File signatures, as base64, of data that is no key: images, fonts, archives, PDFs.
DATA_MAGIC: tuple[str, ...] = ("iVBORw0KGg", "/9j/", "R0lGOD", "PHN2Zy", "PD94bW", "d09GR")
DATA_MAGIC += ("d09GMg", "AAEAAA", "JVBERi0", "UEsDB", "H4sI", "Qk0", "UklGR", "AAAAIGZ0eXA")
DATA_MAGIC += ("T1RUTw",)
_STRIPE = re.compile(
    r"(?:cus|ch|pi|pm|evt|in|sub|si|price|prod|acct|txn|re|seti|src|card|ba|po|py|tr|ii|il"
    r"|file|plink|cs_(?:test|live))_[A-Za-z0-9]{8,}+",
    re.ASCII,
)
_ULID = re.compile(r"[0-7][0-9A-HJKMNP-TV-Z]{25}", re.ASCII)
_CID = re.compile(r"Qm[1-9A-HJ-NP-Za-km-z]{44}|baf[ky][a-z2-7]{50,}+", re.ASCII)
_NODE = re.compile(r"[A-Z]{1,4}_k[gw][A-Za-z0-9_-]{12,}+", re.ASCII)
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
# A ULID's time, in milliseconds: 2015 to 2040.
_ULID_TIMES = (1_420_070_400_000, 2_208_988_800_000)


def public_id(token: str) -> bool:
    """``token`` is, by its format, an id an API or a store gives, or a file's data (its
    signature in base64 first: ``DATA_MAGIC``), not a credential."""
    if _STRIPE.fullmatch(token) or _CID.fullmatch(token) or _NODE.fullmatch(token):
        return True
    if token.startswith(DATA_MAGIC) and len(token) >= 24:
        return True
    if token.startswith("MD") and _legacy_node(token):
        return True
    if _ULID.fullmatch(token) is None:
        return False
    ms = 0
    for c in token[:10]:
        ms = ms * 32 + _CROCKFORD.index(c)
    return _ULID_TIMES[0] <= ms <= _ULID_TIMES[1]


_LEGACY_NODE = re.compile(rb"0?([0-9]{1,2}):([A-Z][A-Za-z]++)[0-9]++")


def _legacy_node(token: str) -> bool:
    """A GitHub GraphQL id of the first form: base64 of ``<length>:<Type><database id>``
    (``MDEwOlJlcG9zaXRvcnkxMjM0NTY3ODk=``: ``010:Repository123456789``), the length the type
    name's own, which no ``user:password`` shows by chance."""
    raw = decoded(token)
    if raw is None:
        return False
    m = _LEGACY_NODE.fullmatch(raw)
    return m is not None and int(m[1]) == len(m[2])

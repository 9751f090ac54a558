"""Public ids: formats that say a token names something and is no secret (issue 32, fourteenth
pass).

``public_id`` is asked by the stand-alone token rules of ``secrets.scrub_rules`` and
``secrets.scrub_encoded`` before they judge a token as a draw: a Stripe object's id (``cus_``,
``ch_``, ``pi_``, ``evt_``: an API's reference to a customer, a charge, an event; Stripe's keys
are ``sk_`` and ``rk_``, shapes of their own, and a payment's client secret holds
``_secret_``), a ULID (26 of Crockford's base32, a time in this century first), an IPFS
content id (``Qm`` and 44 of base58, a SHA-256 multihash; ``bafy`` or ``bafk`` and base32), a
GitHub GraphQL node id (``PR_kwDO...``, and the first form's ``MDEwOlJlcG9zaXRvcnkx...``), and
base64 that starts with a file's signature (a PNG's ``iVBORw0KGg``: ``DATA_MAGIC``; a PEM
block's ``-----BEGIN``, whose label the encoded-PEM rule reads first). Issue 32, fifteenth
pass: a ULID after an id's prefix (``ord_01HQ...``), a blockchain's address (Ethereum's, a
Bitcoin address by bech32 or by its checksum), AWS's ids of users and roles (``AIDA``,
``AROA``), and a digest with its algorithm (``sha512-...``). Issue 32, 25th pass: an LLM API's
objects (``msg_01...``, ``toolu_01...``, ``chatcmpl-...``, ``call_...``); 29th pass, a
Syncthing device's id (eight groups of seven in base32). Each format is drawn,
so only its fixed parts (or its checksum) tell it from a key.

Must not import anything from Kindling except ``secrets.scrub_values``.
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_values import decoded

# File signatures, as base64, of data that is no key: images, fonts, archives, PDFs.
DATA_MAGIC: tuple[str, ...] = ("iVBORw0KGg", "/9j/", "R0lGOD", "PHN2Zy", "PD94bW", "d09GR")
DATA_MAGIC += ("d09GMg", "AAEAAA", "JVBERi0", "UEsDB", "H4sI", "Qk0", "UklGR", "AAAAIGZ0eXA")
DATA_MAGIC += ("T1RUTw", "LS0tLS1CRUdJTi")  # (the last: ``-----BEGIN``, a PEM block whose label
# the encoded-PEM rule of ``secrets.scrub_encoded`` reads before any token rule)
_STRIPE = re.compile(
    r"(?:cus|ch|pi|pm|evt|in|sub|si|price|prod|acct|txn|re|seti|src|card|ba|po|py|tr|ii|il"
    r"|file|plink|cs_(?:test|live))_[A-Za-z0-9]{8,}+",
    re.ASCII,
)
# The ids of an LLM API's objects, which a coding agent's transcripts are full of (issue 32,
# 25th pass): Anthropic's ``<type>_01<base62>`` (a message, a tool call, a request, a batch, a
# file), OpenAI's ``chatcmpl-``, ``call_``, ``resp_``, ``run_``, ``asst_``, ``thread_``, and a
# Stripe request's ``req_``. No vendor's key starts so.
_API_OBJECT = re.compile(
    r"(?:msg|toolu|srvtoolu|req|msgbatch|file|compl)_01[A-Za-z0-9]{16,}+|chatcmpl-[A-Za-z0-9]{16,}+"
    r"|(?:call|resp|run|asst|thread|batch|fc|rs|msg|req|ftjob|file)[_-][A-Za-z0-9]{14,}+",
    re.ASCII,
)
_ULID = re.compile(r"(?:[a-z]{2,8}_)?+(?P<ulid>[0-7][0-9A-HJKMNP-TV-Z]{25})", re.ASCII)
_CID = re.compile(r"Qm[1-9A-HJ-NP-Za-km-z]{44}|baf[ky][a-z2-7]{50,}+", re.ASCII)
_NODE = re.compile(r"[A-Z]{1,4}_k[gw][A-Za-z0-9_-]{12,}+", re.ASCII)
# A blockchain's address: Ethereum's (20 bytes in hex; a private key is 32), Bitcoin's bech32;
# AWS's unique ids of users, roles, groups, profiles and policies (not an access key's ``AKIA``
# or ``ASIA``); a digest with its algorithm. (A Google OAuth client's id is public too, but
# scanners count it as a secret, as they count a publishable key: it is masked.)
_PUBLIC = re.compile(
    r"0x[0-9a-fA-F]{40}|(?:bc|tb|ltc)1[02-9ac-hj-np-z]{38,87}+"
    r"|A(?:IDA|ROA|GPA|IPA|NPA|NVA)[A-Z0-9]{16,17}"
    # A digest as lock files and SRI give it, in base64 or base64url (issue 32, 24th pass).
    r"|sha(?:256|384|512)-[A-Za-z0-9+/_-]{20,}+={0,2}"
    # Syncthing's device id: its certificate's digest in eight groups of base32 (29th pass).
    r"|[A-Z2-7]{7}(?:-[A-Z2-7]{7}){7}",
    re.ASCII,
)
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
# A ULID's time, in milliseconds: 2015 to 2040.
_ULID_TIMES = (1_420_070_400_000, 2_208_988_800_000)


def public_id(token: str) -> bool:
    """``token`` is, by its format, an id an API or a store gives, or a file's data (its
    signature in base64 first: ``DATA_MAGIC``), not a credential."""
    if _STRIPE.fullmatch(token) or _CID.fullmatch(token) or _NODE.fullmatch(token):
        return True
    if _API_OBJECT.fullmatch(token):
        return True
    if token.startswith(DATA_MAGIC) and len(token) >= 24:
        return True
    if token.startswith("MD") and _legacy_node(token):
        return True
    if _PUBLIC.fullmatch(token) or (token[:1] in "13" and _base58_address(token)):
        return True
    ulid = _ULID.fullmatch(token)
    if ulid is None:
        return False
    ms = 0
    for c in ulid["ulid"][:10]:
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


_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _base58_address(token: str) -> bool:
    """A Bitcoin address of the first forms (``1...``, ``3...``): base58 of a version byte (0 or
    5), 20 bytes, and a checksum of four, the first bytes of the rest's double SHA-256, which no
    draw meets but one in four billion. (A private key's WIF is base58 with a checksum too: its
    version byte is 128, and it starts with ``5``, ``K`` or ``L``.)"""
    if not 25 <= len(token) <= 35 or any(c not in _BASE58 for c in token):
        return False
    n = 0
    for c in token:
        n = n * 58 + _BASE58.index(c)
    raw = n.to_bytes(25, "big") if n.bit_length() <= 200 else b""
    if len(raw) != 25 or raw[0] not in (0, 5):
        return False
    import hashlib  # (here: only a token that reads as an address asks for it)

    return hashlib.sha256(hashlib.sha256(raw[:21]).digest()).digest()[:4] == raw[21:]

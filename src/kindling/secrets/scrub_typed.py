"""Keys typed by hand in a key's place, as a dummy or a placeholder, for ``secrets.scrub``.

Issue 32's line counts any value of 16+ characters that is not one-case hex or a UUID as a
secret, dummies included (``abcdefghijklmnopqrstuvwxyz123456``, ``Asdf1234asdf1234...``):
a memory tool loses nothing by masking one, and leaks a real key if it leaves one. An
alphabet written out whole in code (``ABCDEFGHIJKLMNOPQRSTUVWXYZ234567``, base58's, a
keyboard's layout) is the same characters in the same order, and is left.

Must not import anything from Kindling except ``secrets.scrub_values``.
"""

from __future__ import annotations

import itertools

from kindling.secrets.scrub_values import LOWER_HEX, UPPER_HEX, UUID, sequential, wordy


def typed_key(token: str) -> bool:
    """One run of 16+ letters and digits, not hex of one case and not spelled from words
    (``wordy``, in its own case and in small letters): a generated key, or the dummy typed in
    a key's place (``abcdefghijklmnopqrst``, ``Asdf1234asdf1234...``), which the randomness
    tests above leave. Alone it says nothing; given explicitly to a secret word it is that
    secret's value (issue 32): a memory tool loses nothing by masking a dummy there, and leaks
    a real key if it leaves one. A name (``PreloadingAttemptKey``), a phrase
    (``mysupersecretpassword``) and a digest or a number (one-case hex) are not."""
    if len(token) < 16 or not token.isascii() or not token.isalnum():
        return False
    chars = set(token)
    if chars <= LOWER_HEX or chars <= UPPER_HEX:
        return False
    return not (wordy(token) or wordy(token.lower()))


def typed_placeholder(token: str) -> bool:
    """A dummy typed in a key's place, 20+ letters and digits along the alphabet, the digits
    or the keyboard (``abcdefghij1234567890abcdefghij``, ``abcdefghijklmnopqrstuvwxyz123456``),
    or 16+ of two runs typed in turn (``a1b2c3d4e5f6g7h8``): a ``typed_key`` with 12+ distinct
    characters (``MVMVMV...`` is a table). Issue 32's line counts it as a secret even bare,
    and a memory tool loses nothing by masking it. Left: an ``alphabet`` written out whole,
    and characters each listed once with few in turn (numpy's type codes)."""
    chars = len(set(token))
    if chars >= 12 and interleaved(token):
        return typed_key(token)  # a1b2c3d4e5f6g7h8...: two runs typed in turn
    if len(token) < 20 or chars < 12 or not sequential(token, keyboard=True):
        return False
    if alphabet(token):
        return False  # ABCDEFGHIJKLMNOPQRSTUVWXYZ234567
    if chars == len(token) and not sequential(token, keyboard=True, share=2):
        return False  # each character once, few in turn: a table of codes (numpy's)
    return typed_key(token)


def interleaved(token: str) -> bool:
    """Two runs typed in turn, a character of each (``a1b2c3d4e5f6g7h8``, ``1a2b3c...``):
    each half, read alone, has half its neighbours consecutive."""
    return len(token) >= 16 and all(sequential(half, share=2) for half in (token[::2], token[1::2]))


# Runs a written-out alphabet is made of, each complete: the letters, the digits, hex's
# ``abcdef`` and base32's ``234567``; and alphabets with gaps.
_WHOLE_RUNS = frozenset(
    {"abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789", "abcdef", "ABCDEF"}
    | {"234567"}
)
_GAPPED_ALPHABETS = (
    "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz",  # base58 (Bitcoin)
    "123456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ",  # base58 (Flickr)
    "0123456789ABCDEFGHJKMNPQRSTVWXYZ",  # Crockford's base32
    "0123456789ABCDEFGHIJKLMNOPQRSTUV",  # base32hex
    "0123456789abcdefghijklmnopqrstuv",
)


# A keyboard's layout written out: its rows in order, with the digits' row before or after.
_ROWS_IN_ORDER = ("qwertyuiopasdfghjklzxcvbnm", "QWERTYUIOPASDFGHJKLZXCVBNM")
_LAYOUTS = tuple(
    f(r) for r in _ROWS_IN_ORDER for f in ("1234567890{}".format, "{}1234567890".format, str)
)


def alphabet(token: str) -> bool:
    """An alphabet written out in code (``ABCDEFGHIJKLMNOPQRSTUVWXYZ234567``, base58's,
    ``0123456789abcdefABCDEF``): runs of consecutive characters, each complete, no character
    twice; or a known alphabet with gaps, or a keyboard's layout (its three rows in order). A
    dummy typed in a key's place stops a run short or types a character again
    (``abcdefghijklmnopqrstuvwxyz123456``, ``ABCDEFGHIJ1234567890KLMNOPQRST``). Written
    backwards (``zyxw...cba``, a test of reversing a string), it is one too."""
    return _forwards(token) or _forwards(token[::-1])


def _forwards(token: str) -> bool:
    if token in _GAPPED_ALPHABETS:
        return True
    for layout in _LAYOUTS:
        token = token.replace(layout, "")
    if len(set(token)) < len(token):
        return False  # a character typed again
    start = 0
    for i in range(1, len(token) + 1):
        if i == len(token) or ord(token[i]) - ord(token[i - 1]) != 1:
            if token[start:i] not in _WHOLE_RUNS:
                return False  # a run stopped short
            start = i
    return True


def typed_in_parts(token: str) -> bool:
    """A placeholder typed in parts joined by ``-``, ``_`` or ``.`` (``abcd1234-ef01-gh23-ij45-
    kl6789012345``, ``pk_abcdefghijklmnopqrstuvwxyz1234567890``, ``a1b2c3.d4e5f6.g7h8i9``):
    ``typed_placeholder`` once joined, half its neighbours consecutive (names joined,
    ``ECDHE-RSA-AES128-GCM-SHA256``, ``ordered_logistic_glm_lpmf``, are a quarter at most),
    letters and digits both, or letters holding 8+ of the alphabet in a row (``ABCDEFG-HIJKLMN-
    OPQRSTU``). Hex typed so (``abcd-1234567890abcdef1234...``: 20+ digits, 4+ letters and 4+
    digits) is one too: no digest has half its neighbours consecutive (21st pass; UUID-shaped,
    it is an example's id, left). Of 1,017,614 tokens in parts in installed code and docs, 76
    passed before (AWS examples' typed ids) and 74 now: 5 more (two placeholders, a host, two
    names in a test of io), 7 fewer (under 4 letters: ``vpc-00112233445566778``)."""
    core = token.replace("_", "").replace("-", "").replace(".", "")
    if core == token or not core.isalnum() or "xn--" in token:
        return False  # (``xn--``: a host's label in punycode)
    if sum(map(str.isalpha, core)) < 4:
        return False
    if not any(map(str.isdigit, core)):
        return _alphabet_run(core) >= 8 and typed_placeholder(core)
    chars = set(core)
    if chars <= LOWER_HEX or chars <= UPPER_HEX:
        if len(core) < 20 or UUID.fullmatch(token) is not None:
            return False
        if sum(map(str.isdigit, core)) < 4:
            return False
        low = core.lower()
        return sequential(low, keyboard=True, share=2) or interleaved(low)
    return typed_placeholder(core) and (
        sequential(core, keyboard=True, share=2) or interleaved(core)
    )


def _alphabet_run(core: str) -> int:
    """The longest run of letters typed along the alphabet (``HIJKLMN``: 7)."""
    longest = run = 1
    for a, b in itertools.pairwise(core):
        run = run + 1 if ord(b) - ord(a) == 1 and a.isalpha() and b.isalpha() else 1
        longest = max(longest, run)
    return longest

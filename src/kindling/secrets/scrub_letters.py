"""Keys drawn from letters alone (issue 32, twentieth pass), from a narrower alphabet, and keys
printed in groups (21st).

A generator may draw from letters only: of one case (``ndsbyvtebprybbvehgjqa``, a base32
seed without its digits), or both cases with base64url's ``-`` and ``_`` (one draw of 21 in
36 has no digit). The stand-alone token rule (``secrets.scrub_rules``) asked for digits or
20 letters between the signs; ``drawn_letters`` tells these draws from names:

- one case, 20+ letters: as varied as a draw (``entropy_floor``), not typed along a row of
  the keyboard or the alphabet, few vowels (a draw of the alphabet holds 6 in 26, English
  about 2 in 5: at most 35 in 100 here), fewer than half its letter pairs among English's
  common ones (a draw: about a third), not spelled from words (``wordy``), and no C
  function pointer's type (``PFNGLGETNPIXELMAPFVPROC``: abbreviations, as few vowels);
- both cases, 16+ letters joined by one to three ``-`` or ``_`` into 20+ characters: the case
  changing as a draw changes it, varied, no piece a name, and less than half of the letters
  in capitalised words (``_AddVmwareDhcpIpConfig`` is a name in code's humps).

Measured on the letter-only tokens of installed code and documentation (586,414 distinct):
of 12,986 of one case and 20+ letters, 2 pass (ciphertexts in sympy's examples); of 233,074
with signs, 1 (a graph in sparse6, a networkx test). Of random draws, about 2 in 3 of one
case and 4 in 5 of both cases with signs pass (``bench/secret_drawn.py``).

``base32_draw`` and ``mixed_hex`` read keys drawn from a narrower alphabet: a TOTP seed in
base32's capitals and digits, hex digits in both cases (moved from ``scrub_rules``).

``grouped_draw`` reads a product or licence key, printed in groups of one length joined by
``-`` (``K7PQD-3MXW9-...``, a storage gateway's activation key): each group too short for the
token rule's judges, and one case, which the rule took for a name in kebab-case. Of the 8,807
such tokens in installed code and documentation, one passes (an activation key in botocore's
examples); of random draws of five groups of five, four in five. Must not import anything from
Kindling except ``secrets.scrub_values``.
"""

from __future__ import annotations

import itertools
import re

from kindling.secrets.scrub_values import (
    COMMON_PAIRS,
    LazyRe,
    P,
    char_class,
    entropy,
    entropy_floor,
    is_name,
    mixed_case,
    sequential,
    wordy,
)

_VOWELS = frozenset("aeiouy")
_HEX = LazyRe(r"[0-9a-f]++", re.ASCII)
_HUMP = LazyRe(r"[A-Z][a-z]{2,}+", re.ASCII)  # a capitalised word, as names join them
_PIECES = LazyRe(r"[^_-]++", re.ASCII)
_GROUPS = LazyRe(r"[A-Za-z0-9]{4,8}+(?:-[A-Za-z0-9]{4,8}+){2,9}+(?:-[A-Za-z0-9]{1,3}+)?", re.A)


def drawn_letters(token: str) -> bool:
    """``token`` (letters, maybe with ``-`` and ``_``) is a draw of letters, not a name."""
    core = token.replace("-", "").replace("_", "")
    if not core.isascii() or not core.isalpha():
        return False
    if core == token:
        return _one_case(core)
    return len(token) >= 20 and len(token) - len(core) <= 3 and _signed(token, core)


def _one_case(core: str) -> bool:
    n = len(core)
    if n < 20 or not (core.islower() or core.isupper()) or core.startswith(("PFN", "pfn")):
        return False
    low = core.lower()
    if entropy(low) < entropy_floor(n) or sequential(low, keyboard=True):
        return False
    if 100 * sum(c in _VOWELS for c in low) > 35 * n:
        return False
    common = sum(a + b in COMMON_PAIRS for a, b in itertools.pairwise(low))
    return 2 * common < n - 1 and not wordy(low)


def _signed(token: str, core: str) -> bool:
    n = len(core)
    if n < 16 or not mixed_case(core):
        return False
    runs = 1 + sum(char_class(a) != char_class(b) for a, b in itertools.pairwise(core))
    if n > 2.5 * runs or entropy(core) < 3.5 or sequential(core) or wordy(core):
        return False
    if any(len(p) >= 4 and (is_name(p) or wordy(p)) for p in _PIECES.findall(token)):
        return False
    return 2 * sum(len(h) for h in _HUMP.findall(token)) < n


def grouped_draw(token: str) -> bool:
    """``token`` is 3-10 groups of 4-8 letters and digits joined by ``-``, all of one length but
    perhaps a shorter last (a check group, a version), of one case, 16+ characters drawn as a
    generator draws: 2+ digits and 4+ letters, the class changing every 4 characters or
    oftener, 3.3 bits a character, not typed along a row, not hex (a digest in groups), neither
    it nor a group spelled from words."""
    if _GROUPS.fullmatch(token) is None:
        return False
    parts = token.split("-")
    if sum(len(p) != len(parts[0]) for p in parts[:-1]) or len(parts[-1]) > len(parts[0]):
        return False
    core = "".join(parts)
    n, digits = len(core), sum(map(str.isdigit, core))
    if n < 16 or not (core.islower() or core.isupper()) or digits < 2 or n - digits < 4:
        return False
    low = core.lower()
    runs = 1 + sum(char_class(a) != char_class(b) for a, b in itertools.pairwise(core))
    if n > 4 * runs or entropy(low) < 3.3 or sequential(low, keyboard=True) or _HEX.fullmatch(low):
        return False
    return not (wordy(low) or any(p.isalpha() and wordy(p.lower()) for p in parts))


_BASE32 = LazyRe(r"[A-Z2-7]{16,19}+", re.ASCII)


def base32_draw(token: str) -> bool:
    """16-19 characters of base32's alphabet (capitals, 2 to 7), 2+ of them digits: a TOTP
    seed of 10 bytes (``base64.b32encode``), the draw one-case ``short_generated`` misses for
    its letters' long runs; as varied as a draw, not typed along, not spelled from words. None
    of the 79 such tokens in installed code and documentation passes (issue 32, 19th pass;
    moved here from ``scrub_rules`` in the 29th)."""
    if _BASE32.fullmatch(token) is None or not 2 <= sum(map(str.isdigit, token)) <= 8:
        return False
    return entropy(token) >= 3.3 and not sequential(token) and not wordy(token.lower())


def mixed_hex(core: str) -> bool:
    """16+ hex digits in both cases (2+ capitals, 2+ small letters, 2+ digits), not typed in
    sequence: no digest prints so, and the entropy floors of a 62-letter draw do not fit a
    22-letter one (issue 32, eighth pass: a draw of 20 passed them one time in three)."""
    if len(core) < 16 or P.hex.fullmatch(core) is None or sequential(core, keyboard=True):
        return False
    return min(sum(map(f, core)) for f in (str.isupper, str.islower, str.isdigit)) >= 2


def hex_digest(segment: str) -> bool:
    """16+ hex digits of one case: a git SHA, a digest, a cache key (hex is never told from a
    hash); digits alone are a number or an id (``<user id>-<secret>``). Digests print one
    case: ``6d2FabeB...`` is a key's."""
    if len(segment) < 16 or segment.isdigit() or P.hex.fullmatch(segment) is None:
        return False
    return segment.lower() == segment or segment.upper() == segment

"""What a scanner or a validator holds in a secret's place, left as it is (issue 32, 26th pass):
every rule's match goes through :func:`a_pattern` before it is masked.

- A regular expression. A secret scanner's rules (``"Stripe API Key": "sk_live_[0-9a-zA-Z]{24}"``),
  a validator's (``token: ^[A-Za-z0-9_-]{43}$``) or a redaction list keep a pattern under a
  secret's name, and a rule that reads ``key = value`` or a vendor's prefix takes it for the
  value. The marks of a pattern: a class holding a range and then a count or a repeat
  (``[0-9a-f]{32}``, ``[A-Za-z0-9_]+``), a POSIX class (``[[:punct:]]``), an inline flag
  (``(?i)``), an escaped class counted (``\\d{4}``). A generated value draws its
  signs one at a time: none of the 3,025 secrets of the tuning and held-out corpora holds
  such a run, nor any of 100,000 passwords drawn from the keyboard of 16 to 32 characters
  (about one of 8,000 of 64 characters does).
- A private key's header alone as a string (``"RSA private key": "-----BEGIN RSA PRIVATE
  KEY-----"``): a scanner's signature, when no key's body follows it within a few lines (a
  key written as strings joined, ``"-----BEGIN ...-----" +`` then its lines, is masked).

Must not import anything from Kindling except ``secrets.scrub_values``.
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_values import LazyRe

_PATTERN = LazyRe(
    r"""\[\^?[^\]\s]{0,40}?(?:[0-9]-[0-9]|[a-z]-[a-z]|[A-Z]-[A-Z])[^\]\s]{0,40}\]
        (?:\{[0-9]{1,4}(?:,[0-9]{0,4})?\}|[+*])
      | \[\[:[a-z]{4,6}:\]\] | \(\?[imsx]{1,4}\) | \\{1,2}[dswDSW]\{[0-9]{1,4}(?:,[0-9]{0,4})?\}""",
    re.ASCII | re.VERBOSE,
)
# A key's body: a run of base64 with a digit, raw or inside a string (a name of 16 letters is
# code: ``privateKeyContent.replace("-----BEGIN PRIVATE KEY-----", "")``). Also ``_pem``'s test
# of a whole block (``scrub_rules``).
KEY_BODY = LazyRe(r"(?<![A-Za-z0-9+/])(?=[A-Za-z0-9+/]{16})[A-Za-z+/]*+[0-9]", re.ASCII)
_HEADER = LazyRe(r"-----BEGIN [A-Z0-9 ]{3,40}-----", re.ASCII)
_MARKS = ("[", "{", "\\", "(?")
_AFTER = ("[", "{", "\\")


def a_pattern(m: re.Match[str], replacement: str, kind: str) -> bool:
    """True when what ``m`` would mask (by ``replacement``) is a pattern or a signature."""
    string, matched, end = m.string, m[0], m.end()
    header = kind == "private_key" and "-----BEGIN" in matched
    marked = header or any(mark in matched for mark in _MARKS)
    if not marked and string[end : end + 1] not in _AFTER:
        return False  # (most masks: no pattern's mark inside or right after)
    marker = f"[REDACTED:{kind}]"
    at = replacement.find(marker)
    head, tail = (replacement[:at], replacement[at + len(marker) :]) if at >= 0 else ("", "")
    if not (matched.startswith(head) and matched.endswith(tail)):
        head = tail = ""
    start, stop = m.start() + len(head), end - len(tail)  # the value's place in the text
    if header:
        return _header_alone(string, start, stop)
    value = string[start:stop]
    return _PATTERN.search(value) is not None or _PATTERN.match(string, end) is not None


def _header_alone(string: str, start: int, stop: int) -> bool:
    if _HEADER.fullmatch(string[start:stop]) is None or not start:
        return False
    if string[start - 1] not in "\"'`" or string[stop : stop + 1] != string[start - 1]:
        return False  # the header is not a string's whole
    return KEY_BODY.search(string[stop : stop + 300]) is None

"""Pure secret scrubber: masks credentials in text before Kindling writes anything to disk.

The write path calls :func:`scrub_secrets` on every observation's content. A masked value
becomes ``[REDACTED:<kind>]`` and everything around it is kept, so the text stays useful::

    export GITHUB_TOKEN=[REDACTED:github_token]
    postgres://app:[REDACTED:url_password]@db:5432/x
    Authorization: Bearer [REDACTED:authorization]
    mysql -u root -p[REDACTED:password] app

Rules run in a fixed order, most specific first, so a value is named by what it is (a GitHub
token under ``TOKEN=`` reports ``github_token``, not ``token``):

1. ``<private>...</private>``: the inside is masked and the tags are kept. An unclosed tag
   masks to the end of the text, because truncated output must not leak what was marked private.
2. PEM private key blocks, BEGIN through END, as one mask. A block cut off before END is
   masked through its last base64 or header line. Certificates and public keys are left.
3. Tokens that name themselves: a vendor prefix or format (``ghp_``, ``glrt-``, ``SG.``,
   ``hvs.``, ``AKIA``, JWTs, ...; the table is ``secrets.secret_shapes``).
4. ``Authorization:`` headers (scheme kept) and stand-alone ``Bearer <token>``.
5. Passwords in URLs (``scheme://user:pass@host``): only ``pass`` is masked.
6. Where commands, files and code keep one (``mysql -pPW``, ``jwt.sign(p, "k")``, ``.netrc``).
7. Keyed values in markup: ``<password>x</password>``, ``<add key="ClearTextPassword"
   value="x"/>``; and a whole ``.env`` line, ``PASSWORD=correct horse battery staple``.
8. ``key = value`` in the syntaxes of many languages (``=``, ``:``, ``:=``, ``::=``, ``?=``,
   ``=>``, Go's ``var key string =``, ``setProperty("KEY", "x")``, quotes and backticks) and
   ``--key value``, where the key ends in a secret word (password, token, secret, api_key,
   ...); the key and separator are kept.
9. Keys that name a vendor (``datadog_api = ...``) or hold a secret word anywhere
   (``SECRET_KEY_BASE``), when the value looks random.
10. A value near a secret word (``near_key``) when it looks generated; and, given explicitly
    to the word (``SECRET abcdefghijklmnopqrst``, ``STRIPE_KEY=...``), any run of 16+ letters
    and digits spelled from no words, random or typed in sequence: masking a dummy costs
    nothing, leaving a real key costs a lot. A text holding colour codes, diff markers, line
    numbers or JSON escapes is also read without them (``secrets.scrub_readings``).

Precision choices (deliberate leaks, each to keep ordinary developer text intact): empty values,
already-masked values and placeholders (``${VAR}``, ``$VAR``, ``<your-token>``, ``{{ x }}``,
``%s``, ``?``, ``***``, ``xxx``) are left; an unquoted value is left when it reads as code
(``os.environ["X"]``, ``get_token()``, ``self.password``, a variable passed as ``password=pw,``),
a type (``password: str``), a literal (``None``, ``true``), a path (``PWD=/home/me``), prose
after a colon (``token: the API token to use``) or a status word (``password: incorrect``).
A token, key or secret (not a password) shorter than 8 characters is left (``page_token=2``,
``Unexpected token: punc``). Keys must end in the secret word, so ``max_tokens=5`` and
``tokenizer = x`` are not keys. The scrubber is idempotent: every rule leaves a mask alone.

Speed: the module imports in well under a millisecond and compiles its patterns on first use.
A rule runs only when one of its keywords occurs in the lowercased text (as gitleaks does;
``secrets.scrub_keywords`` finds them in one pass), and every pattern runs in linear time
(possessive or bounded quantifiers). A hook process keeps the compiled patterns in Kindling's
home for the next hook (``secrets.regex_cache``: compiling was two thirds of its own CPU).

Must not import anything from Kindling except ``kindling.errors`` (lazily: only a caller's
mistake raises), and lazily the scrubber's own modules, none of which imports this one back
(``secrets.scrub_encoded`` is handed ``scrub_secrets`` to read a document a token encodes;
shared pieces live in the leaf ``secrets.scrub_values``); standard library ``re`` only (no
``typing`` or ``dataclasses`` at run time: hooks import this).
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from kindling.secrets.scrub_keywords import KeywordIndex
    from kindling.secrets.scrub_values import LazyPattern, Rule

__all__ = ["SECRET_KINDS", "Scrubbed", "scrub_secrets"]


class Scrubbed:
    """The scrubbed text and which kinds of secret were masked in it (never the values).

    A frozen value (a plain class: ``dataclasses`` costs the hook path milliseconds)."""

    __slots__ = ("found", "kinds", "text")
    text: str
    kinds: tuple[str, ...]
    # The values masked and their kinds, for a caller that remembers them for later texts of a
    # session (``secrets.session_secrets`` keeps keyed hashes). Not in ==, hash or repr.
    found: tuple[tuple[str, str], ...]

    def __init__(
        self, text: str, kinds: tuple[str, ...], found: tuple[tuple[str, str], ...] = ()
    ) -> None:
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "kinds", kinds)
        object.__setattr__(self, "found", found)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Scrubbed is frozen; cannot set {name}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Scrubbed):
            return NotImplemented
        return self.text == other.text and self.kinds == other.kinds

    def __hash__(self) -> int:
        return hash((self.text, self.kinds))

    def __repr__(self) -> str:
        return f"Scrubbed(text={self.text!r}, kinds={self.kinds!r})"

    @property
    def changed(self) -> bool:
        """True when anything was masked; the text is then different from the input."""
        return bool(self.kinds)


_RULES: list[tuple[tuple[str, ...], LazyPattern, Rule]] | None = None
_INDEX: KeywordIndex | None = None
# The same keywords split: of the rules every text may need; of those that mask only a candidate
# value (``scrub_gate.gated``), scanned when the text has one; of the gated ones that also mask
# a letters-only ``typed_key`` after a secret word (the text holds a run of 16+ letters).
_SPLIT: tuple[KeywordIndex, KeywordIndex, KeywordIndex] | None = None


def _all_kinds() -> tuple[str, ...]:
    from kindling.secrets.secret_shapes import FREE_SHAPES, TOKEN_SHAPES

    named = {kind for kind, _, _ in TOKEN_SHAPES} | {kind for kind, _, _ in FREE_SHAPES}
    named |= {"api_key", "authorization", "aws_secret_access_key", "huggingface_token"}
    named |= {"password", "private_key", "private_tag", "secret", "slack_webhook", "token"}
    named |= {"random_token", "url_secret", "url_token", "webhook_url", "vendor_secret"}
    return tuple(sorted(named | {"url_password", "basic_credential"}))


SECRET_KINDS = _all_kinds()


def rule_keywords() -> frozenset[str]:
    """Every keyword of every rule: text containing none of them, and no candidate value
    (``scrub_gate.has_candidate``: a random token of letters only has no keyword), comes
    back unchanged."""
    _compiled()
    assert _SPLIT is not None
    return _SPLIT[0].keywords | _SPLIT[1].keywords


def _rules() -> tuple[list[tuple[tuple[str, ...], LazyPattern, Rule]], KeywordIndex]:
    """The rules in order and the index of all their keywords (the reference the split
    indexes of ``_woken`` must agree with; built on first use, scrubbing never needs it)."""
    global _INDEX
    rules = _compiled()
    if _INDEX is None:
        from kindling.secrets.scrub_keywords import KeywordIndex

        _INDEX = KeywordIndex([keywords for keywords, _, _ in rules])
    return rules, _INDEX


def _compiled() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    global _RULES, _SPLIT, _ANY
    if _RULES is None or _SPLIT is None:
        from kindling.secrets.scrub_encoded import scrub_documents_with
        from kindling.secrets.scrub_gate import (
            is_gated,
            is_woken_by_any_candidate,
            is_woken_by_typed_key,
        )
        from kindling.secrets.scrub_keywords import KeywordIndex
        from kindling.secrets.scrub_rules import compile_rules

        rules = compile_rules()
        scrub_documents_with(lambda document: bool(scrub_secrets(document).kinds))
        # Rule numbers stay those of ``rules``: a rule outside a part has no keywords there.
        core = KeywordIndex([() if is_gated(r) else words for words, _, r in rules])
        value = KeywordIndex([words if is_gated(r) else () for words, _, r in rules])
        typed = KeywordIndex([words if is_woken_by_typed_key(r) else () for words, _, r in rules])
        _SPLIT = (core, value, typed)
        _ANY = [i for i, (_, _, r) in enumerate(rules) if is_woken_by_any_candidate(r)]
        _RULES = rules
    return _RULES


# The rules a candidate wakes on its own (``scrub_gate.woken_by_any_candidate``).
_ANY: list[int] = []


def reference_woken(text: str) -> list[int]:
    """The rules ``text`` wakes, each keyword asked with ``in`` (what ``_woken`` must agree
    with): those of its keywords, and the rules any candidate wakes when it holds one."""
    _, index = _rules()
    woken = set(index.woken_by_substring(text.lower()))
    from kindling.secrets.scrub_gate import has_candidate

    if has_candidate(text):
        woken.update(_ANY)
    return sorted(woken)


def _woken(text: str, lowered: str) -> list[int]:
    """The rules ``text`` wakes: those its keywords wake, less the gated rules when it holds
    no candidate value (they would leave it as it is)."""
    if _SPLIT is None:
        _compiled()
    assert _SPLIT is not None
    core, value, typed = _SPLIT
    woken = core.woken(lowered)
    from kindling.secrets.scrub_gate import CANDIDATE, LETTER_RUN, gate

    found = gate(text)
    if found == CANDIDATE:
        woken = sorted({*woken, *value.woken(lowered), *_ANY})
    elif found == LETTER_RUN:
        woken = sorted({*woken, *typed.woken(lowered)})
    return woken


# Short texts in which nothing was masked, remembered: a capture's provenance values (tool
# names, commands, paths, roles) come back in every event of a session. Only texts that held no
# secret are kept (written as they are anyway), in memory, at most ``_CLEAN_MAX`` of them (then
# the whole set is dropped: no lock, and a thread that races it only scrubs again).
_CLEAN: dict[str, None] = {}
_CLEAN_MAX = 4096
_CLEAN_CHARS = 256


def scrub_secrets(text: str) -> Scrubbed:
    """Mask every secret this module recognises in ``text``; never raises on any ``str``."""
    if not isinstance(text, str):
        from kindling.errors import InvalidInputError  # only for a caller's mistake

        raise InvalidInputError(
            f"scrub_secrets() takes text (str), not {type(text).__name__}; decode bytes first"
        )
    if any(mark in text for mark in ("\x1b[", "@@ -", "→", "1\t", "\\")):  # other readings
        from kindling.secrets.scrub_readings import through_other_readings

        return through_other_readings(text, _scrub, mask_copies)
    return _scrub(text)


def _scrub(text: str) -> Scrubbed:
    if text in _CLEAN:
        return Scrubbed(text, ())
    result = scrub_once(text)
    if not result.kinds:
        if len(text) <= _CLEAN_CHARS and type(text) is str:
            if len(_CLEAN) >= _CLEAN_MAX:
                _CLEAN.clear()
            _CLEAN[text] = None
        return result
    # A mask takes its whole token (``[REDACTED:x]9Q``, ``"[REDACTED:x]!"``). Masking a value
    # (and its copies) can open a word boundary where another secret starts
    # (`AKIA...EXAMPLEgho_...`), and a mask that took its token may now stand as a key
    # (``[REDACTED:password]=x``): the rules run again over the masked text until nothing more
    # changes, so scrubbing is idempotent. Only texts that held a secret pay for it.
    from kindling.secrets.scrub_masks import whole_tokens

    result = Scrubbed(whole_tokens(result.text), result.kinds, result.found)
    for _ in range(3):
        again = scrub_once(result.text)
        if (masked := whole_tokens(again.text)) == result.text:
            break
        result = Scrubbed(
            masked,
            tuple(sorted({*result.kinds, *again.kinds})),
            tuple({**dict(result.found), **dict(again.found)}.items()),
        )
    return result


def scrub_once(text: str) -> Scrubbed:
    """One pass of the rules the text's keywords wake (``scrub_secrets`` repeats it)."""
    lowered = text.lower()
    woken = _woken(text, lowered)
    if not woken:
        return Scrubbed(text, ())
    if any(w in lowered for w in ("-----begin", "binary patch", "kty", "encrypteddata", "enc[")):
        return _around_public(text, lowered, woken)
    return run_rules(text, woken)


def _around_public(text: str, lowered: str, woken: list[int]) -> Scrubbed:
    """Scrub the text around its public material (``secrets.scrub_public``), leaving it as it
    is: it looks random to the other rules. PEM blocks, git's binary patches and committed
    ciphertext split the text into pieces; a JSON Web Key's public values (named
    by ``"kty"``) stand aside while the rules read its object, and come back after."""
    from kindling.secrets.scrub_public import public_blocks, public_members

    members = public_members(text, lowered) if "\x00" not in text else []
    if members:
        values = [text[start:end] for start, end in members]
        bounds = [0, *(i for span in members for i in span), len(text)]
        held = "".join(
            text[bounds[2 * i] : bounds[2 * i + 1]] + (f"\x00{i}\x00" if i < len(values) else "")
            for i in range(len(values) + 1)
        )
        result = _around_public(held, held.lower(), _woken(held, held.lower()))
        out = result.text
        for i, value in enumerate(values):  # (a mask that took a value whole keeps it masked)
            out = out.replace(f"\x00{i}\x00", value, 1)
        return Scrubbed(out, result.kinds, result.found)
    spans = public_blocks(text, lowered)
    if not spans:
        return run_rules(text, woken)
    pieces, kinds, found, last = list[str](), set[str](), list[tuple[str, str]](), 0
    for start, end in spans:
        part = _scrub_piece(text[last:start])
        pieces += [part.text, text[start:end]]
        kinds.update(part.kinds)
        found += part.found
        last = end
    part = _scrub_piece(text[last:])
    pieces.append(part.text)
    kinds.update(part.kinds)
    found += part.found
    return Scrubbed("".join(pieces), tuple(sorted(kinds)), tuple(dict(found).items()))


def _scrub_piece(text: str) -> Scrubbed:
    woken = _woken(text, text.lower()) if text else []
    return run_rules(text, woken) if woken else Scrubbed(text, ())


def run_rules(text: str, numbers: Iterable[int]) -> Scrubbed:
    """``text`` after the rules ``numbers`` (in that order; ``scrub_secrets`` runs those its
    keywords wake, in rule order, and any other rule would leave the text as it is)."""
    from kindling.secrets.scrub_patterns import a_pattern  # (a scanner's pattern is no secret)

    rules, found, values = _compiled(), set[str](), dict[str, str]()

    def apply(rule: Rule) -> Callable[[re.Match[str]], str]:
        def replace(m: re.Match[str]) -> str:
            result = rule(m)
            if result is None or a_pattern(m, result[1], result[0]):
                return m[0]
            kind, replacement = result
            found.add(kind)
            value = _masked_value(m[0], replacement, kind)
            if value:
                values.setdefault(value, kind)
            return replacement

        return replace

    for number in numbers:
        _, pattern, rule = rules[number]
        text = pattern.sub(apply(rule), text)
    if values:
        text = mask_copies(text, values)
        if _COLLECTED is not None:
            _COLLECTED.update(values)
    return Scrubbed(text, tuple(sorted(found)), tuple(values.items()))


# Values masked since ``collect_found()``; None when nobody collects (the default: a long-lived
# process keeps no secret it masked). Hooks collect while they map one event.
_COLLECTED: dict[str, str] | None = None


def collect_found() -> None:
    """Start keeping the values masked by this process (value -> kind), in memory only."""
    global _COLLECTED
    _COLLECTED = {}


def take_found() -> dict[str, str]:
    """The values masked since ``collect_found()``; stops collecting."""
    global _COLLECTED
    found, _COLLECTED = _COLLECTED or {}, None
    return found


# A value shorter than this is masked where a rule found it, but its other copies are left:
# "admin" or "secret" elsewhere in the text is more likely a word than the password again.
MIN_COPY_CHARS = 8


def _masked_value(original: str, replacement: str, kind: str) -> str | None:
    """The stretch of ``original`` that ``replacement`` masks (prefix and suffix kept)."""
    marker = f"[REDACTED:{kind}]"
    at = replacement.find(marker)
    if at < 0:
        return None
    head, tail = replacement[:at], replacement[at + len(marker) :]
    if not original.startswith(head) or not original.endswith(tail):
        return None
    value = original[len(head) : len(original) - len(tail)].strip().strip("\"'`")
    if len(value) < MIN_COPY_CHARS or "[REDACTED:" in value or "\n" in value:
        return None
    if value in "[REDACTED:":
        return None  # ``Key = REDACTED``: every mask holds the word
    from kindling.secrets.scrub_values import is_name

    # A name (a key rule's wrong guess) or two short words (``a secret``, a key given to code):
    # its other copies are code or prose, not the secret again.
    phrase = len(value) < 16 and value.count(" ") == 1
    return None if phrase or is_name(value) else value


def mask_copies(text: str, values: dict[str, str]) -> str:
    """``text`` with every copy of each value (value -> kind) masked (``scrub_masks``)."""
    from kindling.secrets.scrub_masks import mask_copies as masked

    return masked(text, values, MIN_COPY_CHARS)

"""Text ``secrets.scrub`` also reads another way: without terminal colour codes (issue 32's
fourth pass), a diff's markers or a listing's line numbers (its tenth), and with a JSON
string's escapes decoded, once or twice (its thirteenth: a transcript's tool input, a file
or a log JSON-encoded, ``\\"password\\": \\"x\\"`` and ``https:\\/\\/``; since its fourteenth
also a tool's colours escaped, ``\\u001b[33m``, read without them once decoded). Every value a
rule masks in a decoded reading is masked in the text as the text escapes it, one that reads
as a name too (``masked_stretches``).

A tool's output on a terminal is full of ANSI escape sequences (``ESC[93m`` ... ``ESC[0m``):
test runners, linters, ``git diff`` and loggers colour what they print, and a secret printed
in colour sits between two of them. The sequence ends in a letter (``m``), so to every rule a
token right after it is part of a longer word (``msk-...``) and no word boundary opens. The
rules therefore also read the text without its escape sequences; each value found there is
masked wherever it occurs in the text as written (the sequences are kept: they are not
secrets). Only texts that hold ``ESC[`` pay for it.

A unified diff (``git diff``, a patch) is read the same way without its markers (issue 32,
tenth pass): each line of a hunk starts with ``+``, ``-`` or a blank, so a form that spans
lines (a YAML key and its value on the next line, a Kubernetes env list's ``name:`` and
``value:``) reads as two unrelated lines. So is a file listed with its line numbers, as an
agent's file-reading tool shows it (``     4→password:``) or ``cat -n`` prints it. Only a
text whose lines, so read, hold a key and then a literal alone pays for it (a diff of code
seldom does: the second reading doubles the cost of scrubbing it).

Must not import anything from Kindling (``secrets.scrub`` passes its own functions in);
standard library ``re`` and ``itertools`` only (hooks import it).
"""

from __future__ import annotations

import itertools
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from kindling.secrets.scrub import Scrubbed

# ECMA-48 control sequences: ESC [, parameter bytes, intermediate bytes, one final byte.
_CSI = re.compile(r"\x1b\[[0-?]*+[ -/]*+[@-~]")


def without_escapes(text: str) -> str | None:
    """``text`` with its ANSI control sequences removed, or None when it holds none."""
    if "\x1b[" not in text:
        return None
    plain = _CSI.sub("", text)
    return plain if plain != text else None


_HUNK = re.compile(r"^@@ -[0-9]", re.MULTILINE)


# Two lines that may hold a key and its value: a key ending in a secret word and an operator
# (``password:``, ``API_KEY = (``, ``"token":``) then a literal alone (``"x"``, ``value: x``,
# ``x``); or an env list's ``name: DB_PASSWORD`` then ``value: x``.
_KEY_END = re.compile(
    r"(?i:pass\w*|pwd|pw|psk|token|secret|key|credentials?|auth)[\"']?[ \t]*+(?::|=>?|\()[ \t]*+\Z"
)
_NAMED = re.compile(r"\bname:.*(?i:pass|pwd|token|secret|key|credential|auth)")
_VALUE_LINE = re.compile(r"[ \t]*+(?:-[ \t]++)?(?:value:[ \t]*+)?[^\s(){}\[\];,]++[ \t]*+,?")


def _key_then_value(lines: list[str]) -> bool:
    for line, following in itertools.pairwise(lines):
        tail = line[-48:]
        if _KEY_END.search(tail) is None and _NAMED.search(tail) is None:
            continue
        if _VALUE_LINE.fullmatch(following) is not None:
            return True
    return False


def without_diff_markers(text: str) -> str | None:
    """``text`` with the first character of each line of its hunks (``+``, ``-``, a blank)
    removed, or None when it holds no hunk or no two lines of one that hold a key and then
    its value (the other lines read the same with their markers). File headers (``+++ b/x``)
    stay."""
    hunk = _HUNK.search(text)
    if hunk is None:
        return None
    lines = text[hunk.start() :].split("\n")
    for i, line in enumerate(lines):
        if line and line[0] in "+- " and not line.startswith(("+++ ", "--- ")):
            lines[i] = line[1:]
    return text[: hunk.start()] + "\n".join(lines) if _key_then_value(lines) else None


# A file listed with its line numbers, as an agent's file-reading tool shows it (``     4→``)
# or ``cat -n`` prints it (``     4<tab>``).
_NUMBER = re.compile(r"[ \t]*+[0-9]{1,7}+(?:→|\t)")


def without_line_numbers(text: str) -> str | None:
    """``text`` with the line number that starts each of its lines removed, or None when
    fewer than two lines start with one, or no two lines hold a key and then its value."""
    if "→" not in text and "\t" not in text:
        return None
    lines = text.split("\n")
    numbered = 0
    for i, line in enumerate(lines):
        number = _NUMBER.match(line)
        if number is not None:
            lines[i] = line[number.end() :]
            numbered += 1
    return "\n".join(lines) if numbered >= 2 and _key_then_value(lines) else None


# One escape of a JSON string: a quote, a backslash or a slash escaped, ``\b``, ``\f``, ``\n``,
# ``\r``, ``\t``, and ``\uXXXX``.
_JSON_ESCAPE = re.compile(r"\\(?:([\"\\/bfnrt])|u([0-9A-Fa-f]{4}))")
_ESCAPED = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _unescape(m: re.Match[str]) -> str:
    if m[2] is not None:
        return chr(int(m[2], 16))
    return _ESCAPED.get(m[1], m[1])


def _json_text(text: str) -> bool:
    """``text`` reads as the inside of a JSON string: an escaped quote or URL, an escaped
    newline in one line (a transcript's tool input, a log's payload, a file JSON-encoded), or
    a terminal's colour escaped (``\\u001b[``: a tool's coloured output in a transcript)."""
    if '\\"' in text or ":\\/\\/" in text or ("\\n" in text and "\n" not in text):
        return True
    return "\\u001b[" in text or "\\u001B[" in text


def json_decodings(text: str) -> list[str]:
    """``text`` with its JSON string escapes decoded, once and, for a string encoded twice
    (JSON inside a JSON string: ``\\\"``), twice: what a transcript or a log holds encoded,
    as it was written. Empty when ``text`` reads as no JSON string's inside. A text of many
    lines is read by the lines that do (a log line's payload among plain ones): a token after
    an escaped newline (``\\nAKIA...``) is a word's end there, as it is nowhere else."""
    if "\n" not in text or _json_text(text):
        return _decoded(text)
    # Lines of their own (a log's, a source file's): each line that reads as a JSON string's
    # inside, decoded, once and twice.
    lines = [_decoded(line) for line in text.split("\n") if _json_text(line)]
    return [
        "\n".join(d[i] for d in lines if len(d) > i)
        for i in (0, 1)
        if any(len(d) > i for d in lines)
    ]


def _decoded(text: str) -> list[str]:
    out: list[str] = []
    while len(out) < 2 and _json_text(out[-1] if out else text):
        decoded = _JSON_ESCAPE.sub(_unescape, out[-1] if out else text)
        out.append(without_escapes(decoded) or decoded)  # (and read without its colours)
    return out


def json_escaped(value: str, times: int) -> str:
    """``value`` as a JSON string holds it, escaped ``times`` times (``/`` as written
    unescaped; the escaped-slash form is added by the caller)."""
    for _ in range(times):
        value = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return value


_MASK = re.compile(r"\[REDACTED:([a-z0-9_]++)\]")
# Letters alone, joined as names or words join them: a rule's wrong guess in a reading (``token =
# Punctuation`` where decoding moved a quote), whose copies in the text are the name again.
_WORDS = re.compile(r"[A-Za-z_. -]++")


def masked_stretches(text: str, scrubbed: str) -> list[tuple[str, str]]:
    """What ``scrubbed`` masks of ``text`` (each stretch and its kind), read by laying the text
    between its masks over ``text`` in order: every value a rule masked in a decoded reading,
    a value that reads as a name too (``Scrubbed.found`` leaves those out, as its copies
    elsewhere are more likely words; here the copy is the value itself, as the text escapes
    it), unless it is letters alone (a name, words). Stretches under 6 characters, over 512
    (no value: the pieces lie wrong) or holding a line's end are left out."""
    out: list[tuple[str, str]] = []
    at, pieces, i = 0, _MASK.split(scrubbed), 1
    while i < len(pieces):
        head = pieces[i - 1]
        start = text.find(head, at) + len(head) if head else at
        if start < len(head):
            return out  # (the pieces no longer lie over the text: a mask's own text)
        if text.startswith(mask := f"[REDACTED:{pieces[i]}]", start):
            at, i = start + len(mask), i + 2  # masked before this reading: no value
            continue
        last = i  # masks side by side (``[REDACTED:secret][REDACTED:url_token]``) cover one
        while last + 2 < len(pieces) and not pieces[last + 1]:  # stretch: nothing between them
            last += 2  # tells where the first one ends
        tail = pieces[last + 1]
        end = text.find(tail, start) if tail else len(text)
        if end < 0:
            return out
        value = text[start:end].strip().strip("\"'`")
        if 6 <= len(value) <= 512 and "\n" not in value and not _WORDS.fullmatch(value):
            out.append((value, pieces[i]))
        at, i = end, last + 2
    return out


def through_other_readings(
    text: str, scrub: Callable[[str], Scrubbed], mask_copies: Callable[[str, dict[str, str]], str]
) -> Scrubbed:
    """``scrub`` of ``text``, after every value it finds in the text without its escape
    sequences, its diff markers or its line numbers, or with its JSON escapes decoded, is
    masked in ``text`` as the text holds it (``mask_copies``: value -> kind)."""
    plain = without_escapes(text)
    base = plain if plain is not None else text
    # The marks ``scrub_secrets`` looks for before it imports this module, less the backslash
    # that asks for the JSON reading only.
    marked = any(mark in text for mark in ("\x1b[", "@@ -", "→", "1\t"))
    views = (plain, without_diff_markers(base), without_line_numbers(base)) if marked else ()
    seen = {value: kind for view in views if view for value, kind in scrub(view).found}
    for times, decoded in enumerate(json_decodings(base), start=1):
        for value, kind in masked_stretches(decoded, scrub(decoded).text):
            written = json_escaped(value, times)  # as the text holds it: escaped
            seen[written] = seen[written.replace("/", "\\/")] = seen[value] = kind
    rest = scrub(mask_copies(text, seen) if seen else text)
    kinds = {kind for value, kind in seen.items() if value in text} | set(rest.kinds)
    found = {**seen, **dict(rest.found)}
    return type(rest)(rest.text, tuple(sorted(kinds)), tuple(found.items()))

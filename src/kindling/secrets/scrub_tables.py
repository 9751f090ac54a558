"""The table rule of ``secrets.scrub``: a value a table's header names by its column (issue 32,
eleventh pass).

A CSV file (``name,password`` then ``ada,x``; or with ``;``, as a spreadsheet in much of
Europe writes it, and a header in another language: ``Dienst;Benutzer;Passwort``), a
tab-separated export, a Markdown table or psql's
(``| user | token |``) and a command's aligned listing (``kubeadm token list``: ``TOKEN``, then
the tokens under it) name their values by column, as an ``INSERT``'s column list does
(``secrets.scrub_sql``): no key stands next to the value (a vertical listing names it by a label
on its line, ``API Key      <value>``: issue 32's twelfth pass). The header is a line of 2 to 30
column names, one of which ends in a secret word (``key_kind``: ``password``, ``api_token``,
``client_secret``; not ``password_hash``, not ``key`` alone); every following row that reads
as the header says (as many fields; in a listing, a value that starts where its column's name
starts) has the value in that column masked. A value is left when it is empty, a placeholder or
a reference (``leave_value``), a status word, too short for its kind, or, for a key or a token,
a plain word (a tokenizer's ``token,count`` table lists words).

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_values`` and ``secrets.scrub_keys``.
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_keys import LOCAL_WORDS, STATUS_WORDS, key_kind
from kindling.secrets.scrub_values import LazyPattern, LazyRe, P, leave_value, mask, too_short

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule

# A header line: 2 to 30 names (quoted or not) and their separators (a comma, a tab, a pipe, two
# blanks), holding a secret word. Tried at each line's start (after a newline, a literal the
# engine skips to; or at the text's start), the shape first: most lines are code or prose and
# fail it at once. Then the lines after it that hold a separator, 200 at most.
_SEP = r"(?:[ ]*+[,;|\t][ ]*+|[ ]{2,}+)"
# (a name in any script: ``Passwort``, ``Contraseña``, ``パスワード``)
_COLUMN = r"\"?[^\W\d][\w.-]{0,40}+(?:[ ][\w.-]{1,40}+)?\"?"
_HEADER = (
    rf"(?=[ \t]*+\|?[ \t]*+{_COLUMN}(?:{_SEP}{_COLUMN}){{1,29}}+[ \t]*+\|?[ \t]*+\r?\n)"
    r"(?=[^\r\n]{0,500}?(?i:pass|pwd|token|secret|credential|key|"
    + "|".join(re.escape(w) for w in LOCAL_WORDS)
    + "))"
    r"(?P<header>[^\r\n]++\r?\n)"
    r"(?P<rows>(?:[^\r\n]{0,2000}?(?:,|;|\t|\||[ ]{2}|-\+-)[^\r\n]{0,2000}+(?:\r?\n|\Z)){1,200}+)"
)
# A column's name: words joined by ``_``, ``-``, ``.`` or one blank (``API KEY``).
_NAME = LazyRe(r"[^\W\d][\w.-]{0,40}+(?: [\w.-]{1,40}+)?")
# One CSV field: quoted (a quote doubled inside) or up to the next comma (or semicolon, as a
# spreadsheet in much of Europe writes it).
_CSV_FIELD = {sep: LazyRe(rf'[ \t]*+("(?:[^"\r\n]|"")*+"|[^{sep}"\r\n]*+)[ \t]*+') for sep in ",;"}
_ALIGNED_GAP = LazyRe(r"[ ]{2,}+", re.ASCII)
# The rule under a piped table's header: Markdown's ``|---|:---:|``, psql's ``----+----``.
_RULE = LazyRe(r"[ \t]*+\|?(?:[ \t]*+:?-{3,}+:?[ \t]*+[|+]?)++[ \t]*+", re.ASCII)


def _csv(line: str, sep: str) -> list[str] | None:
    if line[:1].isspace():
        return None  # an indented line is code's (``    yield value, token``), not a file's row
    if sep == "\t":
        return line.split("\t")
    fields: list[str] = []
    pos = 0
    while True:
        field = _CSV_FIELD[sep].match(line, pos)
        if field is None:
            return None
        fields.append(field[1])
        pos = field.end()
        if pos == len(line):
            return fields
        if line[pos] != sep:
            return None  # a quote inside an unquoted field: no CSV row
        pos += 1
        if pos == len(line):
            return [*fields, ""]  # an empty last field


def _piped(line: str) -> list[str] | None:
    """A Markdown table's row (``| a | b |``) or psql's (`` a | b``): its cells."""
    stripped = line.strip()
    if "|" not in stripped:
        return None
    stripped = stripped[1:] if stripped.startswith("|") else stripped
    stripped = stripped[:-1] if stripped.endswith("|") else stripped
    return [_unwrapped(cell.strip()) for cell in stripped.split("|")]


def _unwrapped(cell: str) -> str:
    """A cell's text without Markdown's code or bold marks around it (a value's own ``*``
    stays)."""
    for mark in ("**", "`", "*"):
        if len(cell) > 2 * len(mark) and cell.startswith(mark) and cell.endswith(mark):
            return cell[len(mark) : -len(mark)]
    return cell


def _aligned_columns(header: str) -> list[tuple[int, str]]:
    """Where each column of an aligned listing starts, and its name (an indented header gives
    an empty first name, which is no column's)."""
    starts, pos = [], 0
    for gap in _ALIGNED_GAP.finditer(header, 0, len(header)):
        starts.append((pos, header[pos : gap.start()]))
        pos = gap.end()
    starts.append((pos, header[pos:].rstrip()))
    return starts


def _aligned(line: str, columns: list[tuple[int, str]]) -> list[str] | None:
    cells = []
    for start, _name in columns:
        if len(line) <= start or line[start] == " " or (start and line[start - 1] != " "):
            return None  # a value must start where its column's name starts
        cells.append(line[start:].split(" ", 1)[0])
    return cells


def _column_kind(name: str) -> str | None:
    """What a column's name says it holds: a key's kind, or a password in another language."""
    joined = name.replace(" ", "")
    if kind := key_kind(joined, len(joined)):
        return kind
    return "password" if name.lower() in LOCAL_WORDS else None


def _worth_masking(kind: str, value: str) -> bool:
    if not value or leave_value(value) or too_short(kind, value) or "[REDACTED:" in value:
        return False
    if value.lower() in STATUS_WORDS or any(c.isspace() for c in value):
        return False
    return kind == "password" or P.prose_word.fullmatch(value) is None


def _table(m: re.Match[str]) -> tuple[str, str] | None:
    text = m.string
    header = m["header"].rstrip("\r\n")
    if "|" in header:
        names, split = _piped(header), "piped"
    elif "\t" in header or "," in header or ";" in header:
        split = "\t" if "\t" in header else ";" if ";" in header else ","
        names = _csv(header, split)
    else:
        columns = _aligned_columns(header)
        names, split = [name for _, name in columns], "aligned"
    if names is None or not 2 <= len(names) <= 30:
        return None
    names = [name.strip('"') for name in names]
    if not all(_NAME.fullmatch(name) for name in names):
        return None  # a line of code or prose, not a header
    kinds = {i: kind for i, name in enumerate(names) if (kind := _column_kind(name))}
    if not kinds:
        return None
    lines = m["rows"].split("\n")
    found: list[str] = []
    for n, line in enumerate(lines):
        body = line.rstrip("\r")
        if split == "piped":
            if n == 0:
                if _RULE.fullmatch(body) is None:
                    return None  # a table drawn with pipes has a rule under its header
                continue
            cells = _piped(body)
        elif split == "aligned":
            cells = _aligned(body, columns)
        else:
            cells = _csv(body, split)
        if cells is None or len(cells) != len(names):
            break  # the table ends where a row no longer reads as its header says
        for place, kind in sorted(kinds.items(), reverse=True):  # right to left: offsets hold
            value = cells[place].strip('"')
            if _worth_masking(kind, value):
                at = body.find(
                    value,
                    sum(len(c) + 1 for c in cells[:place])
                    if split != "aligned"
                    else columns[place][0],
                )
                if at >= 0:
                    body = f"{body[:at]}{mask(kind)}{body[at + len(value) :]}"
                    found.append(kind)
        lines[n] = body + ("\r" if line.endswith("\r") else "")
    if not found:
        return None
    return found[0], text[m.start() : m.start("rows")] + "\n".join(lines)


# A label and its value on one line, aligned by blanks (a command's vertical listing: ``API Key
#      <value>``, ``CLIENT SECRET        <value>``): the label ends in a secret word, the value
# is one token and ends the line (a flag's help, ``--token     The token to use``, goes on).
_LABEL_SRC = (
    r"[ \t]*+(?P<label>[A-Za-z][\w.-]{0,30}+(?:[ ][A-Za-z][\w.-]{0,30}+){0,3}+)"
    r"(?:[ ]{2,}+|\t++)(?P<value>[\x21-\x7e]{6,200}+)[ \t]*+(?=\r?\n|\Z)"
)


def _label(m: re.Match[str]) -> tuple[str, str] | None:
    label, value = m["label"], m["value"]
    kind = key_kind(label, len(label))  # (which reads ``API Key`` as ``apikey``)
    if kind is None or leave_value(value) or value.lower() in STATUS_WORDS:
        return None
    if too_short(kind, value) or (kind != "password" and value.isalpha()):
        return None  # a plain word is a listing's, not a key
    return kind, f"{m.string[m.start() : m.start('value')]}{mask(kind)}"


def table_rules() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    words = ("pass", "pwd", "token", "secret", "credential", "key", *LOCAL_WORDS)
    return [
        (words, LazyPattern(rf"\A{_HEADER}"), _table),
        (words, LazyPattern(rf"\n{_HEADER}"), _table),
        (words, LazyPattern(rf"\A{_LABEL_SRC}", re.ASCII), _label),
        (words, LazyPattern(rf"\n{_LABEL_SRC}", re.ASCII), _label),
    ]

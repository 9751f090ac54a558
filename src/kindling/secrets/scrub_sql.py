"""The SQL rule of ``secrets.scrub``: a value an ``INSERT``'s column list names (issue 32,
tenth pass).

``INSERT INTO users (email, password) VALUES ('ada@example.com', 'x')`` names its values by
position: the key rules see ``password)`` and then a list, and leave it. Every row of the
statement is read, and the quoted value in the place of a column whose name ends in a secret
word (``key_kind``, as for any key: ``password``, ``api_token``, ``client_secret``; not
``password_hash``, whose value is a digest) is masked, unless it is a placeholder or a
reference, also when it is a call's first argument (the password the call hashes:
``crypt('x', gen_salt('bf'))``). Numbers, ``NULL`` and parameters are left; the parameters a
log prints on the next line (SQLAlchemy's echo) are read by the same places (eleventh pass).

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_values`` and ``secrets.scrub_keys``.
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_keys import key_kind
from kindling.secrets.scrub_values import LazyPattern, LazyRe, leave_value, mask, too_short

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule

# One value of a row: a quoted string (SQL doubles a quote inside one), a call's parentheses,
# or anything else up to a comma or the row's end. One row, in parentheses.
_ITEM = r"""(?:'(?:[^'\r\n]|'')*+'|"[^"\r\n]*+"|\((?:[^()\r\n]|\([^()\r\n]*+\))*+\)|[^'"(),\r\n])"""
_ROW = rf"\((?:{_ITEM}|,)*+\)"
_INSERT_SRC = (
    r"(?i:\binsert[ \t]++(?:ignore[ \t]++)?into)[ \t]++(?P<table>[\w.`\"\[\]]{1,128}+)[ \t]*+"
    r"\((?P<columns>[^()\r\n]{1,1000}+)\)[ \t\r\n]*+(?i:values)[ \t\r\n]*+"
    rf"(?P<rows>{_ROW}(?:[ \t\r\n]*+,[ \t\r\n]*+{_ROW}){{0,200}}+)"
)
_ROW_RE = LazyRe(_ROW, re.ASCII)
_HOLDERS = frozenset(("key", "value", "secret", "token", "password", "plaintext"))
# The quoted value of a place, alone or as a call's first argument (the password a call hashes:
# ``crypt('x', gen_salt('bf'))``, ``PASSWORD('x')``, ``sha2('x', 256)``).
_LITERAL = LazyRe(
    r"""[ \t]*+(?:[A-Za-z_][\w.]*+[ \t]*+\([ \t]*+)?"""
    r"""(?P<q>['"])(?P<value>(?:[^'"\r\n]|'')*+)(?P=q)""",
    re.ASCII,
)
_ITEMS = LazyRe(_ITEM + "++", re.ASCII)


def _insert(m: re.Match[str]) -> tuple[str, str] | None:
    names = [c.strip().strip('`"[] \t') for c in m["columns"].split(",")]
    kinds = {i: kind for i, name in enumerate(names) if (kind := key_kind(name, len(name)))}
    table = m["table"].strip('`"[]').rsplit(".", 1)[-1]
    if not kinds and (kind := key_kind(table, len(table), plural=True)):
        # a table named for secrets (``api_keys``, ``tokens``): its ``key`` or ``value`` column
        kinds = {i: kind for i, name in enumerate(names) if name.lower() in _HOLDERS}
    if not kinds:
        return None
    found: list[str] = []

    def row(r: re.Match[str]) -> str:
        items = [i[0] for i in _ITEMS.finditer(r[0], 1, len(r[0]) - 1)]
        if len(items) != len(names):
            return r[0]  # a row that does not read as the column list says: leave it
        for place, kind in kinds.items():
            literal = _LITERAL.match(items[place])
            value = literal["value"] if literal else ""
            if literal and value and not leave_value(value) and not too_short(kind, value):
                item = items[place]
                items[place] = (
                    f"{item[: literal.start('value')]}{mask(kind)}{item[literal.end('value') :]}"
                )
                found.append(kind)
        return "(" + ",".join(items) + ")"

    rows = _ROW_RE.sub(row, m["rows"])
    if not found:
        return None
    head = m.string[m.start() : m.start("rows")]
    return found[0], head + rows


# The statement a driver or an ORM logs with parameters, and the parameters it logs on the next
# line (SQLAlchemy's echo: ``VALUES (?, ?)`` then ``[generated in 0.0002s] ('ada', 'x')``).
_MARK = r"(?:\?|%s|\$\d{1,3}+|:\w{1,64}+)"
_PARAMS_SRC = (
    r"(?i:\binsert[ \t]++(?:ignore[ \t]++)?into)[ \t]++(?P<table>[\w.`\"\[\]]{1,128}+)[ \t]*+"
    r"\((?P<columns>[^()\r\n]{1,1000}+)\)[ \t]*+(?i:values)[ \t]*+"
    rf"\([ \t]*+{_MARK}(?:[ \t]*+,[ \t]*+{_MARK}){{0,200}}+[ \t]*+\)[^\r\n]{{0,80}}+\r?\n"
    r"[^\r\n(]{0,200}+(?P<rows>\((?:" + _ITEM + r"|,)*+\))"
)


def sql_rules() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    return [
        (("insert",), LazyPattern(_INSERT_SRC, re.ASCII), _insert),
        (("insert",), LazyPattern(_PARAMS_SRC, re.ASCII), _insert),
    ]

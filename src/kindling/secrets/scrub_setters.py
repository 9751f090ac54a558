"""A value given to a setter named by a secret, and a shell parameter's default.

``setPassword("x")``, ``.withToken('x')``, ``password("x")``: a setter or builder named by a
secret's key, given one string literal (``getToken("name")`` looks one up by name and is
left); and a credential type's constructor given its one literal (``new
AzureKeyCredential("x")``, ``ApiKeyCredential("x")``; issue 32, 24th pass).
``${DB_PASSWORD:-hunter2}``, ``${TOKEN=x}``, Spring's ``${search.api-key:x}``: the literal a
parameter holds when it is unset. ``user, password = "ada", "x"``: each name unpacked from
a literal takes the literal in its place (``tuple_rule``, 28th pass). All are judged as the key
rule judges a value (``leave_value``, ``too_short``). Loaded with the key-value rules
(``secrets.scrub_keyed.keyed_rules``). Must not import anything from Kindling except
``secrets.scrub_values``, ``secrets.scrub_keys``, ``secrets.scrub_refs`` (a name, a slug),
``secrets.scrub_files`` (``LIT``, a literal) and ``secrets.scrub_lines``.
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_files import LIT
from kindling.secrets.scrub_keys import KEY_WORDS, key_end_src, key_kind
from kindling.secrets.scrub_lines import line_at
from kindling.secrets.scrub_refs import names_a_secret, slug
from kindling.secrets.scrub_values import LazyPattern, LazyRe, leave_value, mask, too_short

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule


def _setter_src() -> str:
    # ``setPassword("x")``, ``.withToken('x')``, ``password("x")``: a setter or builder named by a
    # secret key, given one string literal. Starts at the parenthesis, looks back for the key.
    return rf"""
    \({key_end_src(".")}
    [ \t]*+(?P<q>["'])(?P<value>[^"'\r\n\\]{{1,200}}+)(?P=q)[ \t]*+\)
    """


_SETTER_NAME = LazyRe(r"[A-Za-z_][A-Za-z0-9_]*+\Z", re.ASCII)
_BARE_SETTERS = frozenset(
    ("password", "passwd", "passphrase", "token", "secret", "apikey", "api_key", "accesskey")
)
# A credential type that names its secret (``AzureKeyCredential``, ``ApiKeyCredential``,
# ``AzureSasCredential``): its constructor is given the key. (Not ``ManagedIdentityCredential``,
# given a client's id; nor Jenkins' ``credentials("id")``, which looks one up by id.)
_CREDENTIAL_TYPE = LazyRe(
    r"(?:[A-Z][A-Za-z0-9]*)?(?:Key|Sas|SAS|Secret|Token|Password)Credentials?", re.ASCII
)
_CONSTANT = LazyRe(r"[A-Z][A-Z0-9]*+(?:_[A-Z0-9]++)++", re.ASCII)  # an environment variable's


def _setter(m: re.Match[str]) -> tuple[str, str] | None:
    text = m.string
    name_match = _SETTER_NAME.search(text[max(0, m.start() - 64) : m.start()])
    if name_match is None:
        return None
    name = name_match[0].lower()
    built = _CREDENTIAL_TYPE.fullmatch(name_match[0]) is not None  # new AzureKeyCredential("x")
    if not (name.startswith(("set", "with")) or name in _BARE_SETTERS or built):
        return None  # getToken("name"), findSecret("id"): a lookup by name, not a value
    kind = key_kind(text, m.start())
    value = m["value"]
    if kind is None or leave_value(value) or too_short(kind, value):
        return None
    if built and (names_a_secret(value) or _CONSTANT.fullmatch(value)):
        return None  # AzureKeyCredential("AZURE_OPENAI_KEY"): the variable's name
    if kind not in ("password", "secret") and slug(value.replace("_", "-")):
        return None  # Auth.Token("access_token"): a name, as the key rule reads it
    head, tail = text[m.start() : m.start("value")], text[m.end("value") : m.end()]
    return kind, f"{head}{mask(kind)}{tail}"


# A shell parameter's default (``${DB_PASSWORD:-hunter2}``, ``${TOKEN=x}``), in a compose file,
# a script or inside a URL (``postgres://app:${PG_PASSWORD:-pw}@db``), or a Spring property's
# (``@Value("${search.api-key:x}")``): the literal the name holds when it is unset, given to
# it as ``=`` gives it. A reference (``$``) or a substring's offsets (``${TOKEN:0:8}``) is left.
_SHELL_DEFAULT_SRC = (
    # (a dotted or dashed name is a Spring property's, whose default follows a ``:``)
    r"\$\{(?P<key>[A-Za-z_]\w{0,80}+(?:(?:[.-]\w++)++(?=:))?+)(?P<op>:?[-=]|:(?![?+]))"
    r"(?P<value>[^}\s$\"'`]{1,200}+)\}"
)
_OFFSETS = LazyRe(r"[0-9: -]++", re.ASCII)  # ``${TOKEN:0:8}``: a substring, no default


def _shell_default(m: re.Match[str]) -> tuple[str, str] | None:
    kind = key_kind(m["key"], len(m["key"]))
    value = m["value"]
    if kind is None or leave_value(value) or too_short(kind, value) or _OFFSETS.fullmatch(value):
        return None
    if kind not in ("password", "secret") and slug(value.replace("_", "-")):
        return None  # words: a message (``${SA_KEY:if_you_see_this_configure_it}``), a name
    return kind, f"${{{m['key']}{m['op']}{mask(kind)}}}"


def setter_rule() -> tuple[tuple[str, ...], LazyPattern, Rule]:
    """``setPassword("x")``: woken by a secret's word."""
    flags = re.ASCII | re.IGNORECASE | re.VERBOSE
    return KEY_WORDS, LazyPattern(_setter_src(), flags), _setter


def shell_default_rule() -> tuple[tuple[str, ...], LazyPattern, Rule]:
    """``${DB_PASSWORD:-x}``: woken by ``${``."""
    return ("${",), LazyPattern(_SHELL_DEFAULT_SRC, re.ASCII), _shell_default


# ``user, password = "ada", "x"``: names unpacked from as many values, one statement on its
# line (28th pass). Each name takes the value in its place; the key rule would give the first
# literal after ``password =`` to it, and mask the user's name instead. A value may be an
# expression without blanks (29th pass: ``user, password = "ada", os.environ["PW"]``), which
# is left.
_EXPR = (  # (a call's or a subscript's brackets may hold commas and literals)
    rf"(?:[^\s,'\"()\[\]{{}}#;]|\((?:[^()'\"\r\n]|{LIT}){{0,200}}+\)"
    rf"|\[(?:[^\[\]'\"\r\n]|{LIT}){{0,200}}+\])++"
)
_ITEM_SRC = rf"{LIT}|{_EXPR}"
_TUPLE_SRC = (
    r"(?m:^)[ \t]*+(?P<names>[A-Za-z_][\w.]{0,60}+(?:[ \t]*+,[ \t]*+[A-Za-z_][\w.]{0,60}+){1,7})"
    rf"[ \t]*+=[ \t]*+\(?(?P<values>(?:{_ITEM_SRC})(?:[ \t]*+,[ \t]*+(?:{_ITEM_SRC})){{1,7}})\)?"
    r"[ \t]*+;?[ \t]*+\r?(?m:$)"  # (the line's end, not only the text's)
)
_TUPLE = LazyRe(_TUPLE_SRC, re.ASCII)
_ITEM = LazyRe(_ITEM_SRC, re.ASCII)


def unpacked_literals(text: str, at: int) -> bool:
    """The line holding ``at`` is names unpacked from values: the tuple rule's, which the
    key rule leaves to it (a call's arguments on their own line are not: ``host, port,
    password="x", timeout=3,``)."""
    line = line_at(text, at)
    return line is not None and _TUPLE.fullmatch(line) is not None


def _tuple(m: re.Match[str]) -> tuple[str, str] | None:
    names = [n.strip() for n in m["names"].split(",")]
    items = list(_ITEM.finditer(m.string, m.start("values"), m.end("values")))
    if len(names) != len(items):
        return None
    text = m.string
    pieces, kinds, at = [], [], m.start()
    for name, lit in zip(names, items, strict=True):
        kind, value = key_kind(name, len(name)), lit[0][1:-1]
        if lit[0][:1] not in "'\"" or kind is None or not value or leave_value(value):
            continue  # an expression (os.environ["PW"]), another name's value, a placeholder
        if too_short(kind, value):
            continue
        pieces += [text[at : lit.start() + 1], mask(kind)]
        at = lit.end() - 1
        kinds.append(kind)
    if not kinds:
        return None
    return kinds[0], "".join([*pieces, text[at : m.end()]])


def tuple_rule() -> tuple[tuple[str, ...], LazyPattern, Rule]:
    """Names unpacked from values: ``user, password = "ada", "x"`` masks ``"x"``."""
    return KEY_WORDS, LazyPattern(_TUPLE_SRC, re.ASCII), _tuple

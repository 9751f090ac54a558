"""Rules of ``secrets.scrub`` for a secret named by something other than its own key.

- A value named by a sibling field, in any syntax: ``{"key": "db.password", "value": "x"}``,
  a Kubernetes env list's ``- name: DB_PASSWORD`` then ``value: x``, CloudFormation
  ``ParameterKey``/``ParameterValue`` and ``OutputKey``/``OutputValue``, HCL
  ``{ name = "API_TOKEN", value = "x" }``, ``<add key="..." value="x"/>``, Hadoop
  ``<name>...secret.key</name><value>x</value>``.
- Every item of a list under a key that names secrets (YAML ``passwords:`` then ``- x``,
  ``"api_keys": ["x", "y"]``).
- Terraform ``variable "db_password" { default = "x" }``; a key with its quoted argument on a
  line of its own (Gradle ``password 'x'``); a URL given to a key naming a webhook.
- A value its own tool marks secret (Terraform's ``"sensitive": true``, AWS SSM's
  ``SecureString``), a key and its value in aligned columns (``vault kv get``'s table), and a
  label ending in a secret word and a colon with its value alone on the next line.
- A JSON Web Key's private members (``d``, ``p``, ``q``, ``dp``, ``dq``, ``qi``, ``k``), in an
  object whose ``kty`` says it is a key.

What names a secret is ``secrets.scrub_keys``' ``key_kind``, so both agree. Loaded with the
other rules on the first call of ``scrub_secrets``. Must not import anything from Kindling
except ``secrets.scrub_values``, ``secrets.scrub_keys`` and ``secrets.scrub_lines``.
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_keys import KEY_WORDS, STATUS_WORDS, key_kind, loosely_named
from kindling.secrets.scrub_lines import line_head
from kindling.secrets.scrub_values import (
    LazyPattern,
    LazyRe,
    P,
    is_name,
    leave_value,
    mask,
    random_enough,
    too_short,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule

# Field names that name another field's value (a CloudFormation output's ``OutputKey``).
NAME_FIELD = (
    r"(?:key|name|id|var|variable|param|parameter|parameter[_-]?(?:key|name)|setting"
    r"|output[_-]?key)"
)
VALUE_FIELD = r"(?:value|parameter[_-]?value|secret[_-]?value|output[_-]?value)"
# Kubernetes and compose env lists: ``- name: DB_PASSWORD`` then ``value: x`` on the next line.
_NAME_VALUE_SRC = (
    rf"(?P<keep>\b{NAME_FIELD}:[ \t]*+(?P<q>[\"']?)"
    r"(?P<key>[A-Za-z_][\w.-]{0,80}+)(?P=q)[ \t]*+\r?\n"
    rf"[ \t]*+(?:-[ \t]++)?{VALUE_FIELD}:[ \t]*+)"
    r"(?:\"(?P<dq>[^\"\r\n]*+)\"|'(?P<sq>[^'\r\n]*+)'|(?P<bare>[^\s\"']++))"
)


def named_kind(key: str, value: str) -> str | None:
    """The kind of secret a field's ``key`` names for another field's ``value``: as a key
    names its own (``key_kind``), or loosely (``DB_PASSWORD_2``, ``TEST_PASSWORD_LONG_1``) when
    the value looks generated, as ``scrub_loose`` reads the same key before its own value."""
    kind = key_kind(key, len(key))
    if kind is None and loosely_named(key) and random_enough(value):
        return "secret"
    return kind


def _name_value(m: re.Match[str]) -> tuple[str, str] | None:
    value = next(v for v in (m["dq"], m["sq"], m["bare"], "") if v is not None)
    kind = named_kind(m["key"], value)
    if kind is None or not value or leave_value(value) or too_short(kind, value):
        return None
    quote = '"' if m["dq"] is not None else "'" if m["sq"] is not None else ""
    return kind, f"{m['keep']}{quote}{mask(kind)}{quote}"


# A value named by a sibling field, in any syntax: ``<add key="ClearTextPassword" value="x"/>``,
# ``{"key": "db.password", "value": "x"}``, ``{"ParameterKey": "DbPassword", "ParameterValue":
# "x"}``, ``{Name = "API_TOKEN", Value = "x"}``; up to four other fields may stand between
# (``<input name="api_key" type="hidden" value="x">``, ``{"name": ..., "type": ..., "value"``).
_OTHER_FIELD = (
    r"""(?:(?P<k3>["']?)[\w.-]{1,40}+(?P=k3)[ \t]*+[:=][ \t]*+"""
    r"""(?:"[^"\r\n]{0,100}+"|'[^'\r\n]{0,100}+'|[\w.-]{1,40}+)[ \t]*+,?[ \t\r\n]*+)"""
)
_ADD_KEY_SRC = (
    rf"""(?P<keep>(?<![\w.-])(?P<k>["']?){NAME_FIELD}(?P=k)[ \t]*+[:=][ \t]*+"""
    r"""(?P<q>["'])(?P<key>[^"'<>\r\n]{1,100}+)(?P=q)[ \t]*+,?[ \t\r\n]*+"""
    rf"""{_OTHER_FIELD}{{0,4}}?"""
    rf"""(?P<k2>["']?){VALUE_FIELD}(?P=k2)[ \t]*+[:=][ \t]*+(?P<q2>["']))"""
    r"""(?P<value>[^"'\r\n]*+)(?P=q2)"""
)

# The same in markup: ``<name>fs.s3a.secret.key</name><value>x</value>`` (Hadoop, Java
# properties as XML), ``<key>password</key>`` then ``<value>x</value>``, or ``<string>x</string>``
# in an Apple property list; a KeePass export's ``<Key>Password</Key><Value
# ProtectInMemory="True">x</Value>``.
_SIBLING_SRC = (
    r"(?P<keep><(?P<kt>key|name)>[ \t]*+(?P<key>[^<\r\n]{1,100}+)</(?P=kt)>[ \t\r\n]{0,200}+"
    r"<(?P<vt>value|string)(?:[ \t][^<>]{0,100}+)?>)(?P<value>[^<]{1,1000}+)(?=</(?P=vt)>)"
)


# ... or as an element's attribute, its value the child ``<value>``: a .NET settings file's
# ``<setting name="ApiToken" serializeAs="String"><value>x</value></setting>``.
_ATTRIBUTE_CHILD_SRC = (
    r"""(?P<keep><[A-Za-z][\w.:-]{0,40}+(?:[ \t][^<>]{0,200}?)?[ \t](?:name|key)[ \t]*+=[ \t]*+"""
    r"""(?P<q>["'])(?P<key>[^"'<>\r\n]{1,100}+)(?P=q)[^<>]{0,200}+>[ \t\r\n]{0,200}+<value>)"""
    r"(?P<value>[^<]{1,1000}+)(?=</value>)"
)


def _sibling(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"].strip()
    kind = named_kind(m["key"].strip(), value)
    if kind is None or not value or leave_value(value) or too_short(kind, value):
        return None
    return kind, f"{m['keep']}{mask(kind)}"


# A list under a key that names secrets: YAML ``passwords:`` then ``- x`` lines, and
# ``"api_keys": ["x", "y"]`` in JSON, TOML or Python.
# The last letters of the key words, plural or not (these patterns run without IGNORECASE,
# which makes the scan for their first character slower).
_LAST = "dsentlyDSENTLY"

# Both start at the character after the key (a colon, a closing quote) and look back for it:
# a line start or a quote is tried at far more places than a key word's last letter.
_YAML_LIST_SRC = (
    rf"(?P<head>:(?:(?<=[{_LAST}]:)|(?<=[{_LAST}][\"']:))[ \t]*+\r?\n)"
    r"(?P<items>(?:[ \t]*+-[ \t]++[^\r\n]*+(?:\r?\n|\Z)){1,50}+)"
)
_FLOW_LIST_SRC = (
    rf"(?P<head>[\"'](?<=[{_LAST}][\"'])[ \t]*+[:=][ \t]*+\[)"
    # To the closing bracket, or to the end of a text cut inside the list.
    r"(?P<items>[^\[\]{}]{1,2000}+)(?=\]|\Z)"
)
# Their keywords are the key word with what follows it, so that the rules (which scan every
# quote) wake only for a text that can hold their syntax.
_ENDINGS = ("pass", "pwd", "passwd", "password", "passphrase", "token", "secret", "key")
_ENDINGS_PLURAL = (*_ENDINGS, "tokens", "secrets", "keys", "passwords", "credential", "credentials")
_FLOW_LIST_WORDS = tuple(
    f"{word}{q}{sep}" for word in _ENDINGS_PLURAL for q in "\"'" for sep in (":", " :", "=", " =")
)
_ARGUMENT_WORDS = tuple(f"{word}{sep}" for word in _ENDINGS for sep in (" '", ' "', "  ", ' @"'))
_YAML_LIST_KEY = LazyRe(r"""[ \t]*+(?:-[ \t]++)?["']?(?P<key>\w[\w.-]{0,80}+)["']?""", re.ASCII)
_FLOW_LIST_KEY = LazyRe(r"""["'](?P<key>\w[\w.-]{0,80}+)\Z""", re.ASCII)
_LIST_ITEM = LazyRe(r"""(?P<lead>[ \t]*+-[ \t]++)(?P<value>[^\r\n]*+)""", re.ASCII)
_SNAKE = LazyRe(r"[a-z]++(?:[_-][a-z]++)++[0-9]?", re.ASCII)  # db_password, api-key
_QUOTED_ITEM = LazyRe(r"""(?P<q>["'])(?P<value>[^"'\r\n]*+)(?P=q)""", re.ASCII)


def _list_value(kind: str, value: str) -> bool:
    if kind == "secret" and (is_name(value) or _SNAKE.fullmatch(value)):
        return False  # a compose file's ``secrets:`` lists the secrets' names (``db_password``)
    return bool(value) and not (
        leave_value(value) or P.code.fullmatch(value) or too_short(kind, value)
    )


def _yaml_list(m: re.Match[str]) -> tuple[str, str] | None:
    text = m.string
    head = line_head(text, m.start())
    key = None if head is None else _YAML_LIST_KEY.fullmatch(head)
    kind = key_kind(key["key"], len(key["key"]), plural=True) if key else None
    if kind is None:
        return None
    lines = m["items"].splitlines(keepends=True)
    out, masked = [], False
    for line in lines:
        item = _LIST_ITEM.match(line)
        body = line.rstrip("\r\n")
        if item is not None:
            raw = item["value"].rstrip()
            value = raw[1:-1] if raw[:1] in "\"'" and raw[-1:] == raw[:1] else raw
            if ": " not in raw and _list_value(kind, value):
                quote = raw[0] if value is not raw else ""
                body = f"{item['lead']}{quote}{mask(kind)}{quote}"
                masked = True
        out.append(body + line[len(line.rstrip("\r\n")) :])
    return (kind, m["head"] + "".join(out)) if masked else None


def _flow_list(m: re.Match[str]) -> tuple[str, str] | None:
    key = _FLOW_LIST_KEY.search(m.string[max(0, m.start() - 82) : m.start()])
    kind = key_kind(key["key"], len(key["key"]), plural=True) if key else None
    if kind is None:
        return None
    masked = False

    def item(x: re.Match[str]) -> str:
        nonlocal masked
        if not _list_value(kind, x["value"]):
            return x[0]
        masked = True
        return f"{x['q']}{mask(kind)}{x['q']}"

    items = _QUOTED_ITEM.sub(item, m["items"])
    return (kind, m["head"] + items) if masked else None


# A Terraform variable whose name says secret, with a default: ``variable "db_password" {
# default = "x" }``; and a key given its value as a command's argument on a line of its own
# (Gradle, Groovy, Ruby DSLs, nginx, Apache): ``password 'x'``, ``auth_token "x";``, also
# inside blocks opened and closed on its line (``release { storePassword "x" } }``).
_HCL_VARIABLE_SRC = (
    r"""(?P<keep>\bvariable[ \t]++"(?P<key>[^"\r\n]{1,100}+)"[ \t]*+\{[^{}"]{0,300}?"""
    r"""\bdefault[ \t]*+=[ \t]*+")(?P<value>[^"\r\n]*+)(?=")"""
)
# Starts at the opening quote and looks back for a key word and one to four blanks: quotes are
# rarer than blanks; the handler checks that the key is all the line holds before it.
_ARGUMENT_SRC = (
    r"""(?P<q>["'])"""
    + "(?:{})".format(
        "|".join(f"(?<=[{_LAST}][ \\t]{{{n}}}{at}[\"'])" for n in range(1, 5) for at in ("", "@"))
    )
    + r"""(?P<value>[^"'\r\n]{1,200}+)(?P=q)(?=[ \t]*+;?(?:[ \t]*+\})*+[ \t]*+(?:\r?\n|\Z))"""
)


# The key alone on its line, or after the blocks that line opens (Gradle's one-line
# ``signingConfigs { release { storePassword "x" } }``), or a C macro's name
# (``#define WIFI_PASSWORD "x"``, Objective-C's ``#define API_KEY @"x"``).
_ARGUMENT_LINE = LazyRe(
    r"(?:[^\r\n]*\{)?[ \t]*+(?:\#[ \t]*+define[ \t]++)?(?P<key>[A-Za-z_][\w.-]{0,80}+)"
    r"[ \t]{1,4}@?",
    re.ASCII,
)


def _argument(m: re.Match[str]) -> tuple[str, str] | None:
    text = m.string
    head = line_head(text, m.start())
    key = None if head is None else _ARGUMENT_LINE.fullmatch(head)
    kind = key_kind(key["key"], len(key["key"])) if key else None
    value = m["value"]
    if kind is None or leave_value(value) or too_short(kind, value):
        return None
    head, tail = text[m.start() : m.start("value")], text[m.end("value") : m.end()]
    return kind, f"{head}{mask(kind)}{tail}"


def _named_by_key(m: re.Match[str]) -> tuple[str, str] | None:
    kind = key_kind(m["key"], len(m["key"]))
    value = m["value"]
    if kind is None or not value or leave_value(value) or too_short(kind, value):
        return None
    return kind, f"{m['keep']}{mask(kind)}{m.string[m.end('value') : m.end()]}"


# A URL given to a key that names a webhook: its path is the credential (whoever knows it can
# post), whatever the vendor. The scheme and host are kept.
_WEBHOOK_KEY_SRC = (
    r"(?P<keep>webhooks?(?:[_.-]?ur[il])?[\"']?[ \t]*+(?:[:=]|=>)[ \t]*+[\"']?"
    r"https?://[\w.-]++(?::[0-9]++)?)(?P<value>/[^\s\"'<>`]{8,}+)"
)


def _webhook_key(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"]
    if "[REDACTED:" in value or (not any(c.isdigit() for c in value) and len(value) < 24):
        return None
    return "webhook_url", f"{m['keep']}{mask('webhook_url')}"


def _add_key(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"]
    kind = named_kind(m["key"], value)
    if kind is None or not value or leave_value(value):
        return None
    return kind, f"{m['keep']}{mask(kind)}{m['q2']}"


# A JSON Web Key's private members (RFC 7518, section 6): an EC or OKP key's ``d``, an RSA
# key's ``d``, ``p``, ``q``, ``dp``, ``dq``, ``qi``, an octet key's ``k``. Their names are one
# or two letters, so they name a secret only in an object that says it is a key (``"kty"``);
# its public members (``n``, ``e``, ``x``, ``y``) are left.
_JWK_SRC = (
    r"""(?P<keep>(?<![\w"'])(?P<k>["']?)(?:d|p|q|dp|dq|qi|k)(?P=k)[ \t]*+:[ \t]*+(?P<q>["']))"""
    r"(?P<value>[A-Za-z0-9_-]{16,}+={0,2})(?P=q)"
)


def _jwk_member(m: re.Match[str]) -> tuple[str, str] | None:
    text = m.string
    start, end = text.rfind("{", 0, m.start()), text.find("}", m.end())
    if start < 0 or m.start() - start > 8192 or "kty" not in text[start : max(end, m.end())]:
        return None  # not in an object with a key type: some other "d" or "k"
    return "private_key", f"{m['keep']}{mask('private_key')}{m['q']}"


# A value its own tool marks secret: Terraform's ``terraform output -json`` (``"sensitive":
# true, "type": "string", "value": "x"``) and AWS SSM's ``"Type": "SecureString", "Value": "x"``
# (issue 32, ninth pass).
_STRING = r'"(?:[^"\\\r\n]|\\.){1,4096}+"'
_MARKED_SRC = (
    r'(?P<keep>"sensitive"[ \t]*+:[ \t]*+true[ \t\r\n]*+,[ \t\r\n]*+"type"[ \t]*+:[ \t]*+'
    r'(?:"[^"\r\n]{0,80}+"|\[[^\]\r\n]{0,200}+\])[ \t\r\n]*+,[ \t\r\n]*+"value"[ \t]*+:[ \t]*+'
    r'|"Type"[ \t]*+:[ \t]*+"SecureString"[ \t]*+,[ \t\r\n]*+"Value"[ \t]*+:[ \t]*+)'
    rf"(?P<value>{_STRING})"
)


def _marked(m: re.Match[str]) -> tuple[str, str] | None:
    if "[REDACTED:" in m["value"]:
        return None
    return "secret", f'{m["keep"]}"{mask("secret")}"'


# A key and its value in aligned columns, alone on a line (``vault kv get``'s table:
# ``password            hunter2``): two blanks or more between them, as no sentence has.
_COLUMNS_SRC = (
    r"(?m)^(?P<keep>[ \t]*+(?P<key>[A-Za-z_][\w.-]{0,63}+)[ \t]{2,}+)"
    r"(?P<value>[^\s]{1,1000}+)[ \t]*+$"
)


def _columns(m: re.Match[str]) -> tuple[str, str] | None:
    key, value = m["key"], m["value"]
    kind = key_kind(key, len(key))
    if kind is None or "[REDACTED:" in value or leave_value(value) or value.isupper():
        return None  # (a help text's metavar: ``token   TOKEN``)
    if value.isalpha() and value.istitle():
        return None  # a type or a heading: ``secret   Opaque``
    if value.lower() in STATUS_WORDS or value.startswith(("$", "<", "(", "[", "{", "-")):
        return None  # a status, a reference, a type or a placeholder
    return kind, f"{m['keep']}{mask(kind)}"


# A label that ends in a secret word and a colon, alone on a short line, and its value alone
# on the next (a blank line may come between): a CLI's output (``Your API token:`` then the
# token), a note (``Password:`` then the password).
_NEXT_LINE_SRC = (
    r"(?m)^(?P<keep>[ \t]*+(?P<label>[A-Za-z][\w .-]{0,59}+):[ \t]*+\r?\n(?:[ \t]*+\r?\n)?"
    r"[ \t]*+)(?P<value>[^\s`*#>|(){}\[\]<;-][^\s(){}\[\]<>;]{3,999}+)[ \t]*+$"
)
_SETTING = LazyRe(r"=[^=]", re.ASCII)


_CODE_HEAD = LazyRe(
    r"(?:class|def|case|if|elif|else|for|while|with|try|except|struct|enum|interface|type"
    r"|function|fn|func|impl|trait|object|module|record)[ \t]",
    re.ASCII,
)


def _next_line(m: re.Match[str]) -> tuple[str, str] | None:
    if _CODE_HEAD.match(m["label"]) or m["value"].startswith(('"""', "'''")):
        return None  # a block of code and its docstring: ``class AuthCredentials:``
    label, value = m["label"].replace(" ", ""), m["value"]
    kind = key_kind(label, len(label))
    if kind is None or "[REDACTED:" in value or leave_value(value) or _SETTING.search(value):
        return None
    if value.rstrip(":").lower() in STATUS_WORDS or value.endswith(":"):
        return None  # a status, or the next label (``Password:`` then ``Confirm:``)
    if value.isalpha() and (value.islower() or value.istitle() or value.isupper()):
        return None  # a word: code's ``pass``, a heading, a status the list lacks
    return kind, f"{m['keep']}{mask(kind)}"


def named_rules() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    """These rules, in the order they run (before ``keyed_rules``)."""
    a, ai = re.ASCII, re.ASCII | re.IGNORECASE
    return [
        (("value",), LazyPattern(_ADD_KEY_SRC, ai), _add_key),
        (("value:",), LazyPattern(_NAME_VALUE_SRC, ai), _name_value),
        (("</value", "</string"), LazyPattern(_SIBLING_SRC, ai), _sibling),
        (("</value",), LazyPattern(_ATTRIBUTE_CHILD_SRC, ai), _sibling),
        (KEY_WORDS, LazyPattern(_YAML_LIST_SRC, a), _yaml_list),
        (_FLOW_LIST_WORDS, LazyPattern(_FLOW_LIST_SRC, a), _flow_list),
        (("webhook",), LazyPattern(_WEBHOOK_KEY_SRC, ai), _webhook_key),
        (("variable",), LazyPattern(_HCL_VARIABLE_SRC, ai), _named_by_key),
        (_ARGUMENT_WORDS, LazyPattern(_ARGUMENT_SRC, a), _argument),
        (("kty",), LazyPattern(_JWK_SRC, a), _jwk_member),
        (("sensitive", "securestring"), LazyPattern(_MARKED_SRC, a), _marked),
        (KEY_WORDS, LazyPattern(_COLUMNS_SRC, a), _columns),
        (KEY_WORDS, LazyPattern(_NEXT_LINE_SRC, a), _next_line),
    ]

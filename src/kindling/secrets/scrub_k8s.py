"""The values of a Kubernetes Secret (issue 32, twentieth pass).

``kubectl get secret app -o yaml`` (or ``-o json``), a manifest in a repository, a Helm
chart's rendered output: a ``kind: Secret`` object's ``data`` (base64) and ``stringData``
(plain text) hold only what Kubernetes is told to keep secret, under keys of any name
(``redis: aHVudGVyMg==``, ``DATABASE_URL: ...``). Every value there is masked, whatever its
key or look; a certificate's is left (``ca.crt``, ``tls.crt``, a key ending in ``cert``,
``pub`` or ``public``: public by design), and so is a user's name (a key ending in ``user`` or
``username``: a basic-auth Secret's, 27th pass), an address with no password (31st pass: the
URL rules read it as anywhere else) and every other object's ``data`` (a ConfigMap's) in the
same file or list.

YAML: ``data:`` or ``stringData:`` alone on its line, its entries indented below it, and
``kind: Secret`` among the keys beside it (the same indent, or the ``- kind:`` that opens
the list item). A block scalar's lines (``config.yaml: |``) are masked whole. JSON: the
``"data"`` or ``"stringData"`` object of the object whose own ``"kind"`` is ``"Secret"``.
Both are told by one pass over the text (its lines' indentation, or its JSON strings and
braces, so an annotation holding JSON does not confuse it), once per text however many
``data`` it holds.

Loaded with the rules of ``secrets.scrub_printed``. Must not import anything from Kindling
except ``secrets.scrub_values``.
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_values import LazyPattern, LazyRe, mask

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule

_YAML_SRC = (
    r"(?m)^(?P<indent>[ \t]*+)(?:-[ \t]++)?(?:data|stringData):[ \t]*+\r?\n"
    r"(?P<body>(?:(?P=indent)[ \t]++[^\r\n]*+(?:\r?\n|\Z))++)"
)
_JSON_SRC = r"\"(?:data|stringData)\"[ \t]*+:[ \t]*+\{(?P<body>[^{}]{0,200000}+)\}"
_ENTRY = LazyRe(r"(?P<lead>[ \t]*+(?P<key>[^\s:#][^:\r\n]{0,252}?):[ \t]*+)(?P<value>[^\r\n]*+)")
_JSON_ENTRY = LazyRe(
    r"(?P<lead>\"(?P<key>[^\"\\\r\n]{1,253}+)\"[ \t]*+:[ \t]*+\")(?P<value>[^\"\\\x00-\x1f]++)\""
)
_PUBLIC = LazyRe(r"(?i)(?:.*[._-])?(?:ca|crt|cert|certificate|pub|public|user|username)[\"']?")
_BLOCK = frozenset(("|", "|-", "|+", ">", ">-", ">+"))
# An address with no password and no query (``url: https://github.com/org/repo``): the URL
# rules judge its parts (a webhook's path, a token in it) as anywhere else (31st pass).
_ADDRESS = LazyRe(
    r"[\"']?[a-z][a-z0-9+.-]*+://(?:[\w.~-]++@)?[^\s/@?#:\"']++(?::[0-9]{1,5}+)?"
    r"(?:/[^\s?#@\"']*+)?[\"']?",
    re.ASCII,
)


_LINE = LazyRe(r"(?m)^(?P<indent>[ \t]*+)(?P<item>-[ \t]++)?(?P<rest>[^\r\n]*+)", re.ASCII)
_DATA_KEY = LazyRe(r"(?:data|stringData):[ \t]*+", re.ASCII)
_KIND_VALUE = LazyRe(r"kind:[ \t]*+[\"']?Secret[\"']?[ \t]*+(?:#.*)?", re.ASCII)
# What each rule read of the last text, under the text's hash and length: one tuple, read and
# replaced whole (a server's threads may scrub at once). Not the text itself, which holds the
# secrets until it is masked (a string's hash is computed once and kept by the string).
_Read = tuple[dict[int, int], set[int]]
_YAML_READ: list[tuple[int, int, _Read]] = []
_JSON_READ: list[tuple[int, int, _Read]] = []


def _yaml_maps(text: str) -> _Read:
    """One pass over ``text``'s lines (YAML's indentation): the mapping each ``data:`` line
    (by its start) belongs to, and the mappings holding ``kind: Secret``. A list's item opens
    a mapping; a shallower line closes the deeper ones; ``---`` closes them all. Read once per
    text however many ``data:`` it holds (each rule's pass sees one text)."""
    read = _YAML_READ[0] if _YAML_READ else None
    if read is not None and read[:2] == (hash(text), len(text)):
        return read[2]
    data: dict[int, int] = {}
    secret: set[int] = set()
    stack: list[tuple[int, int]] = []  # (a mapping's indent, its number)
    for number, line in enumerate(_LINE.finditer(text, 0, len(text))):
        rest = line["rest"]
        if not rest.strip() or rest.startswith("#"):
            continue
        if rest.startswith("---") and not line["indent"] and not line["item"]:
            stack.clear()
            continue
        indent = len(line["indent"]) + len(line["item"] or "")
        while stack and (stack[-1][0] > indent or (line["item"] and stack[-1][0] == indent)):
            stack.pop()
        if not stack or stack[-1][0] < indent:
            stack.append((indent, number))
        if _KIND_VALUE.fullmatch(rest):
            secret.add(stack[-1][1])
        elif _DATA_KEY.fullmatch(rest):
            data[line.start()] = stack[-1][1]
    _YAML_READ[:] = [(hash(text), len(text), (data, secret))]
    return data, secret


def _a_value(value: str) -> bool:
    """A letter or a digit, no mask (what is left beside one was read as no secret) and no
    escape: a value with ``\\n`` or ``\\"`` is judged in the text read with its escapes
    decoded, where masking it here would move its string's ends (base64 holds none)."""
    return "[REDACTED:" not in value and "\\" not in value and any(map(str.isalnum, value))


def _width(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _yaml(m: re.Match[str]) -> tuple[str, str] | None:
    text, body = m.string, m["body"]
    first = m[0][: m.start("body") - m.start()]
    data, secret = _yaml_maps(text)
    if data.get(m.start()) not in secret:
        return None
    out, child, block = [], -1, -1
    for line in body.splitlines(keepends=True):
        width = _width(line)
        child = width if child < 0 else child
        if block >= 0 and width > block and line.strip():
            out.append(f"{line[:width]}{mask('secret')}{line[len(line.rstrip()) :]}")
            continue
        block = -1
        entry = _ENTRY.match(line)
        value = entry["value"].strip() if entry else ""
        if width != child or entry is None or _PUBLIC.fullmatch(entry["key"].strip()):
            out.append(line)
        elif value in _BLOCK:
            block = width
            out.append(line)
        elif (
            value.startswith("#")
            or not _a_value(value)
            or "[REDACTED:" in line
            or _ADDRESS.fullmatch(value)
        ):
            out.append(line)
        else:
            quote = value[0] if value[0] in "\"'" and value[-1] == value[0] else ""
            out.append(f"{entry['lead']}{quote}{mask('secret')}{quote}{line[entry.end() :]}")
    masked = "".join(out)
    return None if masked == body else ("secret", f"{first}{masked}")


# A JSON string (escapes read past) or a brace: what tells an object's members apart.
_TOKEN = LazyRe(r'"(?:[^"\\\r\n]|\\.)*+"|[{}]', re.ASCII)


def _json_objects(text: str) -> _Read:
    """One pass over ``text``'s JSON strings and braces: the object each member's key (by its
    start) belongs to, and the objects with ``"kind": "Secret"`` among their own members (a
    list's ``"kind": "List"`` and metadata's are theirs). Read once per text."""
    read = _JSON_READ[0] if _JSON_READ else None
    if read is not None and read[:2] == (hash(text), len(text)):
        return read[2]
    owner: dict[int, int] = {}
    secret: set[int] = set()
    stack: list[int] = []
    prev: re.Match[str] | None = None
    for t in _TOKEN.finditer(text, 0, len(text)):
        if t[0] == "{":
            stack.append(t.start())
        elif t[0] == "}":
            _ = stack.pop() if stack else None
        elif stack:
            owner[t.start()] = stack[-1]
            key_owner = owner.get(prev.start()) if prev is not None else None
            if t[0] == '"Secret"' and _kind_before(text, prev, t, key_owner, stack[-1]):
                secret.add(stack[-1])
        prev = t
    _JSON_READ[:] = [(hash(text), len(text), (owner, secret))]
    return owner, secret


def _kind_before(
    text: str, key: re.Match[str] | None, value: re.Match[str], *owners: int | None
) -> bool:
    """``key`` is ``"kind"``, a member of the same object as ``value`` (``owners``: the key's
    object, then the value's), and ``:`` alone between them."""
    return (
        key is not None
        and key[0] == '"kind"'
        and owners[0] == owners[1]
        and text[key.end() : value.start()].strip() == ":"
    )


def _json(m: re.Match[str]) -> tuple[str, str] | None:
    owner, secret = _json_objects(m.string)
    if owner.get(m.start()) not in secret:
        return None

    def value(e: re.Match[str]) -> str:
        if _PUBLIC.fullmatch(e["key"]) or not _a_value(e["value"]):
            return e[0]
        if _ADDRESS.fullmatch(e["value"]):
            return e[0]
        return f'{e["lead"]}{mask("secret")}"'

    body = _JSON_ENTRY.sub(value, m["body"])
    if body == m["body"]:
        return None
    return "secret", f"{m[0][: m.start('body') - m.start()]}{body}}}"


def k8s_secret_rules() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    return [
        (("kind: secret", "kind: 'secret'", 'kind: "secret"'), LazyPattern(_YAML_SRC), _yaml),
        (('"kind": "secret"', '"kind":"secret"'), LazyPattern(_JSON_SRC), _json),
    ]

"""A ``.env`` line whose unquoted value has blanks, and a command's environment prefix.

In a ``.env`` file an unquoted value may hold blanks (``PASSWORD=correct horse battery``): the
whole rest of the line is the value, and this rule masks it. On a command line the first
blank ends it (issue 32, seventeenth pass): ``PGPASSWORD=x psql -h db`` and
``TF_VAR_db_password=x terraform plan`` gave the program its environment, and ``export
API_KEY=x && npm start`` ran a second command; masking the rest lost what was run. When
the rest reads as a command (a program's name, a flag, a path, a shell operator), this rule
leaves the line to ``secrets.scrub_keyed``'s key-value rule, which masks the value alone
(``secrets.scrub_password``'s passphrase on a config line asks ``command_follows`` too).

Also what the key-value rule asks of a shell's words (``assignment_line``, ``env_literal``): a
value set by ``export``, ``ENV``, a ``.env`` line or a command's environment (``docker run -e
POSTGRES_PASSWORD=x``, 26th pass), among other pairs (``ansible_user=admin ansible_ssh_pass=x``)
or on a YAML mapping's line (``yaml_literal``, 27th pass) is a literal, even one that reads as
a name; so is one of a connection string's ``Key=Value;`` pairs (``in_pairs``).

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_values``, ``secrets.scrub_keys``, ``secrets.scrub_lines``
and ``secrets.scrub_refs`` (``YAML_PROPERTIES``: an anchor, a tag).
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_keys import key_kind
from kindling.secrets.scrub_lines import line_at, line_start
from kindling.secrets.scrub_refs import YAML_PROPERTIES
from kindling.secrets.scrub_values import LazyRe, P, leave_value, mask

ENV_LINE_SRC = (
    r"(?m)^(?P<keep>[ \t]*+(?:export[ \t]++)?(?P<key>[A-Za-z_][A-Za-z0-9_.-]{0,80}+)"
    r"(?:=|[ \t]*+(?:::=|:=|\?=|\+=)[ \t]*+))"
    r"(?P<value>[^\s\"'`$][^\r\n]*?[ \t][^\r\n]*?)[ \t]*+$"
)
# A shell's operator between blanks, a flag, or a path: what a command line holds and a
# phrase does not.
_COMMAND = LazyRe(
    r"[ \t](?:&&|\|\|?|;|>>?|2>&1|<)(?:[ \t]|$)|[ \t](?:--?[A-Za-z]|\.{0,2}/)", re.ASCII
)
_PROGRAMS = frozenset(
    """psql pg_dump mysql mongosh redis-cli sqlcmd npm npx yarn pnpm node bun deno python
    python3 pytest uv uvx poetry pip go cargo terraform tofu terragrunt docker podman kubectl
    helm gh git curl wget make bash sh zsh ruby bundle rails rake java mvn gradle dotnet aws
    gcloud az ansible-playbook ansible php composer jest vitest sentry-cli vercel netlify
    wrangler flyctl heroku firebase supabase doppler op vault kindling""".split()  # noqa: SIM905
)


def command_follows(value: str) -> bool:
    """What follows the first blank of ``value`` reads as a command, not the rest of a phrase:
    a shell's operator, a flag or a path; or a program's name after a first word that is no
    word (``hunter2 npm test``; after ``correct``, ``yarn`` may be the passphrase's)."""
    parts = value.split(None, 1)
    if len(parts) < 2:
        return False  # ``token=key `` (a blank ends the line): nothing follows
    first, rest = parts
    if _COMMAND.search(" " + rest) is not None:
        return True
    return rest.split(None, 1)[0] in _PROGRAMS and not first.isalpha()


def env_line(m: re.Match[str]) -> tuple[str, str] | None:
    key = m["key"]
    kind = key_kind(key, len(key))
    if kind is None:
        return None
    value = m["value"]
    first = value.split(None, 1)[0]
    if any(leave_value(v) or P.code.fullmatch(v) for v in (first, value)):
        return None  # (SESSION_SECRET=Your Session Secret goes here: a placeholder)
    if command_follows(value):
        return None  # PGPASSWORD=x psql -h db: the key-value rule masks the value alone
    return kind, f"{m['keep']}{mask(kind)}"


# ``export DB_PASSWORD=x`` (after a prompt too: ``$ export ...``), ``ENV DB_PASSWORD=x``,
# ``- DB_PASSWORD=x``, a ``.env`` line (an
# environment variable's name in capitals) or a ``.properties`` line (a dotted key), at the
# line's start: a shell's or a config file's assignment, whose value is a literal even when it
# reads as a name (``SQLSpringPassword``). Code indents or spaces its assignments, and
# ``userpass=dbPw`` alone reads as code's.
_ASSIGNMENT_LINE = LazyRe(
    r"(?:[ \t]*+(?:\$[ \t]++)?(?:export|ENV|-)[ \t]++[A-Za-z_][\w.-]*+|[A-Z_][A-Z0-9_]*+"
    r"|[A-Za-z_][\w-]*+(?:\.[\w-]++)++)=[^\s=]++[ \t]*+\r?",
    re.ASCII,
)


def assignment_line(text: str, end: int) -> bool:
    line = line_at(text, end)
    return line is not None and _ASSIGNMENT_LINE.fullmatch(line) is not None


# A command's environment (``docker run -e POSTGRES_PASSWORD=x``, ``--build-arg``, ``--set``,
# Java's ``-D``), a literal named so (``kubectl create secret --from-literal=password=x``), a
# variable set before a command (``$ PASSWORD=x ./server``) or in a compose file's list
# (``- MINIO_SECRET_KEY=x``): a shell's words are literals (a variable would be ``$x``), even
# one that reads as a name.
_ENV_LITERAL = LazyRe(
    r"(?:(?:^|[ \t])(?:(?:-e|--env|--build-arg|--set(?:-string|-literal)?|--from-literal)"
    r"[ \t=]++[\"']?+|-D)"
    r"[A-Za-z_][\w.-]*+|(?:^|\n)[ \t]*+(?:\$[ \t]++|-[ \t]++)?[A-Z_][A-Z0-9_]*+"
    # after another key's unquoted pair and a blank, with no comma: an inventory's or a log's
    # pairs (web1 ansible_user=admin ansible_ssh_pass=x), a command's (make USER=a PASS=x)
    r"|(?:^|[ \t])[A-Za-z_][\w.-]*+=[^\s,;()\[\]{}\"'`$=]++[ \t]++[A-Za-z_][\w.-]*+"
    r"|[?&][A-Za-z_][\w.-]*+)\Z",  # a URL's query: ?cmd=restart&password=x
    re.ASCII,
)


def env_literal(text: str, key_end: int, value: str) -> bool:
    """A name-like value (``mysecretpassword``) in a command's environment: a literal."""
    if text[key_end : key_end + 1] != "=" or value[:1] == "$" or not P.identifier.fullmatch(value):
        return False  # (``NAME: Final = 2`` is code's annotation, not a shell's ``NAME=x``)
    if leave_value(value):
        return False
    return _ENV_LITERAL.search(text[max(0, key_end - 120) : key_end]) is not None


# A YAML mapping's line, ``  password: mypassword`` (a compose file's ``environment:``, a chart's
# values, an inventory's vars): YAML has no variables, so a value in small letters that reads
# as a name is still the literal. Code's object holds names there too (``{ pass: password }``),
# but its members follow a ``{`` or a ``,``, and a type annotation names a type.
_YAML_LINE = LazyRe(
    r"[ \t]*+(?:-[ \t]++)?[A-Za-z_][\w.-]*+:[ \t]++"
    rf"{YAML_PROPERTIES}(?P<value>[a-z][a-z0-9_-]*+)[ \t]*+"
    r"(?:#[^\r\n]*+)?\r?",
    re.ASCII,
)


def yaml_literal(text: str, key_end: int, value: str) -> bool:
    """A name-like value (``examplepass``) on a YAML mapping's line: a literal."""
    if text[key_end : key_end + 1] != ":" or value != value.lower():
        return False
    start, whole = line_start(text, key_end), line_at(text, key_end)
    line = None if whole is None else _YAML_LINE.fullmatch(whole)
    if line is None or line["value"] != value or leave_value(value) or P.code.fullmatch(value):
        return False  # (password: str, a type's annotation)
    before = text[max(0, (start or 0) - 300) : start].rstrip()
    return not before.endswith(("{", ",", "(", "[", "=>"))


# Helm's ``--set a=b,auth.password=x``: the pairs before a value's key on its flag (31st pass).
_HELM_SET = LazyRe(
    r"--set(?:-string|-literal)?(?:=|[ \t]++)[\"']?"
    r"(?:[\w.\[\]\\-]{1,100}+=[^\s,\"']{0,200}+,){0,20}+"
    r"[\w.\[\]\\-]{0,100}+\Z",
    re.ASCII,
)


def flag_literal(text: str, start: int, value: str) -> bool:
    """A name-like value after a command's ``--flag`` and a blank (``aws kms
    create-custom-key-store --key-store-password kmsPswd``) or in Helm's ``--set`` list
    (``--set auth.user=ada,auth.password=secretpassword``): a shell's word, a literal. Not a
    help text's line, which starts with its flag (``  -p, --password string``; a command's
    line continued after a ``\\`` may too), nor a placeholder's name in capitals (``--token
    TOKEN``)."""
    if value.isupper():
        return False
    if _HELM_SET.search(text[max(0, start - 600) : start]) is not None:
        return not leave_value(value)
    if not text.startswith("--", start) or not P.identifier.fullmatch(value):
        return False
    if leave_value(value) or P.code.fullmatch(value):
        return False  # --password string, --token null
    head_start = line_start(text, start)
    if head_start is None:
        return True  # a thousand characters before the flag: a command's line, no help text's
    line = text[head_start:start].lstrip(" \t$>")
    if not line or line.startswith("-"):  # a help text's, unless a command's line continued
        return text[max(0, head_start - 3) : head_start].rstrip("\r\n").endswith(("\\", "`", "^"))
    return True


# ``Server=db;User Id=app;Password=x;``: in a list of ``Key=Value;`` pairs (a connection string)
# every value is a literal, never a variable.
_PAIR_BEFORE = LazyRe(r"[A-Za-z][A-Za-z ]{0,30}=[^;=\s]++;[ \t]*+", re.ASCII)


def in_pairs(text: str, end: int) -> bool:
    """The value ending at ``end`` is one of a connection string's ``Key=Value;`` pairs."""
    if text[end : end + 1] != ";":
        return False
    line_start = text.rfind("\n", max(0, end - 300), end) + 1
    return _PAIR_BEFORE.search(text[max(line_start, end - 300) : end]) is not None

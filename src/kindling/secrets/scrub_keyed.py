"""The key-value rules of ``secrets.scrub``: a secret named by the key it is assigned to.

``key = value`` in the syntaxes of many languages and formats (``.env`` lines, markup,
``--flag value``, a quoted value a formatter wrapped onto the next line, an ARM template's
``"adminPassword": {"value": x}``), where the key ends in a secret word (keys that name a
secret more loosely are ``secrets.scrub_loose``'s). See ``secrets.scrub`` for what is masked
and what is deliberately left.

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_values``, ``secrets.scrub_keys`` (the words that name
a secret, and ``key_kind``), ``secrets.scrub_signs`` (``keyed_draw``: a drawn password that
a bracket in it would make read as code), ``secrets.scrub_refs`` (what refers to a secret
kept elsewhere), ``secrets.scrub_envline`` (a ``.env`` line's value with blanks, a command's
environment prefix), ``secrets.scrub_compared`` (``"x".equals(password)``),
``secrets.scrub_setters`` (``setPassword("x")``, ``${DB_PASSWORD:-x}``) and
``secrets.scrub_lines`` (a key's line).
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_compared import compared_rule
from kindling.secrets.scrub_envline import (
    ENV_LINE_SRC,
    assignment_line,
    env_line,
    env_literal,
    flag_literal,
    in_pairs,
    yaml_literal,
)
from kindling.secrets.scrub_keys import KEY_WORDS, POLICY_WORDS, STATUS_WORDS, key_end_src, key_kind
from kindling.secrets.scrub_lines import line_head, quoted_before
from kindling.secrets.scrub_refs import (
    YAML_PROPERTIES,
    field_number,
    file_path,
    label,
    label_line,
    named_by_key,
    names_a_secret,
    refers_elsewhere,
    slug,
    spells_its_key,
    yaml_tag,
)
from kindling.secrets.scrub_setters import (
    setter_rule,
    shell_default_rule,
    tuple_rule,
    unpacked_literals,
)
from kindling.secrets.scrub_signs import keyed_draw
from kindling.secrets.scrub_values import (
    VERSION_RANGE,
    LazyPattern,
    LazyRe,
    P,
    compared_value,
    leave_value,
    mask,
    random_enough,
    too_short,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule

_CODE_WORDS = frozenset(("await", "yield", "new", "typeof", "lambda", "not", "async", "function"))
_CODE_NEXT = LazyRe(r"[ \t]*+\(|[ \t]++[A-Za-z]", re.ASCII)  # a call's or a word's

_XML_SRC = (
    r"(?P<open><(?P<tag>[A-Za-z_][\w.:-]{0,64}+)(?:[ \t][^<>\r\n]{0,200}+)?>)"
    r"(?P<value>[^<]{1,1000}+)</(?P=tag)>"
)


# The name an element's attributes give its text: ``<entry key="db.password">``.
_NAME_ATTR = LazyRe(r"""[ \t](?:key|name|id)[ \t]*=[ \t]*["']([^"']{1,100})["']""", re.ASCII)


def _xml(m: re.Match[str]) -> tuple[str, str] | None:
    kind = key_kind(m["tag"], len(m["tag"]), plural=True)
    if kind is None and "=" in m["open"]:
        named = _NAME_ATTR.search(m["open"])
        kind = key_kind(named[1], len(named[1])) if named else None
    value = m["value"].strip()
    if kind is None or not value or leave_value(value):
        return None
    inner = m["value"]
    lead = inner[: len(inner) - len(inner.lstrip())]
    trail = inner[len(inner.rstrip()) :]
    return kind, f"{m['open']}{lead}{mask(kind)}{trail}</{m['tag']}>"


_OPERATOR = r"(?::{1,3}=|\?\??=|\+=|\.=|=>|=(?![=~])|:(?!:)|<-(?![-<]))"
_VALUE = r"""
    (?: \"\"\"(?P<tq>[^"\r\n]{1,400}+)\"\"\"    # a triple-quoted string (Python's, TOML's)
      | \'\'\'(?P<tsq>[^'\r\n]{1,400}+)\'\'\'
      | "(?P<dq>(?:[^"\\\r\n]|\\.)*+)"
      | '(?P<sq>[^'\r\n]*+)'
      | `(?P<bq>[^`\r\n]*+)`
      | (?P<esc>\\{1,7}+)"(?P<eq>[^"\r\n]{0,400}?)(?P=esc)"  # JSON in JSON: \"x\", \\\"x\\\"
      | (?P<bare>(?:(?!\[REDACTED:)[^\s"'`&;,\\]
                  |[&;,](?![A-Za-z_][\w.-]*+(?:[ ][A-Za-z_][\w.-]*+)?=)(?=[^\s"'`]))++)
        # &, ; and , end a value only before the next key: token=x&user=y, Password=x;Server=y,
        # a mount's options (password=x,uid=1000)
    )
"""
_TYPES = r"(?:string|String|str|&str|\[\]byte|SecureString|char\s*\*)"


def _table_row(text: str, at: int) -> bool:
    """The line holding ``at`` starts with a column rule (or is too long to read: masked)."""
    head = line_head(text, at)
    return head is None or head.lstrip(" \t").startswith(("|", "│", "┃"))


def _keyed_src() -> str:
    # Starts at the first character after the key (a closing quote, a blank or the operator)
    # and looks back for the key word: separators are far rarer than letters.
    return rf"""
    (?P<sep>["' \t:=?+.,\\\[\]]{key_end_src(".")}
        (?: (?<=:)[ \t]*+[|>][-+]?[ \t]*+\r?\n[ \t]++       # YAML block: key: |
          | (?P<nest>(?<=["'])[ \t]*+:[ \t]*+\{{[^{{}}]{{0,200}}?  # "password": {{"value": "x"}}
                      ["'](?:value|defaultValue|[Dd]efault)["'][ \t]*+:  # (ARM, CloudFormation)
                    | (?<=:)[ \t]*+\r?\n(?:[ \t]++[\w-]++:[^\r\n]*+\r?\n){{0,4}}?  # password:
                      [ \t]++(?:value|defaultValue|[Dd]efault):)          #   value: x
          | (?<=:)[ \t]*+\r?\n[ \t]++(?![\w.-]++(?:::[\w.-]++)*+:(?:\s|$)|[-#\[{{])  # key:\n  value
                                                        # (not a key: ``Fn::Join:``)
          | (?<=["'])\]?[ \t]*+{_OPERATOR}
          | (?<=\\)\\{{0,6}}+"[ \t]*+:                   # \"key\": \"value\" (JSON-escaped, 1-2x)
          | (?<=,)(?=[^\s,])                              # csv: key,value,
          | (?<=["'])[ \t]*+,[ \t]*+(?=["'`])              # setProperty("KEY", "value")
          | (?<=["'])[ \t]++to[ \t]++(?=["'])                 # Kotlin: "password" to "x"
          | (?<=["'])\)[ \t]*+\{{[ \t]*+(?=["'])              # Ruby: fetch("KEY") {{ "value" }}
          | (?<=,)(?P<call>[ \t]++)(?=["'`])               # setopt(h, OPT_PASSWORD, "value")
          | (?<=[ \t])(?P<edn>)(?=")                         # EDN: {{:db/password "x"}}
          | (?<=[ \t])[ \t]*+{_OPERATOR}
          | (?<=[ \t])[ \t]*+[│┃|][ \t]*+(?=[^\s│┃|])        # a table's row: | key | value |
          | (?<=[ \t])[ \t]*+{_TYPES}[ \t]++=(?![=~])      # Go: var token string = "x"
          | (?<=:)[ \t]*+{_TYPES}[ \t]*+=(?![=~>])         # TS: const token: string = "x"
          | (?<=:)(?::=|=|(?!:))
          | (?<==)(?:>|(?![=~]))
          | (?<=[?+.])=
          | (?<=\.)\.{{2,}}+[ \t]*+(?=\S)                  # a dot leader: password.......x
          | (?<=\[)\][ \t]*+=(?![=~])                        # C: char password[] = "x"
          | (?<=\])[ \t]*+(?:=>|=(?![=~]))                  # Ruby: params[:password] = "x"
          | (?P<cmp>(?<=[ \t"'])\)?[ \t]*+[!=]==?(?=[ \t]*+["'`])  # if password == "x",
                                                         # if get("X-Secret") != "x"
                  | (?<=\.)equals(?:IgnoreCase)?\((?=["'`]))     # password.equals("x")
        )
        # A formatter's wrap: the quoted value alone on the next line (``password =``, then
        # ``"x"``; ``API_KEY = (``, then ``"x"``).
        (?P<wrap>[ \t]*+\(?[ \t]*+\r?\n[ \t]*+(?=["'`]|string\(\d{{1,4}}\)[ \t])
               |[ \t]*+\\\r?\n[ \t]*+)?                       # a .properties line continued
        [ \t]*+(?:@(?=")|N(?=')|r\#{{1,3}}(?=")|string\(\d{{1,4}}\)[ \t]++(?=")
                  |{YAML_PROPERTIES})?                    # C#'s @"x", YAML's !!str x,
                                                        # T-SQL's N'x', Rust's r#"x"#, PHP's
                                                        # var_dump: string(8) "x"
    )
    {_VALUE}
    """


def _flag_src() -> str:
    # ``--db-password hunter2``; ``--password=x`` is already a key-value pair for the rule above.
    key_end = key_end_src(r"[ \t]")
    return rf"""
    -(?<![\w-]-)-[A-Za-z0-9_-]{{1,64}}+
    (?P<sep>[ \t]{key_end}[ \t]*+)(?!-)
    {_VALUE}
    """


# A YAML key alone on its line (``  - password:``), and a value alone on the next one.
_YAML_KEY_LINE = LazyRe(r"""[ \t]*+(?:-[ \t]++)?["']?[\w.-]++["']?""", re.ASCII)
_LONE_VALUE = LazyRe(r"[^\s]++[ \t]*+(?:\r?\n|\Z)", re.ASCII)


def _yaml_next_line(m: re.Match[str]) -> bool:
    """For ``key:`` then the value on the next line: true only when both lines are YAML's,
    not ``if token:`` and the body of a Python block."""
    text, colon = m.string, m.start("sep")
    head = line_head(text, colon)
    if head is None or _YAML_KEY_LINE.fullmatch(head) is None:
        return False
    return _LONE_VALUE.match(text, m.end("sep")) is not None


def _keyed(m: re.Match[str]) -> tuple[str, str] | None:
    text, sep = m.string, m["sep"]
    # The value on a later line: wrapped by a formatter, or an object's ``value`` member.
    later = "wrap" in m.re.groupindex and (m["wrap"] is not None or m["nest"] is not None)
    if "\n" in sep and "|" not in sep and ">" not in sep and not later and not _yaml_next_line(m):
        return None
    call = "call" in m.re.groupindex and m["call"] is not None  # (the --flag rule has none)
    if call and not _constant_argument(text, m.start("sep")):
        return None  # print(password, "is wrong"): a variable, then another argument
    edn = "edn" in m.re.groupindex and m["edn"] is not None
    if edn and _EDN_KEY.search(text[max(0, m.start("sep") - 90) : m.start("sep") + 1]) is None:
        return None  # the password "x": prose; only a Clojure keyword names the next form
    key_end = m.start("sep")
    kind = key_kind(text, key_end) or "secret"
    if text[max(0, m.start("sep") - 14) : m.start("sep")].lower() == "publickeytoken":
        return None  # .NET's PublicKeyToken=b77a5c561934e089: a public key's digest
    if refers_elsewhere(text, m.start("sep")):
        return None  # existingSecret: db-creds, docker --secret id=x, {{resolve:...:password}}
    groups = (m["tq"], m["tsq"], m["dq"], m["sq"], m["bq"], m["eq"])
    quoted = next((q for q in groups if q is not None), None)
    if quoted is not None:
        if not quoted or leave_value(quoted) or too_short(kind, quoted) or quoted in POLICY_WORDS:
            return None  # (update_password: "on_create": Ansible's policy, quoted or not)
        if len(quoted) == 1 or quoted.lower() in _SWITCH_WORDS:
            return None  # MYSQL_RANDOM_ROOT_PASSWORD: "1", ALLOW_EMPTY_PASSWORD: "yes": a switch
        if "," in text[m.end() : m.end() + 2] and unpacked_literals(text, key_end):
            return None  # user, password = "ada", "x": the tuple rule gives each its literal
        label_end = sep == ":" and quoted_before(text, key_end, text[m.end("sep")])
        if _JOINED.fullmatch(quoted) or label_end:  # (print('PW:', pw): a label, then code)
            return None  # "Password=" + Load() + ";": code between two strings, no string
        if kind in ("api_key", "token") and "," not in sep and _PHRASE.fullmatch(quoted):
            return None  # api_key = "not enough entropy": words, no key (a password may be;
            # a header's, ["X-Token", "..."], is whatever the server takes)
        if spells_its_key(text, key_end, quoted, kind == "password" and not quoted.isupper()):
            return None  # --client-secret-value="client-secret": the key's words, a placeholder
            # (a password may be "password": it is still the password; "keyPassword" is none)
        if names_a_secret(quoted) or (kind != "password" and file_path(quoted)):
            return None  # envToken = "GITHUB_TOKEN": a variable's name; "var.api_key", a file
        if kind not in ("password", "secret") and slug(quoted):
            return None  # creation_token = "my-efs-filesystem": a resource's name (a secret
            # may be a passphrase, as a password: SECRET_KEY = "correct-horse-battery-staple")
        if kind == "password" and label(quoted):
            return None  # "new_password": "Nytt passord": a user interface's label
        compared = "cmp" in m.re.groupindex and m["cmp"] is not None
        if compared and (not compared_value(kind, quoted) or quoted.lower() in STATUS_WORDS):
            return None  # (=== 'true' tests a flag)
        if VERSION_RANGE.fullmatch(quoted):
            return None  # "@inquirer/password": "^5.0.12" names a package and its version
        if "," in sep and _NEXT_KEY.match(text, m.end()):
            return None  # {"name": "DB_PASSWORD", "value": "x"}: "value" is the next key
        width = 3 if m["tq"] is not None or m["tsq"] is not None else 1
        quote = f'{m["esc"]}"' if m["eq"] is not None else text[m.end() - width : m.end()]
        return kind, f"{text[m.start() : m.end('sep')]}{quote}{mask(kind)}{quote}"
    bare = m["bare"]
    if bare.isupper() and spells_its_key(text, key_end, bare.rstrip(",;)}")):
        return None  # user=USER;password=PASSWORD: a template's metavariables, in capitals
    if bare.lower() in _STRING_PREFIXES and text[m.end() : m.end() + 1] in ("'", '"'):
        return None  # b":".join(...), f"{x}": a string prefix, the start of an expression
    cut = bare.find("</")  # <item>DB_PASSWORD=x</item>: the closing tag ends the value
    value = (bare[:cut] if cut > 0 else bare).rstrip(",)}")
    tail = bare[len(value) :]
    after = tail or text[m.end() : m.end() + 1]  # (a "," after it: the next argument's)
    if value.endswith(":"):  # a store's scheme, its path after a blank: read to the line's end
        line_end = text.find("\n", m.end())
        if leave_value(text[m.start("bare") : line_end if line_end >= 0 else None].rstrip()):
            return None  # DB_PASSWORD: vault: secret/data/app#password (a reference)
    if sep == ",":  # "token, secret and key" lists words; key,value needs a generated value
        if not random_enough(value) or leave_value(value):
            return None
    elif _leave_bare(value, after, sep, text, m.end()) and not (
        env_literal(text, m.start(), value)
        or yaml_literal(text, m.start(), value)
        or flag_literal(text, m.start(), value)
    ):
        return None  # (a name-like value in a command's environment, flag or YAML is a literal)
    elif too_short(kind, value):
        return None
    elif kind != "password" and file_path(value):
        return None  # private_key: certs/server.key, where the key is kept
    if any(c in sep for c in "│┃|") and (value.isalpha() or not _table_row(text, m.start())):
        return None  # a table's header (the next column's name), or a shell's pipe
    if kind == "password" and value.rstrip(".!),;").lower() in STATUS_WORDS | _PROSE_WORDS:
        return None  # (using password: YES); WARNING! Using --password via the CLI is insecure
    if kind == "password" and label_line(text, m.start("bare")):
        return None  # auth.new_password = New password: a properties file's label
    if value in _CODE_WORDS and _CODE_NEXT.match(text, m.end()) is not None:
        return None  # password = await read(), isValidPassword = function (u, p): code
    # "Unexpected token: operator": a word, never a generated credential; but 16+ letters
    # after "=" are no word (a generated key of lower-case letters, or its placeholder).
    if (
        kind != "password"
        and value.isalpha()
        and value.islower()
        and (len(value) < 16 or ":" in sep or P.next_word.match(text, m.end()) is not None)
        and not (env_literal(text, m.start(), value) or yaml_literal(text, m.start(), value))
    ):
        return None  # (- MINIO_SECRET_KEY=miniosecret: a literal)
    return kind, f"{text[m.start() : m.end('sep')]}{mask(kind)}{tail}"


# Words of a sentence that talks about a password (MySQL's and Docker's messages), no password.
_PROSE_WORDS = frozenset(
    "yes no via is are was with and or to the for from of as in on".split()  # noqa: SIM905
)
# A Clojure or EDN keyword just before the blank (``{:password "x"}``, ``:db/password``,
# ``:api-key``): a map's key, whose value is the next form.
_EDN_KEY = LazyRe(r"(?:^|(?<=[\s{(\[,])):[A-Za-z_][\w.*+!?/-]{0,80}+[ \t]\Z", re.ASCII)
_NEXT_KEY = LazyRe(r"[ \t]*+:(?!:)", re.ASCII)  # (not ``::``, a C++ scope or Ruby's ``::``)
_CONSTANT_ARGUMENT = LazyRe(
    r"[(,][ \t]*+(?:(?:[A-Za-z_]\w*+[.:]{1,2})?[A-Z][A-Z0-9_]*+|:[a-z_]\w*+)"
    r"|\{[ \t]*+:?[a-z_]\w*+",  # an Erlang or Elixir tuple: {password, "x"}, {:password, "x"}
    re.ASCII,
)


def _constant_argument(text: str, comma: int) -> bool:
    """True when the key before ``comma`` is a constant given as an argument (``setopt(h,
    CURLOPT_PASSWORD, ...``, ``env.put(Context.SECURITY_CREDENTIALS, ...``), or an Elixir atom
    or a Ruby symbol (``Keyword.put(opts, :api_key, ...``): it names the setting the next
    argument sets, as a quoted key does."""
    head = text[max(0, comma - 80) : comma]
    at = max(head.rfind("("), head.rfind(","), head.rfind("{"))
    return at >= 0 and _CONSTANT_ARGUMENT.fullmatch(head[at:]) is not None


_JOINED = LazyRe(r"([\"']?)[ \t]*+([+.&]|\|\|)[ \t][^\r\n]*[ \t]\2[ \t]*+\1", re.ASCII)
# Words: three in small letters, or a sentence of four or more in any script (a message:
# ``invalid_token: "Sajnáljuk, nem tudtuk ..."``).
_PHRASE = LazyRe(r"[a-z]++(?:[ ][a-z]++){2,}+|[^\W\d_]++[,.!?]?+(?:[ ][^\W\d_]++[,.!?]?+){3,}+")
_PLACEHOLDER_REST = LazyRe(r"[^<>\r\n]{0,80}+>", re.ASCII)
_CMDLET = LazyRe(r"(?:Read|Get|ConvertTo|ConvertFrom|Import|New)-[A-Z][A-Za-z]{2,40}+", re.ASCII)


def _leave_bare(value: str, tail: str, sep: str, text: str, end: int) -> bool:
    if not any(c.isalnum() for c in value) or leave_value(value) or names_a_secret(value):
        return True  # "password=>=>" holds operators, not a value; "=$db_password" a name
    if yaml_tag(value, sep, text, end) or (value.isdigit() and len(value) < 4):
        return True  # !Ref DBPassword, !vault |; a count
    if value[:1] == "<" and _PLACEHOLDER_REST.match(text, end):
        return True  # PrivateKey = <client private key>: a placeholder a blank cut
    if _CMDLET.fullmatch(value):
        return True  # $SecurePassword = Read-Host -AsSecureString: a PowerShell command
    if field_number(value, text, end) or (value[-1] == "]" and P.code.fullmatch(value[:-1])):
        return True  # string password = 5; [for s in x : secret.arn]
    if value.split("]", 1)[0].lower() in _SWITCH_WORDS:
        return True  # ##vso[task.setvariable variable=x;issecret=false]value
    if P.code.fullmatch(value) and not keyed_draw(value):
        return True  # code, unless a bracket or ``#`` is a drawn password's sign
    if (
        P.identifier.fullmatch(value)
        and (
            tail.startswith((",", ")", "}"))
            or (named_by_key(value) and (value.isupper() or not assignment_line(text, end)))
            or _CONSTANTS.fullmatch(value) is not None  # api_key = WEAVIATE_KEY: a constant
        )
        and not in_pairs(text, end)
    ):
        return True  # a variable: f(password=pw, token=tok), self.password = password
    if _CONSTANTS.fullmatch(value):
        return True  # --auth-key ACCESS_KEY_ID,SECRET_ACCESS_KEY: constants' names, in capitals
    if P.identifier.fullmatch(value) and _OPERATOR_NEXT.match(text, end) is not None:
        return True  # an expression: userpass = username + ":" + password
    if P.identifier.fullmatch(value) and _UNPACKED.fullmatch(
        line_head(text, end - len(value)) or ""
    ):
        return True  # host, port, user, password = creds: code unpacks a variable
    if (
        text[end : end + 1] == ";"
        and _SPACED_ASSIGNMENT.fullmatch(sep) is not None
        and P.identifier.fullmatch(value)
        and not random_enough(value)
        and ";" not in (line_head(text, end) or ";")  # (a line too long to read: pairs)
    ):
        return True  # uri.Password = input; a statement of code assigns a variable (a shell's
        # ``export PASSWORD=x; make`` has no blanks around its ``=``, and ``Server = db;
        # Password = x;`` holds pairs before it)
    colon = sep.strip(" \t\"']").startswith(":") and ":=" not in sep
    if colon and P.identifier.fullmatch(value) and _ASSIGNED_NEXT.match(text, end) is not None:
        return True  # self._secret_value: SecretType = secret_value, a type annotation
    if colon and not sep.endswith((" ", "\t")) and "'" not in sep and '"' not in sep:
        return True  # "image: org/token:latest" is a tag, not a key-value pair
    # "token: the API token to use" is a docstring or prose, not a value.
    return colon and value.isalpha() and P.next_word.match(text, end) is not None


_SWITCH_WORDS = frozenset(("yes", "no", "on", "off", "true", "false", "y", "n"))
_SPACED_ASSIGNMENT = LazyRe(r"[ \t]++=[ \t]++", re.ASCII)
_ASSIGNED_NEXT = LazyRe(r"[ \t]*+=(?!=)", re.ASCII)
_STRING_PREFIXES = frozenset(("b", "f", "r", "u", "rb", "br", "fr", "rf"))
_CAPITALS = r"[A-Z]{2,}+(?:_[A-Z]{2,}+)++"  # a constant's name: WEAVIATE_KEY; a list of them
_CONSTANTS = LazyRe(rf"{_CAPITALS}(?:,{_CAPITALS})*+", re.ASCII)
_UNPACKED = LazyRe(r"[ \t]*+(?:[A-Za-z_][\w.]*+[ \t]*+,[ \t]*+)++[A-Za-z_][\w.]*+[ \t]*+:?=[ \t]*+")
_OPERATOR_NEXT = LazyRe(r"[ \t]++(?:[-+*/%|^?]|&&|or|and|if|else)[ \t]", re.ASCII)


def keyed_rules() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    """The key-value rules, in the order they run (after every rule that knows its value)."""
    a, ai, av = re.ASCII, re.ASCII | re.IGNORECASE, re.ASCII | re.IGNORECASE | re.VERBOSE
    return [
        shell_default_rule(),
        tuple_rule(),
        (("</",), LazyPattern(_XML_SRC, a), _xml),
        (KEY_WORDS, LazyPattern(ENV_LINE_SRC, ai), env_line),
        (KEY_WORDS, LazyPattern(_keyed_src(), av), _keyed),
        (("--",), LazyPattern(_flag_src(), av), _keyed),
        setter_rule(),
        compared_rule(),
    ]

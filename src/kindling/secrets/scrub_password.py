"""A password written as people write one down: ``PW:dipPr10Gg!``, ``password hunter2x``.

The key-value rules leave ``key:value`` with no blank after the colon (``image: org/token:
latest`` is a tag) and a value after a key and a blank (``token for the app``: prose talks
about it). After a password word (``password``, ``passwd``, ``passphrase``, ``pass``,
``pwd``, ``pw``, as a key ends in one: ``db_pass``, ``userPwd``), in notes, chats and logs,
both forms give the password: ``ID:master,PW:dipPr10Gg!``, ``user master password
dipPr18Gg!``, ``my password is 237dg546fs9``. Such a value is masked when it reads as a
password: 6 to 64 characters with a letter and a digit in it, not a name in code
(``x86_64``-like words joined by ``_``), a path, a URL, a version or a reference; a word
alone (``password:changed``, ``password is required``) is left; so is ``pass`` alone before
a blank (the verb). Small letters alone are a password when drawn (an app password,
``xkqm zvbt rplw hfgd``), and a login written as a pair gives one too (``login: ada /
<value>``, ``creds are ada:<value>``).

A passphrase on a config line (YAML, INI, TOML, properties) is the whole rest of the line
after a password key (``passphrase = correct horse battery staple``), unless it reads as a
description or code (``PROSE_WORDS``, brackets, operators, quotes, a title) or a command
follows it (``secrets.scrub_envline``).

A password drawn by a generator with signs in it (``k#9Lm!2pQ@x7$Rz&``) is masked even alone,
as a generated key is: 16 to 64 characters with two signs or more among letters and digits,
drawn at random (no sign doubled, varied as a draw), and not a URL's encoding, a version,
a regular expression, an exponent, a macro or a marker. Near a word that means secret, in any
syntax the near-key rule reads (``password -> <value>``, ``| token | <value> |``), one sign
and one digit in 12 characters are enough.

``phrase_rules`` run before the key-value rules (``secrets.scrub_keyed``), which would mask a
passphrase's first word only; ``password_rules`` after them, which mask every other syntax.
Must not import anything from Kindling except ``secrets.scrub_values``,
``secrets.scrub_context``, ``secrets.scrub_keys``, ``secrets.scrub_envline`` and
``secrets.scrub_refs`` (``DOTTED_CODE``).
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_context import NEAR_HEAD_SRC, VERSION_PATH, about_other
from kindling.secrets.scrub_envline import command_follows
from kindling.secrets.scrub_keys import LOCAL_WORDS, STATUS_WORDS, key_kind
from kindling.secrets.scrub_refs import DOTTED_CODE, label
from kindling.secrets.scrub_values import (
    LazyPattern,
    LazyRe,
    digits_and_letters,
    entropy,
    generated_letters,
    is_name,
    leave_value,
    mask,
    mixed_case,
    sequential,
    short_generated,
    wordy,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule

# The password word (the key, or the end of it: found by looking back from the word, so a
# text costs one scan), then ``:`` with no blank or blanks with ``is``/``was`` at most (also
# after what it is for: ``password for the admin account is``), then the value to a blank.
_WRITTEN_SRC = (
    r"(?i:password|passwd|passphrase|pass|pwd|pw)(?![A-Za-z0-9])"
    r"(?P<sep>:"
    # printed: ``password is: <value>``, MySQL's ``... is generated for root@localhost: <value>``
    r"|[ \t]++(?:is|was)(?:[ \t]++[a-z]{2,12}+(?:[ \t]++(?:for|to)"
    r"(?:[ \t]++[^\s]{1,60}?){1,4})?)?[ \t]*+:[ \t]++"
    r"|[ \t]++(?:(?:(?i:for|of)[ \t]++(?:[^\s]{1,30}+[ \t]++){1,6}?)?(?:is|was)[ \t]++)?"
    # a prompt and what was typed at it: ``Password for 'https://bob@host': <value>``
    r"|[ \t]++(?i:for|of)[ \t]++(?:[^\s]{1,60}+[ \t]++){0,3}?[^\s]{1,60}?:[ \t]++"
    # ... or set with ``=``: ``pw for staging db = <value>``
    r"|[ \t]++(?i:for|of)[ \t]++(?:[^\s=]{1,30}+[ \t]++){1,6}?=[ \t]++)"
    # an app password as Google shows it, four groups of four small letters, or one run
    # (quoted, too: fetchmail's ``with password "<value>" is "ada"``, a README's `<value>`)
    r"(?P<bold>\*\*)?(?P<q>[\"'`])?"  # (markdown's bold around a printed one: ``**<value>**``)
    r"(?P<value>[a-z]{4}(?:[ ][a-z]{4}){3}(?![ ][a-z])|[^\s\"'`<>(){}\[\]]{6,64}+)(?(q)(?P=q))"
    r"(?=[\s,;.)\]}]|$)"
)
_KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_DICEWARE = LazyRe(r"[a-z]{3,}+(?:-[a-z]{3,}+){2,7}", re.ASCII)  # cobalt-violet-kettle-maple


def _key_before(text: str, word_start: int) -> str | None:
    """The key the password word ends: a word, not the end of a path, a host, a URL's user or
    a variable (``$PWD``)."""
    start = word_start
    while start > 0 and word_start - start <= 40 and text[start - 1] in _KEY_CHARS:
        start -= 1
    if start and text[start - 1] in _KEY_CHARS:
        return None  # longer than a key
    while start < word_start and not text[start].isalpha():
        start += 1  # ``-Password:``: the flag's dash is no part of the key
    if start and (text[start - 1] in "/:@$%\\" or text[start - 1].isalnum()):
        return None
    return text[start:word_start]


# The password word as a whole word or a part of the key (``db_pass``, ``userPwd``, ``PW``).
_PART = LazyRe(
    r"(?:^|[_.-]|(?<=[a-z0-9])(?=[A-Z])|(?<![A-Za-z]))"
    r"(?:[Pp]assword|[Pp]asswd|[Pp]assphrase|[Pp]ass|[Pp]wd|[Pp]w|PASSWORD|PASSWD|PASSPHRASE"
    r"|PASS|PWD|PW)\Z",
    re.ASCII,
)


def _written(m: re.Match[str]) -> tuple[str, str] | None:
    prefix = _key_before(m.string, m.start())
    if prefix is None:
        return None
    value = m["value"].removesuffix("**") if m["bold"] else m["value"]
    key, value = prefix + m.string[m.start() : m.start("sep")], value.rstrip(".,;:")
    if key_kind(key, len(key)) != "password" or len(value) < 6 or "[REDACTED:" in value:
        return None
    if _PART.search(key) is None:
        return None  # the word ends another one (``Buypass AS-983163327``, ``bypass``)
    if key.lower() == "pass" and m["sep"] != ":":
        return None  # the verb: ``pass utf8 strings``, ``tests pass on py311``
    # Said to be the password (``the password is X``, or typed at a prompt: ``[sudo] password
    # for bob: <value>``), a name's look is no reason to leave it (``CorrectHorseBattery9``),
    # nor words joined by dashes; a snake_case name or code is (``if password is token2:``).
    sep = m["sep"].rstrip()
    stated = sep.endswith((" is", " was", "\tis", "\twas")) or (sep.endswith(":") and sep != ":")
    stated = stated and len(value) >= 8 and "_" not in value and not m["value"].endswith(":")
    mixed = any(c.isalpha() for c in value) and any(c.isdigit() for c in value)
    said = stated and (_DICEWARE.fullmatch(value) or mixed_case(value))  # (``uIGreJYRK``)
    if not mixed and not _drawn_letters(value) and not said:
        return None  # a word (``password:changed``) or a number; a passphrase said to be one
    if m["q"] and m.string[m.end() : m.end() + 40].lstrip(" \t").startswith("+"):
        return None  # a string joined to others: an expression (``password "x" + suffix``)
    pathlike = not m["q"] and any(c in value for c in "/\\=")  # (quoted: a literal)
    if pathlike or "://" in value or value.startswith(("-", "$", "%", "#")):
        return None  # a path, an expression, a flag, a reference, a comment
    if "::" in value or "->" in value or DOTTED_CODE.fullmatch(value):
        return None  # code: ``pass v8::Object``, ``pass np.float32``
    # (Small letters drawn, not spelled from words, are no name either.)
    named = is_name(value) and not stated and mixed
    if leave_value(value) or named or VERSION_PATH.fullmatch(value):
        return None
    kept = m.string[m.start() : m.start("value")]  # (the key before it is left as it is)
    rest = m.string[m.start("value") + len(value) : m.end()]
    return "password", f"{kept}{mask('password')}{rest}"


# A login written as a pair after a word that names one: ``login: ada / <value>``,
# ``Login: ada@example.com / <value>``, ``creds are ada:<value>``, ``log in with ada / <value>``.
# The slash has blanks around it (``account: org/repo-v2`` is a path); a colon has none.
_PAIR_SRC = (
    r"(?i:\b(?:login|logon|log(?:ging)?[ \t]in|sign-?in|credentials|creds|basic[ \t]auth))"
    # up to eight words before the pair (``creds are in 1password but fine here: ada / x``)
    r"(?:[ \t]++[^\s:/]{1,30}+){0,8}?"
    r"(?:[ \t]*+[:=][ \t]*+|[ \t]*+(?:-|->|is|are|with|as)?[ \t]++)"
    r"(?P<user>[\w.@+-]{1,64}+)(?:[ \t]++/[ \t]++|:)"
    r"(?P<value>[^\s\"'`<>(){}\[\]]{6,64}+)(?=[\s,;.)\]}]|$)(?!\}\})"  # (not {{resolve:..}})
)


# A user and a password written as a pair with no word naming them (``admin / <value>``,
# ``- prod: user ada / <value>``, ``* Jenkins: ci / <value>``): where a list item, a label's
# colon or "user" starts it, and only a value with letters, a digit and a sign, as a typed
# password has (``read / write``, ``TCP / UDP``, ``1 / 2``, ``g2 = mu4 / mu2**2`` are left).
_BARE_PAIR_SRC = (
    r"(?:(?<![^\r\n])[ \t]*+(?:[-*•][ \t]++)?|:[ \t]++|\b(?i:user)[ \t]++)"
    r"(?P<user>[A-Za-z][\w.@+-]{1,63}+)[ \t]++/[ \t]++"
    r"(?=[^\s]{0,63}?[0-9])(?=[^\s]{0,63}?[!@#$%^&*?+])(?=[^\s]{0,63}?[A-Za-z])"
    r"(?P<value>[^\s\"'`<>(){}\[\]/]{6,64}+)(?=[\s,;)\]}]|$)"
)


_PAIR_WORDS = (
    *("login", "logon", "log in", "logging in", "sign-in", "signin", "creds", "credentials"),
    "basic auth",
)


def _login_pair(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"].rstrip(".,;:")
    has_sign = any(c in _SIGNS for c in value)
    mixed = any(c.isalpha() for c in value) and (has_sign or any(c.isdigit() for c in value))
    if len(value) < 6 or not (mixed or _drawn_letters(value)) or "[REDACTED:" in value:
        return None  # a word, a number, a time (``12:00``)
    if any(c in value for c in "/\\=") or value.startswith(("-", "$", "%", "#")):
        return None  # a path, an expression, a flag, a reference
    if leave_value(value) or VERSION_PATH.fullmatch(value) or DOTTED_CODE.fullmatch(value):
        return None
    if "_" in value and value.lower() == value and not has_sign:
        return None  # snake_case: a name
    head = m.string[m.start() : m.start("value")]
    return "password", f"{head}{mask('password')}{m['value'][len(value) :]}"


def _drawn_letters(value: str) -> bool:
    """Small letters drawn, not a word: 12 or more (an app password, ``xkqmzvbtrplwhfgd``,
    or Google's four groups of four), not spelled from words nor typed in sequence."""
    core = value.replace(" ", "")
    if len(core) < 12 or not (core.isalpha() and core.islower()):
        return False
    return not (wordy(core) or sequential(core, keyboard=True))


# A config line (YAML, INI, TOML, a properties file) whose key is a password and whose value,
# unquoted, runs to the end of the line with blanks in it: a passphrase
# (``passphrase = correct horse battery staple``). The whole rest of the line is the value, as
# for a ``.env`` line; a comment after `` #`` is not.
_PHRASE_LINE_SRC = (
    r"(?m)^[ \t]*+(?:-[ \t]++)?(?P<q>[\"']?)(?P<key>[A-Za-z_][\w.-]{0,60}+)(?P=q)"
    r"[ \t]*+[:=][ \t]*+"
    r"(?P<value>[^\s\"'`#;!&*|>\[{$%<-](?:[^\r\n#]|(?<![ \t])\#)*+)(?:\#[^\r\n]*+)?$"
)
# Words a description, a sentence or code holds and a passphrase does not: function words,
# type names, and the secret words themselves (``password: the user's password``).
PROSE_WORDS = frozenset(
    """a an the to of for in on at by from with into about as is are was be been being it its
    this that these those which who whom whose what when where how if else then than and or
    not no nor but so do does did done can could will would shall should may might must
    you your yours we our us they their them he she his her i me my mine use used using set
    enter entered enters given give provide provided required optional default defaults
    none null nil true false yes str string strings int integer bool boolean bytes list dict
    type value values see e.g i.e etc same here there only also new old user users
    password passwords passwd pass passphrase pwd pw secret secrets token tokens key keys
    credential credentials login account""".split()  # noqa: SIM905
)


def _phrase_line(m: re.Match[str]) -> tuple[str, str] | None:
    key, raw = m["key"], m["value"]
    value = raw.rstrip(" \t")  # a ``#`` after a blank starts a comment, one inside is the value's
    if key_kind(key, len(key)) != "password" or _PART.search(key) is None:
        return None
    words = value.split()
    if not 2 <= len(words) <= 8 or not 8 <= len(value) <= 100 or "[REDACTED:" in value:
        return None
    if value.endswith((".", ":", ",", ")")) or any(c in value for c in "()[]{}=,;<>`\"'"):
        return None  # a sentence, a call, an expression, a list
    prose = any(w.lower().strip("'!?") in PROSE_WORDS for w in words) or label(value)
    if prose or leave_value(words[0]) or leave_value(value):
        return None  # a label ("Nytt passord"), a reference (``vault: secret/data/x#pw``)
    if command_follows(value) or (words[0][0].isupper() and all(map(str.isalpha, words))):
        return None  # ``PGPASSWORD=x psql -h db``: a command follows; ``Admin Console``: a title
    start = m.start("value")
    after = m.string[start + len(value) : m.end()]  # blanks, then a comment
    return "password", f"{m.string[m.start() : start]}{mask('password')}{after}"


def phrase_rules() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    """Before the key-value rules, which would mask a passphrase's first word only."""
    return [(("pass", "pwd", "pw"), LazyPattern(_PHRASE_LINE_SRC, re.ASCII), _phrase_line)]


# A token of a password's characters with a sign in it, at a token's start (or after a shell
# default's ``:-``); a sentence's ``.``, ``,`` or ``;`` may end it. Standing alone (blanks or
# quotes around it), it is judged as a draw (``drawn_password``); otherwise only with a word
# that means secret before it (``near``). Not gated: the signs split the runs ``scrub_gate``
# reads, so such a token is no candidate there. Brackets, slashes, ``=``, ``:`` and ``|`` are
# left out: with them a token is code, a path, a URL or an assignment.
_SIGNS = "!#$%&*@^~?"
_SIGNED_SRC = (
    # (the one-character look-behind first: it fails at once inside a word)
    r"(?<![\w!#$%&*@^~?.+])(?:(?<!-)(?!(?<=:)-)|(?<=:-))(?=[\w.+-]*+[!#$%&*@^~?])"
    r"(?P<value>[\w!#$%&*@^~?.+-]{12,64}+)(?=[.,;]?(?:[\s\"'`)\]}<|]|$))"
)
_ALONE_AFTER = LazyRe(r"[.,;]?(?:[\s\"'`]|\Z)", re.ASCII)
_NOT_DRAWN = LazyRe(
    r"([!#$%&*@^~?])\1"  # a sign doubled: ``##`` pastes a macro, ``**`` is a power
    r"|@[\^~]?[0-9]++\.|[0-9]\.[0-9]++\.[0-9]|\.\*"  # a package@^1.2, a version, a regex
    r"|([!#$%&*@^~?])[a-z_][a-z0-9_.]{3,}+\2"  # a name between one sign: ``#name#``, ``*x.y*``
    r"|^_?+\$[sS][0-9]"  # a Swift symbol as its compiler mangles it: ``_$s10Foundation4Date``
    r"|(?:^|[-_./])\$\{?[A-Z][A-Z0-9_]{2,}+\}?(?![^-_./])",  # a variable in a name: -$VERSION.
    re.ASCII,
)
# A URL's encoding, unless other signs draw it: ``%`` and the hex of a byte one escapes (a blank,
# a sign, a tab, a line's end, UTF-8), not a letter's, a digit's or a control's (``%69``, ``%11``).
_ESCAPE = LazyRe(r"%[0-9A-Fa-f]{2}", re.ASCII)
_ESCAPED = frozenset((0x09, 0x0A, 0x0D, *range(0x20, 0x100))) - frozenset(
    (*range(0x30, 0x3A), *range(0x41, 0x5B), *range(0x61, 0x7B))
)
# A mail address, or a user at a host (a host's name is lowercase; a draw's part after ``@``
# seldom is).
_ADDRESS = LazyRe(r"@[A-Za-z0-9-]++\.[A-Za-z]|^[\w.+-]++@[a-z0-9][a-z0-9.-]*+$", re.ASCII)


def drawn_password(value: str, near: bool = False) -> bool:
    """``value`` reads as a password a generator drew with signs in it. Alone: 16 to 64
    characters, two signs and two digits or more, entropy 3.5; or one sign, its letters (of
    both cases) and digits drawn as a key's are. Near a word that means secret (``near``):
    12 characters, one sign and one digit, entropy 2.9, not an address."""
    signs = sum(c in _SIGNS for c in value)
    if len(value) < (12 if near else 16) or not value.isascii() or not signs:
        return False
    if signs == 1 and not near:
        # One sign alone: the rest is drawn as a key generator draws letters and digits.
        core = "".join(c for c in value if c.isalnum())
        if _NOT_DRAWN.search(value) is not None or _ADDRESS.search(value) is not None:
            return False
        if sum(map(str.isupper, core)) < 2 or sum(map(str.islower, core)) < 2:
            return False  # one case: a host's name, punycode (``xn---%-u4oy48b``)
        return short_generated(core) or digits_and_letters(core) or generated_letters(core)
    digits = sum(c.isdigit() for c in value)
    letters = "".join(c for c in value if c.isalpha())
    # Alone, one digit is enough when the letters are drawn: both cases, spelled from no words,
    # not joined by ``_`` (``@__f2py_DOUBLE_STAR@`` is a name between signs).
    drawn = digits == 1 and "_" not in value and mixed_case(letters) and not wordy(letters)
    if (digits < (1 if near else 2) and not drawn) or len(letters) < 4 or _NOT_DRAWN.search(value):
        return False
    if near and _ADDRESS.search(value) is not None:
        return False  # an address: ``token for bot42@example.com``, ``auth user1@server-01``
    if entropy(value) < (2.9 if near else 3.5):
        return False
    escapes = sum(int(e[1:], 16) in _ESCAPED for e in _ESCAPE.findall(value))
    return not escapes or (escapes == 1 and signs - escapes >= (1 if near else 2))


# The secret word before a token (``password -> <value>``, ``| token | <value> |``,
# ``<secret><![CDATA[<value>]]>``, ``password.set("<value>")``), as the near-key rule reads it.
_NEAR_HEAD = LazyRe(NEAR_HEAD_SRC + r"(?P<value>[\w!#$%&*@^~?.+-]{12,64}+)", re.ASCII)
_JOINED = LazyRe(r"[\"'`][ \t]*+\+", re.ASCII)


def _signed(m: re.Match[str]) -> tuple[str, str] | None:
    value, text, start = m["value"].rstrip("."), m.string, m.start()
    tail = m["value"][len(value) :]
    if not drawn_password(value, near=True):
        return None
    alone = (not start or text[start - 1] in " \t\r\n\"'`") and _ALONE_AFTER.match(text, m.end())
    if alone and drawn_password(value):
        return "password", mask("password") + tail
    return ("password", mask("password") + tail) if _near_word(m) else None


def _near_word(m: re.Match[str]) -> bool:
    """A word that means secret stands before the token, in the near-key rule's reach."""
    text, start = m.string, m.start()
    if _JOINED.match(text, m.end()):
        return False  # a literal joined to more: ``password "x" + suffix`` is an expression
    for head in _NEAR_HEAD.finditer(text, max(0, start - 80), m.end()):
        if head.start("value") != start:
            continue
        if any(c in head["between"] for c in "/\\#@"):
            return False  # the word is a path's or a reference's part: ``nodejs-private/x#4``
        return not about_other(head)
    return False


# The word (after a Latin, Greek or Cyrillic letter it ends a longer word; after a Chinese,
# Japanese or Korean one it ends a compound: ``数据库密码``, the database's password), then
# ``:``, ``=``, a full-width colon or "is" in its language (``密码是``, ``パスワードは``,
# ``비밀번호는``, ``Passwort ist``), then a value of ASCII characters: a password typed among
# other script is typed in ASCII.
_COPULA = "是|为|為|は|는|은|이"
# "is" in the languages of ``LOCAL_WORDS`` (``lautet``, ``c'est``, Polish ``to``, Vietnamese
# ``là``, Indonesian ``adalah``, Arabic ``هي``), or a dash between blanks.
_IS = "is|ist|lautet|est|c'est|es|é|è|är|jest|to|là|adalah|هي|[—–-]"
_LOCAL_SRC = (
    # (a Chinese, Japanese or Korean word glued after Latin letters: no blank between scripts)
    r"(?i)(?:(?<![A-Za-z\u00c0-\u024f\u0370-\u04ff])(?:{words})|{cjk})"
    r"(?!(?!{copula})[^\W\d_])"
    # up to six words between (``Passwort für den Testserver ist``, ``пароль от базы:``)
    r"(?P<between>(?:[ \t]++(?!(?:{is_})[ \t])[^\W\d_][^\s:=：]{{0,24}}+){{0,6}}?)"
    r"(?P<sep>[」』\"'`]?[ \t]*+"
    r"(?:[:=：]|(?:{is_})(?=[ \t])|{copula}|(?P<blank>(?<=[ \t])|(?<=[^\x00-\x7f])(?=[ \t])))"
    r"[ \t]*+)"
    # after a blank alone, a password holds a digit or a sign (``пароль от базы x``)
    r"(?(blank)(?=[\x21-\x7e]{{0,63}}?[0-9!@#$%^&*+=?~]))"
    r"(?P<q>[\"'`「『]?)(?P<value>[\x21-\x7e]{{4,64}}+)"
).format(
    words="|".join(re.escape(w).replace("\\ ", "[ _]") for w in LOCAL_WORDS),
    cjk="|".join(w for w in LOCAL_WORDS if w[0] >= "\u3000"),
    copula=_COPULA,
    is_=_IS,
)


def _local(m: re.Match[str]) -> tuple[str, str] | None:
    value = m["value"]
    if m["q"] and value[-1:] in "\"'`":
        value = value[:-1]  # the closing quote
    value = value.rstrip(".,;:?)\"'`")  # a sentence's or a string's end; a password may end in "!"
    if len(value) < 4 or not any(c.isalnum() for c in value) or "[REDACTED:" in value:
        return None
    if value[:1] in "$%<{" or leave_value(value) or value.lower() in STATUS_WORDS:
        return None  # a reference (``$DB_PASS``), a placeholder, a status: ``password: required``
    loose = m["between"] or m["blank"] is not None or any(c in m["sep"] for c in "—–-")
    if loose and (value.isalpha() or not any(c.isalpha() for c in value)):
        return None  # after other words, a word or a number is the sentence's, not a password
    kept, at = m.string[m.start() : m.start("value")], m.start("value") + len(value)
    return "password", f"{kept}{mask('password')}{m.string[at : m.end()]}"


def password_rules() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    """After the key-value rules."""
    return [
        (("pass", "pwd", "pw"), LazyPattern(_WRITTEN_SRC, re.ASCII), _written),
        (LOCAL_WORDS, LazyPattern(_LOCAL_SRC), _local),
        (_PAIR_WORDS, LazyPattern(_PAIR_SRC, re.ASCII), _login_pair),
        ((" / ",), LazyPattern(_BARE_PAIR_SRC, re.ASCII), _login_pair),
        (tuple("0123456789"), LazyPattern(_SIGNED_SRC, re.ASCII), _signed),
    ]

"""Values after a secret's key that refer to a secret kept elsewhere, or that are no value.

``secrets.scrub_keyed``'s key-value rule asks these of a value before it masks it (issue 32,
seventeenth pass, measured on the test files of Checkmarx KICS's rule for passwords and
secrets: infrastructure's code, where a password is most often a reference):

- a variable named for a secret (``named_by_key``: ``dbPw``, ``ADMIN_PASSWORD``), also
  expanded by a shell in small letters (``"DB_PASSWORD=$db_password"``);
- a quoted path whose last part is such a name (Terraform's ``"var.api_key"``, a setting's
  ``"module.db.password"``): a name, never the secret;
- words in small letters joined by ``-``, as a token's value (``slug``: EFS's
  ``creation_token = "my-efs-filesystem"``): a name;
- a label or a message about the password, as a user interface's strings hold them
  (``label``: ``"new_password": "Nytt passord"``, ``"Passwort vergessen?"``);
- a reference to a secret store (in ``scrub_values``' placeholders: ``op://vault/item/field``,
  ``vault:secret/data/app#password``, ``ref+vault://...``, ``sm://``, ``berglas://``,
  ``@Microsoft.KeyVault(SecretUri=...)``);
- a YAML tag (``yaml_tag``): CloudFormation's functions (``!Ref DBPassword``, ``!GetAtt
  Secret.Password``, ``!Sub '{{resolve:...}}'``) and Ansible's ``!vault |`` (the ciphertext
  follows) are no value; a standard tag names the type of the value after it (``!!str
  84jd...``), which the rule reads past the tag; after a function's tag a name is no value for
  the rules that read a value near a secret's word either (``after_function``);
- a relative path to a file (``file_path``: ``certs/server.key``, JSch's
  ``addIdentity("keys/private_key", "keys/public.key", ...)``): where a key is kept;
- a field's number (``field_number``): a protocol buffer's ``string password = 5;``, and a
  field's or an enum entry's number before its options (``PASSWORD = 3 [deprecated = true];``);
  and one to three digits, a count rather than any password.

``refers_elsewhere`` (27th pass): a key that names a secret kept elsewhere (a Helm chart's
``existingSecret``, a container's ``--secret``), or one inside a template's ``{{ }}``.

``in_reference`` tells the stand-alone token rules that a token is a part of such a reference
(issue 32, nineteenth pass: a short path of base64's look, ``vault: g48b6/a0001#password``).

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_values``, ``secrets.scrub_keys`` and ``secrets.scrub_lines``.
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_keys import LOCAL_WORDS, key_kind
from kindling.secrets.scrub_lines import line_at
from kindling.secrets.scrub_values import LazyRe, P, is_name, leave_value, wordy

# A standard tag is followed by the value it types: the key rule reads past it.
# A YAML node's properties before its value, which the key rules read past: an anchor
# (``&db-password``), a standard tag (``!!str``).
YAML_PROPERTIES = r"(?:&[A-Za-z_][\w.-]{0,63}+[ \t]++)?(?:!!(?:str|binary)[ \t]++)?"
_TAG = LazyRe(r"!!?[A-Za-z][A-Za-z_:]{0,30}+(?:64)?+", re.ASCII)  # !Ref, !vault, !env_var
# A dotted name (``self.token``, ``var.api_key``); ``secrets.scrub_context`` reads it too.
DOTTED_CODE = LazyRe(r"[A-Za-z_]\w*+(?:\.[A-Za-z_]\w*+)++", re.ASCII)
_SLUG = LazyRe(r"[a-z0-9]++(?:-[a-z0-9]++)++", re.ASCII)
_NUMBERED = LazyRe(r"(?<=[A-Za-z])_[0-9]{1,3}+\Z", re.ASCII)
_KEY_WORD_END = LazyRe(
    r"[_.-]?(?i:password|passwd|passphrase|pass|pwd|pw|psk|token|secret|credentials?|key)\Z",
    re.ASCII,
)
_SHELL_NAME = LazyRe(r"\$[a-z_][a-z0-9_]*+", re.ASCII)
# ``[optional|repeated] <type> <name> = <number>``, then options (``[deprecated = true]``) or
# ``;``. Only a protocol buffer gives a string's field a number (``string password = 5;``);
# in C ``int pin = 1234;`` is a value.
_FIELD = LazyRe(
    r"[ \t]*+(?:(?:optional|required|repeated)[ \t]++)?(?:(?P<type>[A-Za-z_][\w.]*+)[ \t]++)?"
    r"[A-Za-z_]\w*+[ \t]*+=[ \t]*+\d{1,10}+[ \t]*+(?P<after>\[|;)",
    re.ASCII,
)
_STRING_TYPES = frozenset(("string", "bytes"))


def named_by_key(value: str) -> bool:
    """A variable named for a secret (``dbPw``, ``ADMIN_PASSWORD``, ``smtp_user_password``):
    a key word ends it and it reads as a name, short, or spelled from words with one digit at
    most. A generated value whose last two characters happen to be ``pw`` is no name
    (``vjTGX1ij3UV7GIpW``; of such draws with one digit, 1.6 % still read as names). A
    constant's name may be numbered (``DB_PASSWORD_2``, ``CKV_SECRET_14``; ``Password_1`` is
    a password)."""
    if value.isupper() and (number := _NUMBERED.search(value)) is not None:
        value = value[: number.start()]
    if key_kind(value, len(value)) is None:
        return False
    digits = sum(c.isdigit() for c in value)
    if len(value) < 16:
        # Short, a name (``dbPw``, ``smtpUserPw``, ``s3Key``), unless its digits or the part
        # before the key word are a draw's (``aB3xY7pw``, ``GzzVtLUPkCV2pW``: 26th pass).
        prefix = _KEY_WORD_END.sub(lambda _: "", value)
        return digits <= 1 and (len(prefix) <= 10 or is_name(prefix) or wordy(prefix))
    # digits scattered through it are a draw's, not a name's (oauth2AccessToken has one)
    return digits <= 1 and (is_name(value) or wordy(value.replace("_", "")))


def names_a_secret(value: str) -> bool:
    """``$db_password``, ``"var.api_key"``, ``"GITHUB_TOKEN"``: a reference to a secret, by
    its name (a constant's in capitals; an environment variable's)."""
    if "_" in value and value.isupper() and named_by_key(value):
        return True
    if _SHELL_NAME.fullmatch(value) is not None:
        return named_by_key(value[1:])
    dotted = DOTTED_CODE.fullmatch(value) is not None and sum(map(str.isdigit, value)) <= 1
    return dotted and named_by_key(value.rsplit(".", 1)[1])  # (not ``sCxX1gAO.xW2kEpw``)


def label(value: str) -> bool:
    """Words with a blank, written as a label or a sentence (a capital first, or ``?``, ``:``,
    ``.`` or ``!`` last), one of them the password word in a language keys and texts are
    written in (``"New password"``, ``"Gjenta passord"``, ``"Nouveau mot de passe"``,
    ``"Passordet må ha minst 6 tegn."``): a user interface's label or message about the
    password. A passphrase is drawn from words (``aaaa jelszo``, in small letters, is one)."""
    value = value.strip()
    if not any(c.isspace() for c in value) or not (value[0].isupper() or value[-1] in "?:.!"):
        return False
    lowered = value.lower()
    return "password" in lowered or any(word in lowered for word in LOCAL_WORDS)


def label_line(text: str, start: int) -> bool:
    """The rest of the line from ``start`` is a label's words alone, unquoted (a properties
    file's ``auth.new_password = New password``), not a command (``-jar app.jar``)."""
    rest = text[start : start + 120].partition("\n")[0].rstrip()
    return rest.replace(" ", "").rstrip("?:.!").isalpha() and label(rest)


def slug(value: str) -> bool:
    """Words in small letters joined by ``-`` (``my-efs-filesystem``, ``my-product``):
    a resource's name or an idempotency token's, never a generated token (a password may be
    such a passphrase)."""
    return _SLUG.fullmatch(value) is not None and wordy(value.replace("-", ""))


# A relative path to a file: names joined by ``/``, the last with a file's extension.
_FILE_PATH = LazyRe(
    r"(?:\.{1,2}/)?(?:[\w-]++/)++[\w-]++(?:\.[\w-]++)*?\.[a-z][a-z0-9]{0,4}", re.ASCII
)


def file_path(value: str) -> bool:
    """``value`` is a relative path to a file (``certs/server.key``, ``some/public.key``):
    where a key is kept, not the key. Its parts are names (``is_name``, or a word in one case); a
    draw joined by ``/`` has none, and base64 holds no ``.``."""
    if _FILE_PATH.fullmatch(value) is None:
        return False
    parts = value.rsplit(".", 1)[0].replace(".", "/").split("/")  # (the extension matched)
    return all(not p or is_name(p) or _word(p) for p in parts)


def _word(part: str) -> bool:
    return part.isalpha() and (part.islower() or part.isupper() or part.istitle())


def yaml_tag(value: str, sep: str, text: str, end: int) -> bool:
    """``value``, after YAML's ``key:``, is a tag followed by a blank: a function's name
    (``!Ref``), Ansible's ``!vault``, or a type; never the value itself (alone on its line,
    ``!x9Qv...`` may be; after ``=``, ``PASSWORD=!Secret # a comment`` is)."""
    if "=" in sep or ":" not in sep or text[end : end + 1] not in (" ", "\t"):
        return False
    return _TAG.fullmatch(value) is not None


# CloudFormation's functions that take a name (``ClientSecret: !Ref Name``; ``!Sub`` and
# ``!Base64`` take text, which may hold the secret itself), Home Assistant's and ESPHome's
# ``!secret name`` and ``!env_var NAME`` (issue 32, 25th pass).
_FUNCTION_BEFORE = LazyRe(
    r"!(?:Ref|GetAtt|ImportValue|Condition|GetAZs|secret|env_var)[ \t]++\Z", re.ASCII
)


# Travis CI's and AppVeyor's encrypted value: ``secure: <base64>``, ciphertext for the CI's key.
# Ciphertext only its tool decrypts: a CI's ``secure: <base64>``, jasypt's ``ENC(<base64>)``.
_CIPHERTEXT_BEFORE = LazyRe(r"(?:(?<![\w-])secure:[ \t]*+[\"']?|(?<![\w-])ENC\()\Z", re.ASCII)


def after_function(text: str, start: int) -> bool:
    """The token at ``start`` follows a YAML function that takes a name (``!Ref DBApiKey1``,
    ``!GetAtt Secret.Arn``): it names the parameter or resource that holds the secret; or a
    CI's ``secure:`` (27th pass): it is ciphertext only the CI can decrypt. Asked by every
    rule that reads a token near a secret's word or alone (the near-key rules, the
    random-token and self-named rules, the rules loaded as data); or jasypt's ``ENC(`` (28th
    pass), ciphertext too."""
    before = text[max(0, start - 24) : start]
    if "!" in before and _FUNCTION_BEFORE.search(before) is not None:
        return True
    ciphertext = "secure:" in before or "ENC(" in before
    return ciphertext and _CIPHERTEXT_BEFORE.search(before) is not None


def field_number(value: str, text: str, end: int) -> bool:
    """``value`` (digits) is a field's or an enum entry's number in a declaration's line."""
    if not value.split("[", 1)[0].split(";", 1)[0].isdigit():  # (``= 5[json_name = "x"]``,
        return False  # ``= 39;string next = 40;``: the value ran on)
    line = line_at(text, end)
    m = None if line is None else _FIELD.match(line)
    if m is None:
        return False
    kind = m["type"] or ""
    return m["after"] == "[" or kind in _STRING_TYPES or kind.startswith("google.protobuf.")


# A store's scheme just before a token, with or without a blank (``vault: secret/app#pw``).
_SCHEME_BEFORE = LazyRe(r"[A-Za-z][\w+.-]{0,15}+:[ \t]?+\Z", re.ASCII)


def in_reference(text: str, start: int, end: int) -> bool:
    """The token ``text[start:end]`` is a part of a reference to a secret store that begins
    just before it (``DB_PASSWORD: vault: g48b6/a0001#password``): what the stand-alone token
    rules must leave, as the key rules leave the whole reference (issue 32, nineteenth pass)."""
    near = max(0, start - 20)
    head = _SCHEME_BEFORE.search(text[near:start])
    if head is None:
        return False
    stop = end
    while stop < len(text) and not text[stop].isspace():
        stop += 1
    return leave_value(text[near + head.start() : stop])


# A key that names a secret kept elsewhere: a Helm chart's ``existingSecret``,
# ``auth.existingErlangSecret``, ``existingSecretPasswordKey`` (a Kubernetes Secret's name or
# key); Docker's and Podman's ``--secret`` (``--secret="db_pw"``, ``--secret id=npm,src=x``);
# Pulumi's, a switch before the config key's name (``config set --secret db:password X``).
_EXISTING_KEY = LazyRe(r"(?<![A-Za-z0-9])(?i:existing)[A-Za-z0-9_-]*+\Z", re.ASCII)
_CONTAINER_SECRET = LazyRe(
    r"\b(?:docker|podman|nerdctl|buildah|buildctl|pulumi)\b[^\r\n]*?[ \t]--secret\Z", re.ASCII
)


def refers_elsewhere(text: str, key_end: int) -> bool:
    """The key ending at ``key_end`` names a secret kept elsewhere (``existingSecret``, a
    container's ``--secret``), or stands inside a template's ``{{ }}`` (CloudFormation's
    ``{{resolve:secretsmanager:db:SecretString:password}}``): its value is no secret (issue 32,
    27th pass)."""
    head = text[max(0, key_end - 300) : key_end]
    head = head[head.rfind("\n") + 1 :]  # (the key's line, at most 300 characters of it)
    if head.rfind("{{") > head.rfind("}}"):
        return True
    return _EXISTING_KEY.search(head) is not None or _CONTAINER_SECRET.search(head) is not None


# A URL's or a DSN's user and password that name their fields (``user:password@tcp(db)``,
# ``dialect://username:password@host``, ``USER:PASSWORD@HOST``): the format's template.
_USER_WORDS = frozenset(
    ["user", "username", "user_name", "userid", "usr", "uid", "id", "login", "name"]
)
_PASSWORD_WORDS = frozenset(["password", "passwd", "pass", "pwd", "secret"])
_LAST_FIELD = LazyRe(r"[A-Za-z_]++:\Z", re.ASCII)


def template_userinfo(head: str, value: str) -> bool:
    """``head`` ends with a user's field and ``:``, and both it and ``value`` are the words
    of a format's template: ``username:password``."""
    user = _LAST_FIELD.search(head[-20:])
    return (
        user is not None
        and user[0][:-1].lower() in _USER_WORDS
        and value.lower() in _PASSWORD_WORDS
    )


_NOT_WORD = LazyRe(r"[\W_]++", re.ASCII)


def spells_its_key(text: str, key_end: int, value: str, named: bool = False) -> bool:
    """The value is the key's own words, maybe after ``my`` or ``your`` or before ``value``
    (``api_key: "api-key"``, ``client_secret="my-client-secret"``): a placeholder. With
    ``named``, only when it holds more than a password's word (``keyPassword: 'keyPassword'``;
    ``password: "password"`` is a weak password still)."""
    key = P.loose_key.search(text, max(0, key_end - 80), key_end)  # the key just before
    words = _NOT_WORD.sub(lambda _: "", value).lower()
    words = next((words[len(w) :] for w in _OWNER_WORDS if words.startswith(w)), words)
    words = words.removesuffix("value")  # 'token' = 'TokenValue'
    if named and words in _PASSWORD_WORDS:
        return False
    return (
        key is not None and len(words) >= 4 and words in _NOT_WORD.sub(lambda _: "", key[0]).lower()
    )


_OWNER_WORDS = ("my", "your", "the", "some")

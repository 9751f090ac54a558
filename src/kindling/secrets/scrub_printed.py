"""What a command prints that is a secret: ``gcloud secrets versions access``, ``op read``,
``vault kv get -field=password``, ``openssl rand -base64 32``, ``echo $GITHUB_TOKEN``.

A coding agent's command and what it printed are kept together: the command after a prompt
(``$ <command>``), Kindling's status lines (``[completed]``, ``[stdout]``), then the output
(``hooks.mapping``). When the command reads a secret from a store, prints a token, generates
a key, or prints a variable or a file named for a secret, the first line it printed is the
secret, whatever it looks like: a password kept in a vault has no look of its own. So is
the first line printed for a variable, a setting read back or a file named for a secret. That line
is masked when it is one token (no blank in it); an error, a table, a JSON document or an
empty answer is left. Without a prompt before it a line is not read as a command (prose may
name one). Also the string a REPL echoes for an expression that ends in a secret's name
(``>>> settings.DB_PASSWORD`` then ``'x'``).

Loaded with the other rules on the first call of ``scrub_secrets``, with a Kubernetes Secret's
values (``secrets.scrub_k8s``). Must not import anything from Kindling except
``secrets.scrub_values``, ``secrets.scrub_keys`` and ``secrets.scrub_k8s``.
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_k8s import k8s_secret_rules
from kindling.secrets.scrub_keys import STATUS_WORDS, key_kind
from kindling.secrets.scrub_values import LazyPattern, leave_value, mask

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule

# A prompt (a shell's ``$``, ``#`` or ``%``, PowerShell's ``PS C:\>``, a quote's ``>``), then
# ``sudo`` and variables set for the command, then the command.
_LEAD = (
    r"(?m)^[ \t]*+(?:[$#%>]|PS(?:[ \t][^>\r\n]{0,80}+)?>)[ \t]++"
    r"(?:sudo[ \t]++(?:-[A-Za-z]++[ \t]++)*+)?(?:[A-Z_][A-Z0-9_]*+=[^\s]*+[ \t]++)*+"
)
# The rest of the command's line, at most two status lines, then the first line printed:
# one token, nothing else on its line.
_PRINTED = (
    r"[^\r\n]*+\r?\n(?:[ \t]*+\[[^\]\r\n]{1,80}+\][ \t]*+\r?\n){0,2}+"
    r"[ \t]*+(?P<value>[^\s`$#\[{(<][^\s]{3,4095}+)[ \t]*+(?=\r?\n|\Z)"
)
_S = r"[ \t]++"  # blanks between words
_REST = r"\b[^\r\n]*?"  # more of the same line
_FLAGS = r"(?:[ \t]++-{1,2}[\w-]++(?:[= \t]++(?!-)[^\s|]++)?)*?"  # kubectl -n argocd get

# (keywords, the command): each prints a secret and nothing else.
COMMANDS: tuple[tuple[tuple[str, ...], str], ...] = (
    # a secret store's value, a cloud's token
    (
        ("gcloud",),
        rf"gcloud{_S}(?:(?:alpha|beta){_S})?(?:secrets{_S}versions{_S}access"
        rf"|auth{_S}(?:application-default{_S})?print-(?:access|identity)-token)\b",
    ),
    (
        ("aws",),
        rf"aws{_S}(?:ecr(?:-public)?{_S}get-login-password\b|(?:secretsmanager{_S}"
        rf"get-secret-value|ssm{_S}get-parameters?|codeartifact{_S}get-authorization-token)"
        rf"{_REST}--output[ \t=]++text\b)",
    ),
    (
        ("az",),
        rf"az{_S}(?:keyvault{_S}secret{_S}show|account{_S}get-access-token)"
        rf"{_REST}(?:-o|--output)[ \t=]++tsv\b",
    ),
    (("op",), rf"op{_S}(?:read\b|item{_S}get{_REST}--fields?\b)"),
    (
        ("pass",),
        rf"pass(?:{_S}show)?{_S}(?!(?:ls|list|find|search|grep|insert|add|edit|generate|rm"
        r"|remove|delete|mv|rename|cp|copy|git|init|help|version|otp)\b)(?!-)[\w@.+/-]++"
        r"[ \t]*+(?=\r?\n)",
    ),
    (("bw",), rf"bw{_S}get{_S}(?:password|totp|notes?)\b"),
    (("lpass",), rf"lpass{_S}show{_REST}--password\b"),
    (("security",), rf"security{_S}find-(?:generic|internet)-password{_REST}[ \t]-w\b"),
    (("secret-tool",), rf"secret-tool{_S}lookup\b"),
    (
        ("vault",),
        rf"vault{_S}(?:(?:kv{_S}get|read){_REST}-field[= \t]|print{_S}token\b"
        rf"|token{_S}create{_REST}-field[= \t]++token\b)",
    ),
    (
        ("kubectl",),
        rf"kubectl{_FLAGS}{_S}(?:get{_S}secrets?{_REST}(?:\|[ \t]*+base64{_S}(?:-d|--decode|-D)\b"
        rf"|\.data\.[\w.\\-]++[ \t]*+\}}{{1,2}}['\"]?[ \t]*+(?=\r?\n))"  # one value, in base64
        rf"|create{_S}token\b)",
    ),
    (
        ("auth token", "auth:token"),
        rf"(?:gh|glab|fly|flyctl){_S}auth{_S}token\b|heroku{_S}auth:token\b",
    ),
    (("--plain",), rf"(?:doppler|infisical){_S}secrets{_S}get{_REST}--plain\b"),
    (("terraform", "tofu"), rf"(?:terraform|tofu){_S}output{_REST}-raw\b"),
    (("kubeadm",), rf"kubeadm{_S}token{_S}(?:create|generate)\b(?![^\r\n]*?--print-join)"),
    (("keyring", "gopass"), rf"keyring{_S}get\b|gopass{_S}(?:show|cat)\b"),
    # a key just generated
    (("openssl",), rf"openssl{_S}rand{_S}(?:-hex|-base64)\b"),
    (("genkey",), rf"wg{_S}genkey\b(?![^\r\n]*?\|[ \t]*+wg{_S}pubkey)"),
    (
        ("secret", "key:generate"),
        rf"(?:(?:bin/)?rails|rake){_S}secret\b|mix{_S}phx\.gen\.secret\b"
        rf"|php{_S}artisan{_S}key:generate{_REST}--show\b",
    ),
    (
        ("token_", "get_random_secret_key", "urandom", "randombytes", "securerandom"),
        rf"(?:python3?|node|ruby|php){_S}-[ce]{_REST}(?:secrets\.token_\w++|get_random_secret_key"
        r"|os\.urandom|randomBytes|SecureRandom)",
    ),
    (("/dev/urandom",), r"(?:head|openssl|base64|xxd|od)\b[^\r\n]*?/dev/urandom"),
)

# A variable printed (``echo $GITHUB_TOKEN``, ``printenv DB_PASSWORD``, ``echo $env:TOKEN``),
# and a file named for a secret printed whole (``cat ~/.vault-token``, ``cat
# /run/secrets/db_password``, ``cat config/master.key``): the name says what it is.
_VARIABLE = (
    r"(?:echo(?:[ \t]++-n)?|printf[ \t]++['\"]%s(?:\\n)?['\"]|Write-Output)"
    rf"{_S}[\"']?\$(?:env:)?\{{?(?P<var>[A-Za-z_][A-Za-z0-9_]*+)\}}?[\"']?[ \t]*+(?=\r?\n)"
    rf"|printenv{_S}(?P<env>[A-Za-z_][A-Za-z0-9_]*+)[ \t]*+(?=\r?\n)"
)
# A setting read back by name (``aws configure get aws_secret_access_key``, ``heroku
# config:get SECRET_KEY_BASE``, ``git config --get github.token``): printed when the name names
# a secret.
_GETTER = (
    rf"(?:aws{_S}configure{_S}get|heroku{_S}config:get|netlify{_S}env:get|(?:npm|yarn|pnpm)"
    rf"{_S}config{_S}get|git{_S}config(?:{_S}--(?:global|local|system))?(?:{_S}--get)?"
    rf"|railway{_S}variables{_S}get|dotenv{_S}get){_S}(?:-[\w-]++(?:=[^\s]*+)?{_S})*+"
    r"(?P<setting>[\w.:/@-]{1,200}+)[ \t]*+(?=\r?\n)"
)
_FILE = (
    rf"(?:cat|type|Get-Content){_S}[\"']?(?P<file>[^\s\"'|;&<>]{{1,300}}+)[\"']?[ \t]*+(?=\r?\n)"
)
_SETTINGS_LINE = re.compile(r"=[^=]|:[ \t]", re.ASCII)  # ``HOST=db``, ``host: db``
_SECRET_FILE = re.compile(
    r"(?:^|/)run/secrets/|(?:^|[/\\])(?:master\.key|\.vault-token|[^/\\]*?"
    r"(?:password|passwd|(?<![a-z])pass(?![a-z])|\.pgpass|token|secret|api[_-]?key)[^/\\]*+)$",
    re.ASCII | re.IGNORECASE,
)


def _value(value: str) -> bool:
    """One token printed that may be a secret: not a mask, a status or an empty value."""
    lowered = value.lower()
    if "[REDACTED:" in value or lowered in STATUS_WORDS or leave_value(value):
        return False
    if ".vault.azure.net/secrets/" in lowered or lowered.startswith("arn:aws:secretsmanager:"):
        return False  # a secret's id in its vault (``--query id``, ``describe-secret``)
    return lowered not in ("null", "none", "undefined", "true", "false", "nil")


def _printed(m: re.Match[str]) -> tuple[str, str] | None:
    if not _value(m["value"]):
        return None
    return "secret", m[0][: m.start("value") - m.start()] + mask("secret")


def _named(m: re.Match[str]) -> tuple[str, str] | None:
    """A command of ``COMMANDS``, or a variable, a setting or a file printed when its name
    names a secret."""
    name = m["var"] or m["env"] or m["setting"]
    if name is not None and key_kind(name, len(name)) is None:
        return None
    value, file = m["value"], m["file"]
    if file is not None and _SECRET_FILE.search(file) is None:
        return None
    if file is not None and _SETTINGS_LINE.search(value):
        return None  # a line of settings (``cat secrets.env`` prints ``HOST=db`` first)
    return _printed(m)


_NAMED_WORDS = (
    *("echo", "printf", "write-output", "printenv", "cat ", "type ", "get-content"),
    *("configure get", "config:get", "env:get", "config get", "git config", "variables get"),
    "dotenv get",
)


# A REPL asked for a value named for a secret, and the string it echoed on the next line
# (issue 32, tenth pass): Python's ``>>> settings.DB_PASSWORD`` then ``'x'``, IPython's
# ``In [3]: os.environ["API_TOKEN"]`` then ``Out[3]: 'x'``, irb's ``=> "x"``, node's
# ``> process.env.API_TOKEN``, pdb's ``(Pdb) p password``.
_REPL_SRC = (
    r"(?m)^[ \t]*+(?:>>>|In[ \t]*+\[[0-9]++\]:|irb\([^)\r\n]{0,40}+\)[:0-9]*+[>*]|>"
    r"|\(Pdb\)(?:[ \t]++pp?+)?)[ \t]++(?P<expr>[^\r\n]{1,200}+)\r?\n"
    r"[ \t]*+(?:Out[ \t]*+\[[0-9]++\]:[ \t]*+|=>[ \t]*+)?"
    r"(?P<q>['\"])(?P<value>[^'\"\r\n]{1,4096}+)(?P=q)[ \t]*+(?=\r?\n|\Z)"
)
# The name the expression ends in: ``settings.DB_PASSWORD``, ``os.environ["API_TOKEN"]``,
# ``os.getenv('X_TOKEN')``, ``print(token)``.
_LAST_NAME = re.compile(r"([A-Za-z_][\w-]*+)[\"'\])]*+[ \t]*+\Z", re.ASCII)


def _echoed(m: re.Match[str]) -> tuple[str, str] | None:
    name = _LAST_NAME.search(m["expr"])
    if name is None or key_kind(name[1], len(name[1])) is None or not _value(m["value"]):
        return None
    head = m.string[m.start() : m.start("value")]
    return "secret", f"{head}{mask('secret')}{m['q']}"


def printed_rules() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    """A command of ``COMMANDS``, a variable or a file, then what it printed (one scan of a
    text for them all); and what a REPL echoed for a name."""
    commands = "|".join(command for _, command in COMMANDS)
    words = tuple(dict.fromkeys(w for ws, _ in COMMANDS for w in ws)) + _NAMED_WORDS
    source = f"{_LEAD}(?:{commands}|{_VARIABLE}|{_GETTER}|{_FILE}){_PRINTED}"
    repl = (">>>", "in [", "irb(", "(pdb)", "process.env")
    return [
        (words, LazyPattern(source, re.ASCII), _named),
        (repl, LazyPattern(_REPL_SRC, re.ASCII), _echoed),
        *k8s_secret_rules(),  # (``kubectl get secret -o yaml`` prints one)
    ]

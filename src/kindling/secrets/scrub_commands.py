"""The place rules of ``secrets.scrub``: files and commands that keep a secret in a known place.

One table, ``PLACES``: a flag (``sshpass -p X``), a positional argument (``net use
\\\\fs\\share X``, ``cargo login X``), the password of a pair (``curl -u user:X``,
``smbclient -U user%X``, ``sqlplus user/X@db``), a value piped into a command that reads a
secret (``echo X | sudo -S``), a line of a credential file (``.netrc``, ``.pgpass``).
A *certain* place holds nothing but a secret, so any value there is masked; in the others a
value that reads as code (``$cred.Password``, a path) is left. A variable (``$PASS``),
``true``/``false`` and an empty value are always left. Each pattern starts at the program's
name and looks at most 300 characters ahead on its line, so a line full of names stays
linear; it runs only when one of its keywords is in the lowercased text.

Credential files' and code's places (first: they take lines whole) are in ``scrub_files``.

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_values``, ``scrub_context``, ``scrub_refs`` and the
modules whose places join the table: ``scrub_files``, ``scrub_fed`` (values fed to a command),
``scrub_wallets``, ``scrub_headers``, ``scrub_stores``, ``scrub_devices``, ``scrub_mail``,
``scrub_cracked``, ``scrub_daemons``.
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_context import credential_like
from kindling.secrets.scrub_cracked import CRACKED_PLACES
from kindling.secrets.scrub_daemons import DAEMON_PLACES
from kindling.secrets.scrub_devices import DEVICE_PLACES
from kindling.secrets.scrub_fed import FED_PLACES
from kindling.secrets.scrub_files import ARG, CONTINUED, FILE_PLACES, ON, Place
from kindling.secrets.scrub_headers import HEADER_PLACES
from kindling.secrets.scrub_mail import MAIL_PLACES
from kindling.secrets.scrub_refs import template_userinfo
from kindling.secrets.scrub_stores import STORE_PLACES
from kindling.secrets.scrub_values import LazyPattern, P, leave_value, mask
from kindling.secrets.scrub_wallets import WALLET_PLACES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule


# The password of a ``user:password``-style pair: up to a blank or a quote.
_PAIR_REST = r"""(?:'[^'\r\n]*+'|"[^"\r\n]*+"|[^\s"']++)"""


def _flag(programs: str, flags: str, joined: bool = False) -> str:
    """A flag of ``programs`` followed by its value (``-p X``, ``--password=X``; with
    ``joined``, the value may also follow the flag with no blank: ``-pX``)."""
    gap = r"(?:=|[ \t]*+)" if joined else r"(?:=|[ \t]++)"
    return rf"\b(?:{programs}){ON}(?P<keep>[ \t](?:{flags}){gap})(?P<value>(?!-){ARG})"


COMMAND_PLACES: tuple[Place, ...] = (
    # ---------------------------------------------------------------- positional values
    Place(
        ("configure set",),
        r"(?P<keep>\baws[ \t]++configure[ \t]++set[ \t]++[\w.-]*(?i:secret|token|key|password)"
        rf"[ \t]++)(?P<value>{ARG})",
        certain=True,
    ),
    Place(
        ("vault",),
        r"(?P<keep>\bvault[ \t]++(?:operator[ \t]++)?(?:unseal|login)"
        r"(?:[ \t]++-[\w-]++(?:=\S*+)?)*+[ \t]++)(?P<value>(?!-)[^\s=]++={0,2})(?=\s|$)",
        certain=True,
    ),
    # The plaintext ``ansible-vault encrypt_string`` is given to encrypt (after its flags).
    Place(
        ("encrypt_string",),
        r"(?P<keep>\bansible-vault[ \t]++encrypt_string(?:[ \t]++(?:--(?:vault-password-file"
        r"|vault-id|encrypt-vault-id|name|stdin-name|output)(?:=|[ \t]++)\S++|-[np][ \t]++\S++"
        rf"|--?[\w-]++))*+[ \t]++)(?P<value>(?![-<>|]){ARG})",
        certain=True,
    ),
    # Windows: net user NAME PASSWORD; net use [Z:] \\server\share PASSWORD [/user:...]
    Place(
        ("net user", "net.exe user"),
        rf"(?P<keep>\b(?i:net)(?:\.exe)?[ \t]++(?i:user)[ \t]++(?!/){ARG}[ \t]++)"
        rf"(?P<value>(?![/*]){ARG})",
    ),
    Place(
        ("net use",),
        r"(?P<keep>\b(?i:net)[ \t]++(?i:use)[ \t]++(?:(?:[A-Za-z]:|\*)[ \t]++)?\\\\[^\s`]++"
        r"(?:[ \t]++/(?i:user|u):[^\s`]++)?[ \t]++)"
        rf"(?P<value>(?![/*]){ARG})",
        certain=True,
    ),
    # Wi-Fi: nmcli ... password X (or a psk property), wpa_passphrase SSID X
    Place(
        ("nmcli",),
        rf"\bnmcli{ON}(?P<keep>[ \t](?:password|wifi-sec\.psk|802-11-wireless-security\.psk"
        r"|wifi-sec\.wep-key[0-3]|802-1x\.password|vpn\.secrets\.password)[ \t]++)"
        rf"(?P<value>{ARG})",
        certain=True,
    ),
    Place(
        ("wpa_passphrase",),
        rf"(?P<keep>\bwpa_passphrase[ \t]++{ARG}[ \t]++)(?P<value>{ARG})",
        certain=True,
    ),
    Place(("keymaterial=",), rf"(?P<keep>(?i:keyMaterial)=)(?P<value>{ARG})", certain=True),
    # Package registries: the token or password a login or config command is given.
    Place(
        ("cargo login",),
        r"(?P<keep>\bcargo[ \t]++login(?:[ \t]++--registry(?:=|[ \t]++)[^\s`]++)?[ \t]++)"
        rf"(?P<value>(?!-){ARG})",
        certain=True,
    ),
    Place(
        ("poetry config",),
        r"(?P<keep>\bpoetry[ \t]++config[ \t]++(?:(?:--local|--unset)[ \t]++)?"
        rf"(?:http-basic\.[^\s`]++[ \t]++{ARG}|pypi-token\.[^\s`]++)[ \t]++)"
        rf"(?P<value>(?!-){ARG})",
        certain=True,
    ),
    Place(
        ("composer config",),
        r"(?P<keep>\bcomposer[ \t]++config[ \t]++(?:(?:-g|--global|--auth|-a)[ \t]++)*+"
        r"(?:http-basic\.[^\s`]++[ \t]++" + ARG + r"|(?:bearer|github-oauth|gitlab-token"
        r"|gitlab-oauth|bitbucket-oauth\.[^\s`]++[ \t]++" + ARG + r")\.[^\s`]++)[ \t]++)"
        rf"(?P<value>(?!-){ARG})",
        certain=True,
    ),
    Place(
        ("npm config", "yarn config", "pnpm config"),
        r"(?P<keep>\b(?:npm|pnpm|yarn)[ \t]++config[ \t]++set[ \t]++(?:-H[ \t]++)?\S*?"
        r"(?i:_authToken|_auth|_password|npmAuthToken|npmAuthIdent)(?:=|[ \t]++))"
        rf"(?P<value>{ARG})",
        certain=True,
    ),
    # bundle config [set] [--global] gems.example.com user:secret; BUNDLE_GEMS__EXAMPLE__COM=
    Place(
        ("bundle config",),
        r"(?P<keep>\bbundle[ \t]++config\b(?:[ \t]++(?:set|--global|--local))*+[ \t]++"
        r"(?:https?://)?[\w-]++(?:\.[\w-]++)++/?[ \t]++)"
        rf"(?P<value>{ARG})",
        certain=True,
    ),
    # Secret stores: the value a ``set`` or ``create`` command is given.
    Place(
        ("--secret-string",),
        rf"(?P<keep>[ \t]--secret-string(?:=|[ \t]++))(?P<value>{ARG})",
        certain=True,
    ),
    Place(
        ("put-parameter",),
        r"\bput-parameter\b(?=[^\r\n]{0,600}?SecureString)"
        rf"[^\r\n]{{0,300}}?(?P<keep>[ \t]--value(?:=|[ \t]++))(?P<value>{ARG})",
        certain=True,
    ),
    Place(
        ("keyvault",),
        rf"\bkeyvault[ \t]++secret[ \t]++set{ON}(?P<keep>[ \t]--value(?:=|[ \t]++))"
        rf"(?P<value>{ARG})",
        certain=True,
    ),
    Place(
        ("secret set",),
        rf"\bgh[ \t]++secret[ \t]++set{ON}(?P<keep>[ \t](?:--body|-b)(?:=|[ \t]*+))"
        rf"(?P<value>{ARG})",
        certain=True,
    ),
    Place(
        ("setapikey",),
        rf"(?P<keep>\bnuget(?:\.exe)?+[ \t]++setapikey[ \t]++)(?P<value>(?!-){ARG})",
        certain=True,
    ),
    Place(
        ("doppler",),
        r"(?P<keep>\bdoppler[ \t]++secrets[ \t]++set[ \t]++[A-Za-z_][\w]*+[ \t]++)"
        rf"(?P<value>(?!-){ARG})",
        certain=True,
    ),
    # macOS's keychain: security add-generic-password ... -w X (a bare -w prompts for it)
    Place(
        ("add-generic-password", "add-internet-password"),
        rf"\bsecurity[ \t]++add-(?:generic|internet)-password{ON}(?P<keep>[ \t]-w[ \t]++)"
        rf"(?P<value>(?!-){ARG})",
        certain=True,
    ),
    # MinIO's client: mc alias set NAME URL ACCESS_KEY SECRET_KEY (mc config host add, before)
    Place(
        ("mc alias", "mc config"),
        r"(?P<keep>\bmc[ \t]++(?:alias[ \t]++set|config[ \t]++host[ \t]++add)[ \t]++"
        rf"(?:{ARG}[ \t]++){{3}})(?P<value>(?!-){ARG})",
        certain=True,
    ),
    # rclone config create|update NAME TYPE key value ...: a secret's value after its key
    Place(
        ("rclone",),
        rf"\brclone[ \t]++config[ \t]++(?:create|update){ON}(?P<keep>[ \t][\w-]*?"
        r"(?:pass|password|secret|secret_access_key|token|key)(?:=|[ \t]++))"
        rf"(?P<value>(?!-){ARG})",
        certain=True,
    ),
    # Values fed to a command that reads a secret (a pipe, a here-string, ...).
    *FED_PLACES,
    # ---------------------------------------------------------------- user:password pairs
    # curl/wget -u user:pw, --user user:pw, --user=user:pw; HTTPie's http -a user:pw, --auth
    Place(
        ("curl", "wget", "http"),
        rf"(?:\b(?:curl|wget)\b|(?<![\w/:.-])https?+(?=[ \t])){CONTINUED}[^\r\n]{{0,300}}?[ \t]"
        r"(?:-u|-U|--user|--http-user|--proxy-user|-a|--auth)"
        r"(?:=|[ \t]*+)(?P<keep>[\"']?(?!<)[^\s:\"']++:)"  # (not <user:password>)
        rf"(?P<value>{_PAIR_REST})",
        certain=True,
    ),
    # Samba and the tools built on it: -U [domain/ or domain\]user%password (a shell doubles \)
    Place(
        ("%",),
        r"(?P<keep>[ \t](?:-U|--user(?:name)?)(?:=|[ \t]*+)[\"']?(?:[\w.-]{1,64}+(?:/|\\{1,2}))?"
        r"[\w.$-]{1,64}+%)(?P<value>[^\s\"']++)",
        certain=True,
    ),
    # Oracle: sqlplus user/password[@db], expdp userid=user/password@db, rman target sys/pw;
    # and its JDBC thin URL, jdbc:oracle:thin:user/password@host:port:SID
    Place(
        (
            *("sqlplus", "sqlcl", "expdp", "impdp", "sqlldr", "rman", "dgmgrl", "jdbc:oracle:"),
            *("cx_oracle.connect(", "oracledb.connect("),
        ),
        r"(?P<keep>(?:\b(?:sqlplus|sqlcl|expdp|impdp|sqlldr|rman|dgmgrl)\b"
        r"[^\r\n]{0,200}?(?:[ \t]|(?i:userid)=)[\"']?|(?i:jdbc:oracle:[a-z0-9]{1,16}+:)"
        r"|\b(?:cx_Oracle|oracledb)\.connect\([ \t]*+(?:(?:user|dsn)[ \t]*+=[ \t]*+)?[\"'])"
        r"[A-Za-z_][\w$#]{0,127}+/)"
        # (a password may hold ``/`` when ``@`` ends it: ``scott/a/b+c=@orcl``)
        r"(?P<value>\"[^\"\r\n]*+\"|[^\s@\"']++(?=@)|[^\s@/\"']++)(?=@|[\s\"']|$)",
        certain=True,
    ),
    # Windows tooling that takes [domain/]user:password@host (impacket's scripts).
    Place(
        (
            *("impacket", "secretsdump", "psexec.py", "wmiexec", "smbexec", "atexec"),
            *("dcomexec", "getuserspns", "getnpusers", "gettgt", "getst.py", "mssqlclient"),
            *("lookupsid", "samrdump", "rpcdump", "smbclient.py", "ticketer", "addcomputer"),
        ),
        r"(?P<keep>\b(?:impacket-[\w-]++|(?i:secretsdump|psexec|wmiexec|smbexec|atexec"
        r"|dcomexec|GetUserSPNs|GetNPUsers|getTGT|getST|mssqlclient|lookupsid|samrdump"
        r"|rpcdump|smbclient|ticketer|addcomputer)\.py)\b[^\r\n]{0,200}?[ \t][\"']?"
        r"(?:[\w.-]{1,64}+/)?[\w.$-]{1,64}+:)"
        r"(?P<value>[^\s\"'@]++(?:@[^\s\"'@]++)*?)(?=@[\w.-]++(?:[\s\"']|$))",
        certain=True,
    ),
    # Container tools: --creds user:password (skopeo, buildah, podman)
    Place(
        ("creds",),
        r"(?P<keep>[ \t]--(?:src-|dest-)?creds(?:=|[ \t]++)[\"']?[^\s:\"']++:)"
        rf"(?P<value>{_PAIR_REST})",
        certain=True,
    ),
    # lftp -u user,password
    Place(
        ("lftp",),
        rf"\blftp{ON}(?P<keep>[ \t]-u[ \t]++[\"']?[^\s,\"']++,)(?P<value>{_PAIR_REST})",
        certain=True,
    ),
    # ---------------------------------------------------------------- flags
    # mysql -pPW (no blank: a blank after -p means "prompt for it")
    Place(
        ("mysql", "mariadb"),
        rf"\b(?:mysql|mysqldump|mysqladmin|mysqlsh|mariadb){ON}[ \t](?P<keep>-p)"
        rf"(?P<value>{ARG})",
        certain=True,
    ),
    # -u USER -p PASSWORD, as many CLIs take a login (influx, docker login); not a port
    # (docker run -u 1000 -p 8080:80), sudo's prompt (sudo -u ada -p 'password for %u: ') nor
    # MySQL's database after the -p that asks for the password (mysql -u ada -p app)
    Place(
        ("-u ",),
        r"(?<![^\r\n])(?![^\r\n]{0,300}?\b(?:mysql|mariadb)\w*+[ \t])[^\r\n]{0,300}?"
        r"(?P<keep>[ \t]-[uU][ \t]++[^\s\"'-][^\s\"']*+[ \t]++-[pP][ \t]++)"
        r"(?P<value>(?!-)(?![\d:.]++(?:\s|$))(?![\"'][^\"'\r\n]*?[\s%])"
        r"(?!(?:[A-Z][A-Z_]*+|[a-z]++)(?:[\s,;)]|$))" + ARG + ")",  # nor -p PASSWORD, a word
    ),
    Place(("sshpass",), rf"\bsshpass(?P<keep>[ \t]++-p[ \t]*+)(?P<value>{ARG})", certain=True),
    Place(("login",), rf"\blogin\b{ON}(?P<keep>[ \t]-p[ \t]++)(?P<value>{ARG})", certain=True),
    Place(
        ("redis-cli", "keydb-cli"),
        rf"\b(?:redis|keydb)-cli{ON}(?P<keep>[ \t]-a[ \t]++)(?P<value>{ARG})",
        certain=True,
    ),
    Place(
        ("pass:",),
        r"(?P<keep>[ \t]-(?:pass|passin|passout|password|k)[ \t]++[\"']?pass:)"
        r"(?P<value>[^\s\"']++)",
        certain=True,
    ),
    Place(
        ("htpasswd",),
        r"\bhtpasswd(?P<keep>(?:[ \t]++-[A-Za-z]++)*?[ \t]++-[A-Za-z]*b[A-Za-z]*"
        rf"(?:[ \t]++-[A-Za-z]++)*(?:[ \t]++(?!-){ARG}){{1,2}}?[ \t]++)(?P<value>{ARG})"
        r"(?=[ \t]*+(?:$|[\r\n|;&)]))",
        certain=True,
    ),
    Place(("psexec", "paexec"), _flag(r"(?i:psexec|psexec64|paexec)(?:\.exe)?", "-p")),
    Place(("plink", "pscp", "psftp"), _flag(r"(?:plink|pscp|psftp)(?:\.exe)?", "-pw")),
    Place(("sqlcmd", "bcp", "osql"), _flag("sqlcmd|bcp|osql", "-P", joined=True)),
    Place(("ldap",), _flag(r"ldap\w*+", "-w")),
    Place(("ipmitool",), _flag("ipmitool", "-P"), certain=True),
    *STORE_PLACES,  # Redis's AUTH, requirepass and ACL SETUSER; OpenLDAP's rootpw
    *DEVICE_PLACES,  # a network device's configuration: Cisco IOS, Junos
    *MAIL_PLACES,  # SMTP's AUTH LOGIN exchange, Postfix's password map
    *CRACKED_PLACES,  # what john, hashcat and NetExec print of the passwords they found
    *DAEMON_PLACES,  # pppd's secrets files, a TSIG key given to dig, Caddy's DNS token
    Place(
        ("zip", "7z", "rar "),
        rf"(?P<keep>\b(?:zip|unzip|7z|7za|rar|unrar){ON}[ \t]-(?:P[ \t]++|p))(?P<value>{ARG})",
    ),
    Place(
        ("storepass", "keypass"),
        rf"(?P<keep>[ \t]-(?:src|dest|new)?(?:storepass|keypass)[ \t]++)(?P<value>{ARG})",
        certain=True,
    ),
    Place(
        ("/p:", "/pass:", "/password:"),
        r"(?P<keep>[ \t]/(?i:p|password|pass):)(?P<value>\"[^\"\r\n]*+\"|(?![,;)])[^\s\"]++)",
    ),
    Place(
        ("securestring",),
        rf"(?P<keep>(?i:ConvertTo-SecureString)(?:[ \t]++-(?i:AsPlainText|Force)\b)*+"
        rf"[ \t]++(?:-String[ \t]++)?)(?P<value>(?!-){ARG})",
    ),
    Place(("mongo",), _flag(r"mongo(?:sh|dump|restore|import|export)?", "-p")),
    # Redis's ACLs: ACL SETUSER ada on >PW ~jobs:* +@read, and a users.acl file's line
    # (user ada on >PW ...); ``#<sha256>`` is the password's hash, ``<PW`` removes one.
    Place(
        ("setuser", "on >"),
        r"(?P<keep>(?:\b(?i:acl)[ \t]++(?i:setuser)|(?<![^\r\n])[ \t]*+user)[ \t]++[^\s>]++"
        r"(?:[ \t]++(?!>)[^\s]++)*?[ \t]++>)(?P<value>[^\s]++)",
        certain=True,
    ),
    # Appliances' configuration lines: FortiOS and VyOS ``set psksecret PW``, ``set password
    # PW`` (not FortiOS's ``ENC`` ciphertext), Junos' ``set ... pre-shared-key ascii-text
    # "PW"``; an SNMP community (``snmp-server community PW RO``)
    Place(
        ("set ", "snmp-server community"),
        r"(?P<keep>(?<![^\r\n])[ \t]*+(?:set(?:[ \t]++[\w-]++){0,10}?[ \t]++[\w-]*?"
        r"(?:password|passwd|secret|psk|pre-shared-key|passphrase)(?:[ \t]++ascii-text)?"
        r"|snmp-server[ \t]++community)[ \t]++)(?!ENC\b|[=:])(?P<value>(?!-)" + ARG + ")",
    ),
    # openssl enc's password (-k) and hex key (-K)
    Place(("openssl",), _flag("openssl", "-k|-K")),
    # (one place a flag: a rule masks one flag a command line, and -p -P old -N new has two)
    Place(("ssh-keygen",), _flag("ssh-keygen", "-N", joined=True), certain=True),
    Place(("ssh-keygen",), _flag("ssh-keygen", "-P", joined=True), certain=True),
    Place(("usermod", "useradd"), _flag("usermod|useradd", "-p|--password"), certain=True),
    Place(("twine",), _flag("twine", "-p|--password"), certain=True),
    Place(("nuget",), _flag(r"nuget(?:\.exe)?", "-p|--password")),
    Place(("crowbar",), _flag("crowbar", "-c"), certain=True),
    Place(
        ("evil-winrm", "crackmapexec", "nxc", "netexec", "hydra", "medusa", "kerbrute"),
        _flag(
            r"evil-winrm|crackmapexec|cme|nxc|netexec|hydra|medusa|kerbrute|smbmap|winexe",
            "-p|--password",
        ),
    ),
    Place(
        ("password", "passwd", "token", "secret", "apikey", "api-key", "accesskey"),
        # PowerShell's and other single-dash flags (-Password x, not -pPASSWORD: -p's value), read
        # whole, ended by look-behinds (each keyword tried at every letter cost backtracking).
        r"(?P<keep>-(?<![\w-]-)(?![a-z][A-Z]{4,}+[ \t])[A-Za-z][A-Za-z-]{0,39}+"
        r"(?i:(?<=password)|(?<=passwd)|(?<=token)|(?<=secret)|(?<=apikey)|(?<=api-key)"
        rf"|(?<=accesskey)|(?<=secretkey))[ \t]++)(?P<value>(?!-){ARG})",
    ),
)

PLACES: tuple[Place, ...] = (*FILE_PLACES, *WALLET_PLACES, *HEADER_PLACES, *COMMAND_PLACES)


# A switch's value and "read it from stdin" (a metavariable, ``-p PASSWORD``, is left: 31st pass).
_NOT_VALUE = frozenset(("true", "false", "-", "or", "and", "to", "is", "the", "for", "with", "if"))


def _place(m: re.Match[str], certain: bool, kind: str) -> tuple[str, str] | None:
    value = m["value"]
    inner = value[1:-1] if len(value) > 1 and value[0] in "\"'" and value[-1] == value[0] else value
    head = m.string[m.start() : m.start("value")]
    if not inner or leave_value(inner) or "[REDACTED:" in inner or template_userinfo(head, inner):
        return None  # (user:password@tcp(db): a format's template)
    if (inner[0] == "$" and inner[:3] != "$9$") or inner[0] in "(<{" or inner.lower() in _NOT_VALUE:
        return None  # a variable (not Junos' $9$), an aside, <root token>, {{ x }}, a switch, "-"
    quoted = inner is not value
    if not (certain or quoted) and P.code.fullmatch(inner) and not credential_like(inner):
        return None  # -Password $cred.Password, a path (a quoted value is a string, not code)
    quote = value[0] if quoted else ""
    return kind, f"{head}{quote}{mask(kind)}{quote}"


def place_rules() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    """The rules of ``PLACES``, in table order."""

    def rule(place: Place) -> Rule:
        def masked(m: re.Match[str]) -> tuple[str, str] | None:
            return _place(m, place.certain, place.kind)

        return masked

    return [(p.words, LazyPattern(p.source, re.ASCII), rule(p)) for p in PLACES]

"""The places of ``secrets.scrub_commands`` where a data store's own commands and settings give
its password (issue 32, 25th pass; SQL's and ``mysqladmin``'s in the 27th).

Redis takes its password in its own protocol: ``AUTH <password>``, ``AUTH <user> <password>``
(at a ``redis-cli`` prompt, in a log of the commands a client sent, in a script fed to
``redis-cli``), in ``HELLO 3 AUTH <user> <password>``, in ``MIGRATE ... AUTH <password>`` and
``AUTH2 <user> <password>``, in ``CONFIG SET requirepass <password>`` (and ``masterauth``), and
in ``ACL SETUSER <user> on ><password>``. Its config file and server flags hold it after
``requirepass`` and ``masterauth`` (a Sentinel's after ``sentinel auth-pass <master>``), and
OpenLDAP's after ``rootpw`` and ``bindpw``. SQL sets one in ``IDENTIFIED BY <password>``
(MySQL, Oracle) and ``WITH PASSWORD '<password>'`` (PostgreSQL, SQL Server), and MySQL's admin
tool in ``mysqladmin password <password>``, RabbitMQ's in ``rabbitmqctl add_user <user>
<password>`` (and ``change_password``); RabbitMQ's and CouchDB's nodes share an Erlang
cookie (``RABBITMQ_ERLANG_COOKIE=<cookie>``, ``-setcookie <cookie>``), and an S3-compatible
store (MinIO) an access key id of AWS's shape (``access_key_id = <20 capitals and digits>``).
A connection string's password may be quoted in braces (``Password={a;b}}c}``, 28th pass), and
an application's settings give its JWT signing key as a bare ``Key`` in a section named for JWT
(ASP.NET's ``"Jwt": {"Key": "..."}``, read as ``Configuration["Jwt:Key"]``; YAML's ``jwt:``).
Kafka's JAAS login module lists its users' passwords as options (``user_alice="..."``, 29th
pass).
Each place but ``IDENTIFIED BY`` is *certain*: whatever stands there is the password, however
it reads (``AUTH my-secret-password``), but a variable, a template or a placeholder.

``AUTH`` alone starts a line (in capitals, or in any case after a ``redis-cli`` prompt:
``127.0.0.1:6379> auth pw``) and ends it after one or two arguments, so prose (``Auth
failed``) and an SMTP mechanism's name (``AUTH LOGIN``: a word in capitals) are left; an
SMTP ``AUTH PLAIN <base64>`` is masked, and the base64 is the user and password.

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_files`` (``Place``, ``ARG``).
"""

from __future__ import annotations

from kindling.secrets.scrub_files import ARG, Place

# A password argument: not a flag, not a word in capitals nor an SMTP mechanism's name
# (``AUTH LOGIN``, ``AUTH FAILED``, ``AUTH CRAM-MD5``), whatever follows it on the next line.
_MECHANISM = r"[A-Z]++|CRAM-MD5|DIGEST-MD5|XOAUTH2?+|SCRAM-SHA-[0-9]++(?:-PLUS)?+"
_PASSWORD = rf"(?P<value>(?!-|(?:{_MECHANISM})(?![^ \t\r\n])){ARG})"
# The end of AUTH's arguments: the line's, or a pipe or a list's.
_END = r"(?=[ \t]*+(?:[\r\n|;&]|\Z))"
# A redis-cli prompt (``127.0.0.1:6379>``, ``redis>``, ``localhost:6379[2]>``) and blanks.
_PROMPT = r"(?:[\w.-]{1,253}+:[0-9]{1,5}+(?:\[[0-9]{1,2}\])?>|redis>)[ \t]*+"

# A format's spec after a field's name (``{pw:>8}``, ``{n:,.2f}``): Python's grammar.
_SPEC = r"(?::(?:.?[<>=^])?[-+ ]?z?\#?0?[0-9]*+[,_]?(?:\.[0-9]++)?[bcdeEfFgGnosxX%]?)?"

STORE_PLACES: tuple[Place, ...] = (
    # RabbitMQ: rabbitmqctl add_user NAME PASSWORD, change_password NAME PASSWORD
    Place(
        ("rabbitmqctl",),
        r"(?P<keep>\brabbitmqctl[ \t]++(?:-[\w-]++(?:[ \t]++[^\s-]\S*+)?[ \t]++)*?"
        rf"(?:add_user|change_password)[ \t]++{ARG}[ \t]++)(?P<value>(?!-){ARG})",
        certain=True,
    ),
    # AUTH [user] password, alone on its line (the text's first, or after a line break: a
    # literal first lets the engine skip to each line instead of trying every position).
    *(
        Place(
            ("auth ", "auth\t"),
            rf"{outside}(?P<keep>{inside}[ \t]*+(?:AUTH|{_PROMPT}(?i:auth))[ \t]++"
            rf"(?:(?!LOGIN[ \t]){ARG}[ \t]++)?){_PASSWORD}{_END}",  # (LOGIN's user: scrub_mail)
            certain=True,
        )
        for outside, inside in ((r"\A", ""), ("", r"\n"))  # (\A outside the group: tried once)
    ),
    # ... or as the command redis-cli is given.
    Place(
        ("redis-cli",),
        rf"(?P<keep>redis-cli\b[^\r\n]{{0,200}}?[ \t](?i:auth)[ \t]++(?:{ARG}[ \t]++)?)"
        rf"{_PASSWORD}{_END}",
        certain=True,
    ),
    # HELLO 3 AUTH user password; MIGRATE ... AUTH password, or AUTH2 user password.
    Place(
        ("hello", "migrate"),
        rf"(?P<keep>\b(?:HELLO[ \t]++[23][ \t]++AUTH[ \t]++{ARG}|MIGRATE[ \t][^\r\n]{{0,300}}?"
        rf"[ \t](?:AUTH|AUTH2[ \t]++{ARG}))[ \t]++){_PASSWORD}",
        certain=True,
    ),
    # ACL SETUSER user ... >password (or <password, which it removes; ``#<hex>`` is a digest).
    Place(
        ("setuser",),
        r"(?P<keep>\b(?i:acl[ \t]++setuser)[ \t]++[^\s<>]++(?:[ \t]++[^\s<>]++)*?[ \t]++[<>])"
        r"(?P<value>[^\s\"']++)",
        certain=True,
    ),
    # Redis's config file, its server's flags and CONFIG SET (requirepass PW, masterauth PW; a
    # Sentinel's sentinel auth-pass MASTER PW), OpenLDAP's slapd.conf and ldap.conf (rootpw PW,
    # bindpw PW).
    Place(
        ("requirepass", "masterauth", "rootpw", "bindpw", "auth-pass"),
        r"(?P<keep>(?:^|(?<=\n)|--|(?i:config[ \t]++set)[ \t]++)[ \t]*+(?:requirepass"
        r"|masterauth|rootpw|bindpw|sentinel[ \t]++auth-pass[ \t]++[\w.-]{1,64}+)[ \t]++)"
        rf"(?P<value>(?!-){ARG})",
        certain=True,
    ),
    # SQL: ALTER USER app IDENTIFIED [WITH plugin] BY pw (MySQL, Oracle), where a line or a
    # string starts (mysql -e "CREATE USER ...", execute("GRANT ...")).
    Place(
        ("identified",),
        r"(?P<keep>(?:(?<![^\n])[ \t]*+(?:[\w.-]{0,20}[>#=]{1,2}[ \t]*+)?|(?<=[\"'`]))"
        r"(?i:alter|create|grant)\b[^\r\n;]{0,120}?"
        r"\b(?i:identified)[ \t]++(?:(?i:with)[ \t]++\w++[ \t]++)?(?i:by)[ \t]++"
        r"(?:(?i:password)[ \t]++)?)"
        rf"(?P<value>(?!(?i:password|values?)\b){ARG})"
        # then the statement's end or its next clause: not prose (identified by their email)
        r"(?=[ \t]*+(?:[;\"'`)\\\r\n]|\Z|(?i:default|account|password|quota|temporary|profile"
        r"|require|with|replace|retain|container|failed_login_attempts|comment|attribute)\b))",
    ),
    # SQL: ALTER USER app WITH PASSWORD 'pw', CREATE ROLE app LOGIN ENCRYPTED PASSWORD 'pw'
    # (PostgreSQL), CREATE LOGIN app WITH PASSWORD = 'pw' (SQL Server): a quoted literal.
    Place(
        ("password '", "password = '", "password='"),
        r"(?P<keep>\b(?i:alter|create)\b[^\r\n;]{0,120}?\b(?i:password)[ \t]*+(?:=[ \t]*+)?)"
        r"(?P<value>'[^'\r\n]++')",
        certain=True,
    ),
    # The Erlang cookie RabbitMQ's and CouchDB's nodes share to trust each other:
    # RABBITMQ_ERLANG_COOKIE=x, erlang_cookie: x, erl -setcookie x, --erlang-cookie x.
    Place(
        ("erlang_cookie", "erl_cookie", "erlangcookie", "setcookie", "erlang-cookie"),
        r"(?P<keep>(?:\b[A-Za-z_]*?(?i:erl(?:ang)?[_-]?cookie)[\"']?[ \t]*+[:=][ \t]*+"
        rf"|[ \t]-setcookie[ \t]++|--erlang-cookie[ \t=]++))(?P<value>(?![-\s]){ARG})",
        certain=True,
        kind="secret",
    ),
    # An S3-compatible store's access key id in AWS's shape (MinIO's, an rclone remote's):
    # access_key_id = Q31CVS1PSCJ4OTK2YVEM, "AccessKeyId": "...", as AWS's own AKIA ids are.
    Place(
        ("access_key", "accesskey", "access-key"),
        r"(?P<keep>(?i:access[_-]?key(?:[_-]?id)?)[\"']?[ \t]*+[:=][ \t]*+[\"']?)"
        r"(?P<value>(?=[A-Z0-9]{0,19}[0-9])(?=[A-Z0-9]{0,19}[A-Z])[A-Z0-9]{20})(?![A-Za-z0-9])",
        certain=True,
        kind="aws_access_key_id",
    ),
    # A connection string's value in braces (ODBC's, ADO.NET's, SQL Server's JDBC URL's):
    # Password={a;b}}c} runs to the brace no second one doubles, ``;`` and blanks included. Not
    # a format's field (``{password}``, ``{cfg.pw!r}``, ``{0}``: no digit in a name) nor a
    # template's (``{{pw}}``) nor a shell's variable spliced in (``{;'$Credential;'here'}``).
    Place(
        ("password={", "pwd={"),
        r"(?P<keep>(?<![\w.-])(?i:password|pwd)=\{)"
        rf"(?![A-Za-z_]*+(?:\.[A-Za-z_]++)*+=?(?:![rsa])?{_SPEC}\}}(?!\}})|[0-9]{{0,2}}+\}}"
        r"|[{$%]|[^}\r\n]*?['\"]\$)"
        r"(?P<value>(?:[^}\r\n]|\}\})++)(?=\}(?:[;\"'`\s]|\Z))",
        certain=True,
    ),
    # A JWT section's bare key: "Jwt": {"Issuer": "x", "Key": "<value>"} (appsettings.json), a
    # YAML section's jwt:\n  key: <value>. A few members may stand before it.
    Place(
        ("jwt",),
        r"(?P<keep>\"(?i:jwt)\w{0,20}+\"[ \t]*+:[ \t]*+\{"
        r"(?:\s*+\"\w{1,40}+\"[ \t]*+:[ \t]*+(?:\"[^\"\r\n]{0,200}+\"|[\w.-]{1,40}+)[ \t]*+,){0,8}?"
        r"\s*+\"(?i:key|signing_?key|secret_?key|issuer_?signing_?key)\"[ \t]*+:[ \t]*+\")"
        r"(?P<value>[^\"\r\n]++)(?=\")",
        certain=True,
        kind="secret",
    ),
    Place(
        ("jwt:",),
        r"(?P<keep>(?<![^\n])(?P<indent>[ \t]*+)(?i:jwt)\w{0,20}+:[ \t]*+\r?\n"
        r"(?:(?P=indent)[ \t]++[\w.-]{1,40}+:[^\r\n]*+\r?\n){0,8}?"
        r"(?P=indent)[ \t]++(?i:key|signing[_-]?key|secret[_-]?key):[ \t]++[\"']?)"
        r"(?P<value>[^\s\"']++)",
        certain=True,
        kind="secret",
    ),
    # MySQL's admin tool sets a new password as its command's argument: mysqladmin -u root
    # password 'PW' (a -p before it is mysqladmin's own flag, masked by scrub_commands).
    Place(
        ("mysqladmin",),
        r"(?P<keep>\bmysqladmin\b[^\r\n|;&]{0,200}?[ \t](?i:password)[ \t]++)"
        rf"(?P<value>(?!-){ARG})",
        certain=True,
    ),
    # A JAAS login module's users (Kafka's PlainLoginModule: ``user_alice="<password>"``), an
    # option of a statement: ``name="value"`` pairs apart by blanks or lines, then ``;`` (29th
    # pass; at most 32 options after it, so a long list stays linear), woken only by a text
    # that names a login module. Code's keyword arguments (``user_name="ada", ...``) are apart
    # by commas.
    Place(
        ("loginmodule",),
        r'(?<=[ \t\n\\])(?P<keep>user_[\w.-]{1,64}+=")(?P<value>[^"\r\n]{1,200}+)'
        r'(?="(?:[ \t]*+\\?\r?\n?[ \t]*+[\w.-]{1,64}+="[^"\r\n]{0,200}+"){0,32}+[ \t]*+;)',
        certain=True,
    ),
)

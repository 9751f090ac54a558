"""The places of ``secrets.scrub_commands`` where network daemons and their tools keep a
secret (issue 32, 31st pass): tunnels, name servers, file sync and identity servers.

pppd's ``chap-secrets`` and ``pap-secrets`` (the files of PPTP's and L2TP's servers and
clients) hold one login a line: the client, the server, the secret and the addresses it may
use (``alice  *  "s3cret"  *``). A line of that file ends in its addresses: ``*``, ``-``, an
IPv4 address or range, or ``""``; a line of prose about the file does not.

BIND's tools take a TSIG key on the command line as ``-y [algorithm:]name:secret`` (``dig``,
``nsupdate``, ``delv``, and Knot's ``kdig`` and ``knsupdate``): the part after the name is the
shared secret, in base64.

Caddy's DNS challenge names its provider and then the provider's API token in a ``tls`` block
or as the global ``acme_dns`` option (``dns cloudflare <token>``); ``{env.CF_API_TOKEN}`` and
a block of settings (``dns route53 {``) are left.

rsync's daemon reads its logins from its ``secrets file`` (``rsyncd.secrets``), one
``user:password`` a line, in a text that names that file or sets it (``secrets file = ...``).
OpenVPN's management interface takes a login as ``username "Auth" ada`` and ``password
"Auth" <pw>``. FreeIPA's installers take the admin's
and the directory manager's passwords as ``-a`` and ``-p`` (``--admin-password``,
``--ds-password``).

Each place is *certain*: whatever stands there is the secret, however it reads, but a
variable, a template or a placeholder.

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_files`` (``Place``, ``ARG``, ``ON``).
"""

from __future__ import annotations

from kindling.secrets.scrub_files import ARG, ON, Place

# A field of a pppd secrets file: quoted (blanks inside), or to a blank.
_FIELD = r"""(?:"[^"\r\n]{0,128}+"|[^\s"#]{1,128}+)"""
# The addresses that end a secrets file's line: *, -, "", an IPv4 address or range.
_ADDRESS = r"""(?:\*|-|""|[0-9]{1,3}+(?:\.[0-9]{1,3}+){3}+(?:/[0-9]{1,2}+|-[0-9]{1,3}+)?)"""

DAEMON_PLACES: tuple[Place, ...] = (
    Place(
        ("chap-secrets", "pap-secrets", "client\tserver\tsecret", "client server secret"),
        rf"(?<![^\n])[ \t]*+(?P<keep>(?!#){_FIELD}[ \t]++{_FIELD}[ \t]++)"
        rf"(?P<value>{_FIELD})(?=(?:[ \t]++{_ADDRESS})++[ \t]*+(?:\r?\n|\Z))",
        certain=True,
    ),
    Place(
        ("dig ", "nsupdate", "delv "),  # (not "digest", "digit")
        r"(?P<keep>\b(?:k?dig|k?nsupdate|delv)\b[^\r\n]{0,300}?[ \t]-y[ \t]*+[\"']?"
        r"(?:hmac-[a-z0-9]{1,16}+:)?[\w.-]{1,253}+:)(?P<value>[A-Za-z0-9+/]{8,}+={0,2})",
        certain=True,
        kind="secret",
    ),
    Place(
        ("tls {", "acme_dns"),
        r"(?P<keep>(?<![\w.-])(?:acme_)?dns[ \t]++[a-z][a-z0-9_]{1,30}+[ \t]++)"
        r"(?P<value>[^\s{}]{8,256}+)(?=[ \t]*+(?:[\r\n}]|\Z))",
        certain=True,
        kind="token",
    ),
    Place(
        ("rsyncd.secrets", "rsync.secrets", "secrets file ="),  # (rsyncd.conf's parameter)
        r"(?<![^\n])[ \t]*+(?:>[ \t]*+)?(?P<keep>@?[\w.-]{1,64}+:)"
        r"(?P<value>(?![0-9]++[ \t]*+(?:\r?\n|\Z))(?!//)[^\s:#][^\s]{0,127}+)"
        r"(?=[ \t]*+(?:\r?\n|\Z))",
        certain=True,
    ),
    Place(
        ('password "auth"',),
        r"(?<![^\n])[ \t]*+(?:>[ \t]*+)?(?P<keep>password[ \t]++\"[^\"\r\n]{1,64}+\"[ \t]++)"
        r"(?P<value>\"[^\"\r\n]++\"|[^\s\"]++)",
        certain=True,
    ),
    *(
        Place(
            ("ipa-server-install", "ipa-replica-install"),
            rf"(?P<keep>\bipa-(?:server|replica)-install\b{ON}[ \t](?:{flags})(?:=|[ \t]++))"
            rf"(?P<value>(?!-){ARG})",
            certain=True,
        )
        for flags in ("-a|--admin-password", "-p|--ds-password|--password")
    ),
)

"""The places of ``secrets.scrub_commands`` where a data store's own commands and settings give
its password (issue 32, 25th pass).

Redis takes its password in its own protocol: ``AUTH <password>``, ``AUTH <user> <password>``
(at a ``redis-cli`` prompt, in a log of the commands a client sent, in a script fed to
``redis-cli``), in ``HELLO 3 AUTH <user> <password>``, in ``MIGRATE ... AUTH <password>`` and
``AUTH2 <user> <password>``, in ``CONFIG SET requirepass <password>`` (and ``masterauth``), and
in ``ACL SETUSER <user> on ><password>``. Its config file and server flags hold it after
``requirepass`` and ``masterauth`` (a Sentinel's after ``sentinel auth-pass <master>``), and
OpenLDAP's after ``rootpw`` and ``bindpw``. Each place is *certain*: whatever stands there is
the password, however it reads (``AUTH my-secret-password``), but a variable, a template or a
placeholder.

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
# (``AUTH LOGIN``, ``AUTH FAILED``, ``AUTH CRAM-MD5``).
_MECHANISM = r"[A-Z]++|CRAM-MD5|DIGEST-MD5|XOAUTH2?+|SCRAM-SHA-[0-9]++(?:-PLUS)?+"
_PASSWORD = rf"(?P<value>(?!-|(?:{_MECHANISM})(?:[ \t]|$)){ARG})"
# The end of AUTH's arguments: the line's, or a pipe or a list's.
_END = r"(?=[ \t]*+(?:[\r\n|;&]|\Z))"
# A redis-cli prompt (``127.0.0.1:6379>``, ``redis>``, ``localhost:6379[2]>``) and blanks.
_PROMPT = r"(?:[\w.-]{1,253}+:[0-9]{1,5}+(?:\[[0-9]{1,2}\])?>|redis>)[ \t]*+"

STORE_PLACES: tuple[Place, ...] = (
    # AUTH [user] password, alone on its line (the text's first, or after a line break: a
    # literal first lets the engine skip to each line instead of trying every position).
    *(
        Place(
            ("auth ", "auth\t"),
            rf"{outside}(?P<keep>{inside}[ \t]*+(?:AUTH|{_PROMPT}(?i:auth))[ \t]++"
            rf"(?:{ARG}[ \t]++)?){_PASSWORD}{_END}",
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
)

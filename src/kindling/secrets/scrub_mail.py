"""The places of ``secrets.scrub_commands`` where mail keeps a password (issue 32, 30th pass).

SMTP's ``AUTH LOGIN`` sends the user and then the password, each base64 on a line of its own,
each after the server's ``334`` prompt (``VXNlcm5hbWU6`` is base64 of ``Username:``,
``UGFzc3dvcmQ6`` of ``Password:``). A session pasted from ``telnet``, ``openssl s_client`` or
``swaks`` (whose lines start with ``->`` and ``<-``; a log's with ``C:`` and ``S:``) shows both:
the line after the password prompt, or the second line after ``AUTH LOGIN`` when the server's
lines are left out, is the password, encoded but not hidden. (``AUTH PLAIN``'s one token is
``scrub_logins``' to judge.)

Postfix's client password map (``smtp_sasl_password_maps``, ``/etc/postfix/sasl_passwd``) holds
one relay a line: its host (``[smtp.example.com]:587``) and ``user:password``. A transport
map's line has the same shape (``example.com smtp:[relay.example.com]``): its transport's name
and a next hop are no login. The place runs only on a text that names Postfix.

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_files`` (``Place``).
"""

from __future__ import annotations

from kindling.secrets.scrub_files import Place

# A line's end, and a transcript's mark before the next (``C:``, ``S:``, swaks' ``->``, ``~>``).
_NEXT = r"[ \t]*+\r?\n[ \t]*+(?:[A-Za-z]{1,6}+:[ \t]*+|[<>~*-]{1,4}+[ \t]*+)?"
_BASE64 = r"[A-Za-z0-9+/]{4,256}+={0,2}"
_ALONE = r"(?=[ \t]*+(?![^\r\n]))"  # nothing else on its line
# The transports of Postfix's master.cf, which a transport map's line names before ``:``.
_TRANSPORTS = "smtp|lmtp|relay|local|virtual|error|discard|retry|uucp|pipe|dovecot|amavis"

MAIL_PLACES: tuple[Place, ...] = (
    Place(
        ("auth login", "ugfzc3dvcmq6", "cgfzc3dvcmq6"),
        rf"(?P<keep>(?:\b(?i:AUTH)[ \t]++(?i:LOGIN)(?:[ \t]++|{_NEXT}){_BASE64}{_ALONE}"
        rf"|\b334[ \t]++[Uc]GFzc3dvcmQ6){_NEXT})(?P<value>{_BASE64}){_ALONE}",
        certain=True,
    ),
    Place(
        ("sasl_passw", "smtp_sasl", "postmap", "postfix"),
        r"(?<![^\n])[ \t]*+(?P<keep>(?:\[[\w.-]{1,253}+\]|[\w-]{1,63}+(?:\.[\w-]{1,63}+)++)"
        rf"(?::[0-9]{{1,5}}+)?[ \t]++(?!(?:{_TRANSPORTS}):)[\w.@+-]{{1,128}}+:)"
        rf"(?P<value>(?!\[)[^\s]{{1,256}}+){_ALONE}",
        certain=True,
    ),
)

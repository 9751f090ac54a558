"""The places of ``secrets.scrub_commands`` where a security tool prints a password it found
(issue 32, 30th pass): a penetration test's or a lab's notes paste them as they came.

John the Ripper prints each password it cracks on a line of its own, the password and then
its user in brackets (``hunter2   (sql_svc)``, ``(?)`` when the hash names none), after its
banner (``Press 'q' or Ctrl-C to abort, almost any other key for status``); ``john --show``
and hashcat print the hash, a colon and the password (``$krb5asrep$23$user@DOM:hunter2``,
``<32 hex>:hunter2``), and ``john --show`` ends with ``N password hash(es) cracked``.
NetExec (CrackMapExec) prints each login it tried after its protocol, host, port and name:
``SMB  10.0.0.5  445  DC  [+] corp.local\\ada:hunter2 (Pwn3d!)``, ``[-]`` for a refusal.

Each place is *certain*: whatever stands there is the password, however it reads. A hash
alone on its line, john's status lines (their brackets hold blanks: ``(2024-03-05 22:22)``)
and NetExec's lines that print no login are left; john's line is read only in a text that
holds its banner, and a password with a blank in it is not read there.

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_files`` (``Place``).
"""

from __future__ import annotations

from kindling.secrets.scrub_files import Place

_LINE_END = r"[ \t]*+(?=\r?\n|\Z)"
# A hash as the crackers print it: ``$format$...`` (no blank, no colon in its first part), or
# hex (NT, MD5, SHA), or NetNTLMv2's ``user::domain:challenge:response:blob``.
_HASH = (
    r"(?:\$[\w-]{1,32}+\$[^\s:]{8,1024}+(?::[0-9a-fA-F$]{16,2048}+)?"
    r"|[0-9a-fA-F]{32,128}+"
    r"|[^\s:]{1,64}+::[^\s:]{0,64}+:[0-9a-fA-F]{16}+:[0-9a-fA-F]{32}+:[0-9a-fA-F]{16,4096}+)"
)
_PROTOCOLS = r"(?:SMB|WINRM|LDAPS?|MSSQL|SSH|RDP|FTP|WMI|VNC|NFS)"

CRACKED_PLACES: tuple[Place, ...] = (
    # john: a cracked password and its user in brackets (with the banner in the text).
    Place(
        ("ctrl-c to abort, almost any other key",),  # (john's own banner, not other tools')
        r"(?<![^\n])(?P<keep>[ \t]*+)(?P<value>[^\s(][^\s]{0,127}+)"
        r"(?=[ \t]++\([^\s()]{1,64}+\)" + _LINE_END + ")",
        certain=True,
    ),
    # john --show, hashcat: a hash, a colon, the password.
    Place(
        ("password hash cracked", "password hashes cracked", "hashcat", "john --show"),
        rf"(?<![^\n])[ \t]*+(?P<keep>{_HASH}:)(?P<value>[^\s:][^\r\n:]{{0,127}}+){_LINE_END}",
        certain=True,
    ),
    # NetExec's and CrackMapExec's tried logins.
    Place(
        ("[+]", "[-]"),
        rf"(?P<keep>\b{_PROTOCOLS}[ \t]++\S{{1,64}}+[ \t]++[0-9]{{1,5}}+[ \t]++\S{{1,64}}+"
        r"[ \t]++\[[+-]\][ \t]++(?:[\w.-]{1,64}+\\)?[^\s:\\]{1,64}+:)(?P<value>[^\s]{1,128}+)",
        certain=True,
    ),
)

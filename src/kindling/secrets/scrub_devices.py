"""The places of ``secrets.scrub_commands`` where a network device's configuration keeps a
password (issue 32, 25th pass).

Cisco IOS (and IOS-XE, NX-OS, ASA, which share its syntax) writes a password or a key after
its command's words, in clear (type ``0`` or none) or in type ``7``, which anyone reverses:
``enable secret <pw>``, ``username admin privilege 15 secret 0 <pw>``, a line's ``password
<pw>``, ``tacacs-server key 7 <k>``, ``radius-server host 10.0.0.1 key <k>``, ``crypto isakmp
key <k> address 203.0.113.5``, ``pre-shared-key <k>``, ``ip ospf authentication-key <k>``,
``ip ospf message-digest-key 1 md5 <k>``, ``key-string <k>``, ``neighbor 10.0.0.2 password
<pw>``. Junos keeps its secrets in ``$9$`` form, which it reverses itself (``secret
"$9$..."``, ``authentication-key "$9$..."``). Each place is *certain*: whatever stands there is
the password, however it reads (``cisco``), but a variable, a template or a placeholder. A
hash (types ``5``, ``8`` and ``9``: ``$1$...``, ``$8$...``, ``$9$...`` after ``secret 9``) is
no place's value: its digit is not ``0`` or ``7``. Since the 29th pass also OpenWrt's Wi-Fi
key (``option key 'x'`` in a ``wifi-iface``, ``uci set wireless.radio0.key='x'``).

A command starts its line (indented, or after a prompt: ``Router1(config)#``) and, for the
commands people also write in prose (``enable password``, ``username``, ``password``), its
value ends the line, so ``enable password authentication for users`` is left.

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_files`` (``Place``).
"""

from __future__ import annotations

from kindling.secrets.scrub_files import Place

# A device's prompt in a configuration mode (``Router1(config)#``, ``sw1(config-line)#``), and
# a line's start: the text's, or a line break (a literal first lets the engine skip from line
# to line instead of trying every position), blanks, and the prompt.
_PROMPT = r"[\w.-]{1,64}+\(config[\w-]{0,40}+\)#[ \t]*+"
_BLANKS = rf"[ \t]*+(?:{_PROMPT})?"
_STARTS = ((r"\A", _BLANKS), ("", rf"\n{_BLANKS}"))  # (\A outside the group: tried once)
# The encryption's digit before a value: 0 (clear) or 7 (reversible); not 5, 8 or 9 (a hash).
_TYPE = r"(?:[07][ \t]++)?"
# A value: to a blank; not a word of prose after the command (``password is required``).
_VALUE = (
    r"(?P<value>(?!(?:is|are|was|required|missing|incorrect|invalid|for|and|or|the)\b)"
    r"[^\s\"']++)"
)
_ENDS_LINE = r"(?=[ \t]*+(?:[\r\n]|\Z))"
# enable secret|password [level N] [0|7] <pw>; username <name> [...] password|secret <pw>; a
# line's password [0|7] <pw> after the prompt (an indented one is the key rules').
_LOGIN = (
    r"(?:enable[ \t]++(?:secret|password)(?:[ \t]++level[ \t]++[0-9]{1,2})?"
    r"|username[ \t]++[^\s]{1,64}+(?:[ \t]++(?:privilege[ \t]++[0-9]{1,2}|algorithm-type"
    r"[ \t]++\w{1,16}+))*+[ \t]++(?:secret|password)|(?:(?<=#)|(?<=#[ \t]))password)"
    rf"[ \t]++{_TYPE}"
)
# The keys of AAA servers, IKE, routing protocols' authentication.
_KEYS = (
    r"(?:(?:tacacs|radius)-server\b[^\r\n]{0,200}?[ \t]key|crypto[ \t]++isakmp[ \t]++key"
    r"|pre-shared-key(?:[ \t]++(?:local|remote|address[ \t]++[\w.:/]{1,64}+))?"
    r"|ip[ \t]++ospf[ \t]++(?:authentication-key|message-digest-key[ \t]++[0-9]{1,3}+[ \t]++md5))"
    r"[ \t]++(?:[067][ \t]++)?"
)
# Key chains' keys, BGP peers' passwords.
_PEERS = rf"(?:key-string|neighbor[ \t]++[\w.:-]{{1,64}}+[ \t]++password)[ \t]++{_TYPE}"

DEVICE_PLACES: tuple[Place, ...] = (
    *(
        Place(words, rf"{outside}(?P<keep>{inside}{command}){_VALUE}{ends}", certain=True)
        for words, command, ends in (
            (("enable secret", "enable password", "username", ")#"), _LOGIN, _ENDS_LINE),
            (
                ("-server", "isakmp", "pre-shared-key", "authentication-key", "message-digest-key"),
                _KEYS,
                "",
            ),
            (("key-string", "neighbor"), _PEERS, _ENDS_LINE),
        )
        for outside, inside in _STARTS
    ),
    # OpenWrt's UCI: a Wi-Fi interface's key (its PSK), in /etc/config/wireless
    # (``option key 'x'``) or set with ``uci set wireless.<section>.key='x'`` (29th pass).
    Place(
        ("option key", "uci set wireless."),
        r"(?P<keep>(?:^|(?<=\n))[ \t]*+option[ \t]++key[ \t]++|\buci[ \t]++set[ \t]++wireless"
        r"\.[\w@\[\]-]{1,64}+\.key=)(?P<value>'[^'\r\n]++'|\"[^\"\r\n]++\"|[^\s'\"]++)",
        certain=True,
    ),
    # Junos: a secret in its reversible $9$ form, quoted, after the statement that keeps it.
    Place(
        ("$9$",),
        r"(?P<keep>\b(?:secret|authentication-key|ascii-text|simple-password|key)[ \t]++\")"
        r"(?P<value>\$9\$[^\s\"]{2,400}+)(?=\")",
        certain=True,
    ),
)

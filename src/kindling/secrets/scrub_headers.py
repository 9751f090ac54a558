"""The places of ``secrets.scrub_commands`` where a command line gives an HTTP header that holds
a credential (issue 32, sixteenth pass): ``curl -H 'X-Api-Key: <value>'``, ``--header
"x-hasura-admin-secret: <value>"``, HTTPie's ``X-Api-Key:<value>`` and ``"Authorization:Token
<value>"``.

The header's name and its value are quoted together, so the rules that read a key and its
value see an unquoted value and ask it to look generated; a header's value is what the
server takes as the credential, whatever it looks like (``supersecretvalue``). Each place is
*certain*: any value there is masked, but a variable (``$API_KEY``), a template or a
placeholder. The name must end with what it holds (``Key``, ``Token``, ``Secret``,
``Password``, ``Credential``, ``Authorization``: ``X-Api-Key``, ``Private-Token``,
``X-Vault-Token``, not ``X-Token-Expires``) and name no key of another kind (an idempotency
key, a WebSocket handshake's, a cache's, a public one). A scheme before the value is kept
(``Token``, ``Bearer``).

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_files`` (``Place``).
"""

from __future__ import annotations

from kindling.secrets.scrub_files import Place

# A header's name that ends with what it holds, and names no key of another kind.
_NAME = (
    r"(?![\w-]*?(?i:idempotency|websocket|cache|public|publishable|dedup|site-?key|hotkey))"
    r"(?:[A-Za-z][\w-]{0,60}?)??(?i:key|token|secret|passw(?:or)?d|credentials?|authorization)"
)
# A scheme before the credential (``Token``, ``Bearer``, ``Klaviyo-API-Key``), kept.
_SCHEME = r"(?:[A-Za-z][\w.-]{1,30}+[ \t]++(?=[^\s\"']))?"

HEADER_PLACES: tuple[Place, ...] = (
    # curl, wget, grpcurl and the like: -H 'Name: value', --header="Name: value".
    Place(
        ("-h", "--header"),
        rf"(?P<keep>(?<![\w-])(?:-H|--header)(?:=|[ \t]*+)(?P<q>[\"']){_NAME}"
        rf"[ \t]*+:[ \t]*+{_SCHEME})(?P<value>[^\"'\r\n]++)(?=(?P=q))",
        certain=True,
        kind="secret",
    ),
    # HTTPie (and xh), the command starting its line: Name:value as an argument, quoted or not
    # (a scheme's blank would end the argument unquoted: ``"Authorization:Token x"`` is the
    # Authorization rule's).
    Place(
        ("http", "xh"),
        r"(?m:^)[ \t]*+(?:\$[ \t]++)?(?:https?+|xhs?+)[ \t][^\r\n]{0,300}?[ \t]"
        rf"(?P<keep>[\"']?{_NAME}:)(?P<value>[^\s\"']++)",
        certain=True,
        kind="secret",
    ),
)

"""Rules loaded as data, from five maintained scanners: MongoDB's kingfisher (Apache-2.0),
gitleaks (MIT), Microsoft's security-utilities (MIT), Samsung's CredSweeper (MIT) and
betterleaks (MIT; the rules gitleaks' file lacks, read as gitleaks' are).

``secrets/data/kingfisher_rules.json`` holds kingfisher's own patterns (their "any character",
``(?:.|[\\n\\r])``, written ``[\\s\\S]``: Python's engine backtracks through the first) for
the rules that start with literal text (a vendor name or a token prefix, or a choice of them:
the keywords that wake the rule) and compile with Python's ``re``; ``gitleaks_rules.json``
gitleaks' rules with their own keywords (a rule is ``[id, [keywords], pattern, min_entropy]``),
only the secret's group left capturing; ``microsoft_rules.json`` Microsoft's patterns for its
identifiable keys (Azure storage, Cosmos DB, Entra ID client secrets, ...: a fixed signature
inside the key), their groups rewritten to Python's syntax and woken by the signature;
``credsweeper_rules.json`` CredSweeper's pattern rules that need no ML model, its ``value``
group the one capturing group, its left boundary checked after the secret's literal.
``scripts/build_secret_corpora.py`` builds each from a checkout and names its commit. A match masks
the rule's last capture group (its secret; the whole match when it has none) when that value has
at least the rule's ``min_entropy`` and is no placeholder. They run after Kindling's own rules,
so a value is named by its own kind first, and report the kind ``vendor_secret``.

A match that is one run of base64 of a JSON document (``eyJ``, no dot: CredSweeper's Grafana
rule takes any) is judged by what it encodes, as a stand-alone token is (``encodes_secret``):
a JWT's header alone, a cursor or a payload holding no secret is left (issue 32, fourteenth
pass).

Read on the first call of ``scrub_secrets`` (five JSON files, about 230 KB); each pattern is
compiled only when one of its keywords occurs. Must not import anything from Kindling except
``secrets.scrub_values``, ``secrets.scrub_gate``, ``secrets.scrub_encoded`` and
``secrets.scrub_ids`` (a value that is a public id or a certificate is left) and
``secrets.scrub_refs`` (a name after a YAML function's tag is left).
"""

from __future__ import annotations

import json
import os
import re

from kindling.secrets.scrub_encoded import base64_text, encodes_secret
from kindling.secrets.scrub_gate import gated, has_candidate
from kindling.secrets.scrub_ids import public_id
from kindling.secrets.scrub_refs import after_function
from kindling.secrets.scrub_values import (
    UUID,
    LazyPattern,
    LazyRe,
    entropy,
    leave_value,
    mask,
    wordy,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule

DATA_FILES = tuple(
    os.path.join(os.path.dirname(__file__), "data", name)
    for name in (
        "kingfisher_rules.json",
        "gitleaks_rules.json",
        "microsoft_rules.json",
        "credsweeper_rules.json",
        "betterleaks_rules.json",
    )
)
KIND = "vendor_secret"

# A Kubernetes Secret's entry naming its user (``username: YmFja2VuZA==``), as gitleaks' rule
# for a Secret's ``data`` captures it: a user's name, not the secret (27th pass).
_USER_ENTRY = LazyRe(r"(?i)[\w.-]*?(?<![a-z])user(?:name)?:[ \t]", re.ASCII)
# A UUID given to a key that names an id (``request_id=<uuid>``, ``"userId": "<uuid>"``): an
# id, whatever vendor's name is near (a Heroku key is a UUID near ``heroku``; 29th pass).
_ID_KEY = LazyRe(
    r"(?<![\w.-])(?:[\w.-]{0,60}?(?:[_.-](?i:id)|[a-z0-9]Id)|(?i:id))"
    r"[\"']?[ \t]*+[:=][ \t]*+[\"']?\Z",
    re.ASCII,
)


def _handler(min_entropy: float) -> Rule:
    def rule(m: re.Match[str]) -> tuple[str, str] | None:
        group = next((g for g in range(m.re.groups, 0, -1) if m[g]), 0)
        value = m[group]
        if len(value) < 8 or "[REDACTED:" in value or leave_value(value):
            return None
        if entropy(value) < min_entropy or not has_candidate(value):
            return None
        if value.isalpha() and wordy(value):
            return None  # a name spelled from words (``BSAttributeDescriptionsForClass``)
        if value.isdigit():
            return None  # a number: an id (a Discord channel's), never a key's draw
        if public_id(value.rsplit(None, 1)[-1].strip("\"'")) or _USER_ENTRY.match(value):
            return None  # a Secret's certificate (``tls.crt: LS0tLS1CRUdJTi...``), an id, a user
        document = value.startswith("eyJ") and "." not in value and base64_text(value)
        if document and not encodes_secret(value):
            return None  # base64 of a JSON document that holds no secret
        start, end = m.span(group)
        text = m.string
        if UUID.fullmatch(value) and _ID_KEY.search(text[max(0, start - 70) : start]):
            return None  # request_id=<uuid>: an id
        if after_function(text, start):
            return None  # ClientSecret: !Ref Name names the parameter that holds it
        return KIND, f"{text[m.start() : start]}{mask(KIND)}{text[end : m.end()]}"

    return gated(rule)


def data_rules() -> list[tuple[tuple[str, ...], LazyPattern, Rule]]:
    """The rules of the data files, in file order; none of a file that is missing or damaged
    (an install without it scrubs with the other rules only)."""
    out: list[tuple[tuple[str, ...], LazyPattern, Rule]] = []
    # One handler per entropy floor, shared by the rules that have it (13 for 1,188 rules:
    # every hook builds this list).
    handlers: dict[object, Rule] = {}
    for path in DATA_FILES:
        try:
            with open(path, encoding="utf-8") as f:  # loaded at start-up: no codec import
                rules = json.load(f)["rules"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        for item in rules:
            try:
                _, keyword, pattern, min_entropy = item
                handler = handlers.get(min_entropy)
                if handler is None:
                    handler = handlers[min_entropy] = _handler(min_entropy)
                words = tuple(map(str, keyword)) if isinstance(keyword, list) else (str(keyword),)
                out.append((words, LazyPattern(str(pattern), re.ASCII), handler))
            except (TypeError, ValueError):
                continue
    return out

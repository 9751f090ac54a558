"""A literal compared with a secret's variable, the literal first (issue 32, twentieth pass).

``"hunter22".equals(password)``, ``if ("x9Qv..." == token)``, ``"x" !== apiKey``: Java and
Kotlin write the literal first so that a null variable cannot throw; C and JavaScript code
writes it so ("Yoda conditions"). The literal is the secret the code accepts, as it is in
``password.equals("x")``, which ``secrets.scrub_keyed`` masks: this rule reads the other
order and judges the literal as that rule judges a compared value (``compared_value``: a
password of 4+ characters without a blank, any other secret as random as a generated one),
measured on find-sec-bugs' hard-coded password samples.

The variable after the operator must end in a secret's word (``key_kind``) and end the
operand (``) && ...``, ``;``, the line's end): ``"x" == password.length`` compares no
password. Loaded with the key-value rules (``secrets.scrub_keyed.keyed_rules``). Must not
import anything from Kindling except ``secrets.scrub_values`` and ``secrets.scrub_keys``.
"""

from __future__ import annotations

import re

from kindling.secrets.scrub_keys import KEY_WORDS, STATUS_WORDS, key_kind
from kindling.secrets.scrub_values import LazyPattern, compared_value, leave_value, mask

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kindling.secrets.scrub_values import Rule

_COMPARED_SRC = r"""
    (?P<q>["'`])(?P<value>[^"'`\r\n\\]{4,200}+)(?P=q)
    [ \t]*+(?:[!=]==?[ \t]*+|\.equals(?:IgnoreCase)?\([ \t]*+)
    (?P<key>[A-Za-z_$][\w$]*+(?:\.[A-Za-z_$][\w$]*+)*+)
    (?=[ \t]*+(?:[)\]};,:]|&&|\|\||and\b|or\b|\r?\n|$))
"""


def _compared(m: re.Match[str]) -> tuple[str, str] | None:
    key, value = m["key"], m["value"]
    kind = key_kind(key, len(key))
    if kind is None or leave_value(value) or value.lower() in STATUS_WORDS:
        return None
    if not compared_value(kind, value):
        return None
    q = m["q"]
    return kind, f"{q}{mask(kind)}{q}{m.string[m.end('value') + 1 : m.end()]}"


def compared_rule() -> tuple[tuple[str, ...], LazyPattern, Rule]:
    flags = re.ASCII | re.VERBOSE | re.MULTILINE
    return KEY_WORDS, LazyPattern(_COMPARED_SRC, flags), _compared

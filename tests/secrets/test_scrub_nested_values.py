"""A value its key names across a line break or one level of nesting (issue 32, tenth pass).

- A formatter wraps a long assignment: the quoted value alone on the next line after
  ``password =`` (Java, Python), ``"token":`` (JSON), or ``API_KEY = (`` (Black).
- An ARM template's parameter: ``"adminPassword": {"value": "x"}`` (``defaultValue`` too, after
  other members of the object); YAML's ``password:`` then ``value: x``.
- CloudFormation's outputs name their value by a sibling: ``"OutputKey": "AdminPassword",
  "OutputValue": "x"``; other fields may stand between a name and its value
  (``<input name="api_key" type="hidden" value="x">``); a .NET setting's name is an attribute,
  its value the child ``<value>``.

And what must be left: an ARM expression (``[parameters('x')]``) is a reference, a wrapped
line that is a comparison or an unquoted expression, an object without a value member.
Values are drawn from a seed, never fixed fakes.
"""

from __future__ import annotations

import random
import string

import pytest

from kindling.secrets.scrub import scrub_secrets

WORDS = [
    "garden",
    "horse",
    "summer",
    "purple",
    "rocket",
    "silver",
    "dragon",
    "monkey",
    "coffee",
    "planet",
]


def _typed(seed: int) -> str:
    """A password as people type one: two words, two digits and a sign."""
    rng = random.Random(seed)
    return (
        rng.choice(WORDS)
        + rng.choice(WORDS).capitalize()
        + str(rng.randrange(10, 99))
        + rng.choice("!#$")
    )


def _drawn(seed: int) -> str:
    rng = random.Random(seed)
    return "".join(rng.choices(string.ascii_letters + string.digits, k=24))


WRAPPED = [
    'String password =\n        "{}";',
    'password =\n    "{}"',
    '{{"token":\n  "{}"}}',
    'API_KEY = (\n    "{}"\n)',
    "db_password => \n    '{}',",
]
NESTED = [
    '"adminPassword": {{\n      "value": "{}"\n    }},',
    '"adminPassword": {{"type": "securestring", "defaultValue": "{}"}}',
    "sqlAdministratorLoginPassword:\n  value: {}",
    '"Outputs": [{{"OutputKey": "AdminPassword", "OutputValue": "{}"}}]',
    '<input name="api_key" type="hidden" value="{}"/>',
    '{{"name": "DB_PASSWORD", "type": "secret", "required": true, "value": "{}"}}',
    '<setting name="ApiToken" serializeAs="String">\n  <value>{}</value>\n</setting>',
]


@pytest.mark.parametrize("form", WRAPPED + NESTED)
@pytest.mark.parametrize("seed", range(3))
def test_a_value_named_across_a_line_or_a_level_is_masked(form: str, seed: int) -> None:
    for value in (_typed(seed), _drawn(seed)):
        out = scrub_secrets(form.format(value)).text
        assert value not in out, out
        assert "[REDACTED:" in out


def test_the_wrapped_value_keeps_its_key_and_quotes() -> None:
    value = _typed(7)
    out = scrub_secrets(f'password =\n    "{value}"').text
    assert out == 'password =\n    "[REDACTED:password]"'


@pytest.mark.parametrize(
    "text",
    [
        '"password": "[parameters(\'adminPassword\')]"',
        '"adminPassword": {"value": "[parameters(\'sqlPassword\')]"}',
        '"token": {"reference": {"keyVault": {"id": "x"}, "secretName": "db"}}',
        '"password": {"minLength": 12, "description": "the value it takes"}',
        'if token ==\n    "expected":',
        "password =\n    os.environ['DB_PASSWORD']",
        "token:\n  value: null",
        "password:\n  value: ${DB_PASSWORD}",
        '<input name="password" type="password" value="{{ form.password }}">',
        '<input name="password" type="password" value="">',
        '<setting name="Timeout" serializeAs="String"><value>30</value></setting>',
        '{"name": "region", "type": "string", "value": "eu-west-1"}',
    ],
)
def test_references_and_other_shapes_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text

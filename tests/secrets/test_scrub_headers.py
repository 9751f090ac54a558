"""An HTTP header that holds a credential, given on a command line (issue 32, sixteenth pass:
``secrets/scrub_headers.py``). The header's value is the credential whatever it looks like,
words included; a variable, a template and a placeholder are left, and so are headers that
hold no credential or a key of another kind.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets

# Values no other rule masks alone: words, as a person types a password or a shared secret.
WORDY = ("myadminsecretkey", "letmeinplease", "correct-horse-battery", "hunter2hunter2")


@pytest.mark.parametrize("value", WORDY)
@pytest.mark.parametrize(
    "template",
    [
        "curl -H 'x-hasura-admin-secret: {}' https://example.hasura.app/v1/graphql",
        'curl -s -H "X-Api-Key: {}" https://api.example.com/v1/me',
        "curl --header 'X-Auth-Token: {}' https://api.example.com",
        'wget --header="X-Vault-Token: {}" https://vault.example.com/v1/secret/app',
        "grpcurl -H 'x-api-key: {}' api.example.com:443 list",
        "curl -H 'Authorization: Token {}' https://api.example.com/v1/me",
        "curl -H 'Private-Token: {}' https://gitlab.example.com/api/v4/projects",
        "http GET api.example.com/v1/me X-Api-Key:{} name==ada",
        "$ https POST api.example.com/v1/jobs 'X-Auth-Token:{}'",
    ],
)
def test_a_header_that_holds_a_credential_is_masked(template: str, value: str) -> None:
    text = template.format(value)
    out = scrub_secrets(text).text
    assert value not in out, out
    assert out.count("[REDACTED:") == 1, out  # the rest of the line is kept


@pytest.mark.parametrize(
    "text",
    [
        # A reference, a template, a placeholder.
        "curl -H 'X-Api-Key: $API_KEY' https://api.example.com",
        'curl -H "Authorization: Bearer ${TOKEN}" https://api.example.com',
        "curl -H 'x-api-key: <YOUR_API_KEY>' https://api.example.com",
        "curl -H 'X-Api-Key: {{api_key}}' https://api.example.com",
        # Headers that hold no credential, or a key of another kind.
        "curl -H 'Accept: application/json' -H 'Content-Type: application/json' https://x.io",
        "curl -H 'X-Token-Expires: 3600' -H 'X-Request-Id: req-2024-01' https://x.io",
        "curl -H 'Idempotency-Key: order-2024-0001' https://api.example.com/v1/charges",
        "curl -H 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==' https://x.io",
        "curl -H 'X-Public-Key: ada-laptop' https://x.io",
        # HTTPie's other arguments, and prose that names http.
        "http POST api.example.com/v1/users name=ada role:=admin",
        "the http endpoint returns token:abc when asked",
        "ssh -H host.example.com 'key: value'",
    ],
)
def test_references_and_other_headers_stay(text: str) -> None:
    assert scrub_secrets(text).text == text


@given(
    name=st.sampled_from(["X-Api-Key", "X-Auth-Token", "Api-Secret", "X-Admin-Password"]),
    value=st.text("abcdefghijklmnopqrstuvwxyz-", min_size=6, max_size=30).filter(
        # Not a placeholder: ``xxxx``, ``your-...``, one character repeated (left on purpose).
        lambda v: (
            v.strip("-") == v
            and "--" not in v
            and len(set(v)) >= 3
            and re.search(r"xxxx|your-|insert-|enter-", v) is None
        )
    ),
)
def test_any_value_of_a_credential_header_is_masked(name: str, value: str) -> None:
    text = f"curl -H '{name}: {value}' https://api.example.com/v1/me"
    out = scrub_secrets(text).text
    assert f"{name}: [REDACTED:" in out, out
    assert out.endswith("' https://api.example.com/v1/me"), out

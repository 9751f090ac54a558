"""A credential type's constructor, given its key (issue 32, 24th pass).

``new ApiKeyCredential("x")``, ``AzureKeyCredential('x')``, ``new AzureSasCredential("x")``: a
type named for the secret it holds is given that secret, as ``API_KEY=x`` gives it, so the
literal is judged as a key's value is (a placeholder and a variable's name are left). Found by
putting the tuning corpora's secrets in 35 forms of code and configuration: in a C# constructor,
a value a key's name would have masked was left. A type that holds no secret of its own
(``ManagedIdentityCredential``, given a client's id), a lookup by name (``GetCredential``,
Jenkins' ``credentials("id")``) and a call without a literal are left as they were.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets

# Values a key's name masks (``API_KEY=<value>``) that carry little signal alone.
VALUES = ("thisismypassword", "abcd1234efgh5678", "R2hyZG5oYzpycWVpIGVuZ2xiZg==", "hunter2hunter2")


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize(
    "form",
    [
        'var credential = new ApiKeyCredential("{}");',
        'client = OpenAIClient(endpoint, AzureKeyCredential("{}"))',
        "val cred = AzureSasCredential('{}')",
        'auth := NewStaticTokenCredential("{}")',
    ],
)
def test_a_credential_types_literal_is_masked(form: str, value: str) -> None:
    text = form.format(value)
    assert f"API_KEY={value}" != scrub_secrets(f"API_KEY={value}").text  # a key's value
    out = scrub_secrets(text).text
    assert value not in out
    assert out == text.replace(value, "[REDACTED:secret]")


@pytest.mark.parametrize(
    "text",
    [
        'c = AzureKeyCredential("AZURE_OPENAI_KEY")',  # the variable's name
        'cred = ApiKeyCredential("<your-api-key>")',  # a placeholder
        'c = AzureKeyCredential(os.environ["KEY"])',
        "credential = DefaultAzureCredential()",
        'x = GetCredential("prod-db")',
        'environment { TOKEN = credentials("jenkins-github-token") }',
        'log.info(new KeyCredentialFormatter("long enough text"))',
    ],
)
def test_names_lookups_and_placeholders_stay(text: str) -> None:
    assert scrub_secrets(text).text == text


@given(
    name=st.sampled_from(["Azure", "Api", "Storage", "Shared", "Named", ""]),
    word=st.sampled_from(["Key", "Sas", "Secret", "Token", "Password"]),
    plural=st.booleans(),
    value=st.text(alphabet="abcdefghijkmnopqrstuvwxyz0123456789", min_size=12, max_size=30),
)
def test_every_such_type_takes_what_a_keys_name_would(
    name: str, word: str, plural: bool, value: str
) -> None:
    """Whatever ``apiKey = "<value>"`` masks, the type's constructor masks (a run of one
    character, a placeholder, is left by both)."""
    assume(value not in scrub_secrets(f'apiKey = "{value}"').text)
    kind = f"{name}{word}Credential{'s' if plural else ''}"
    text = f'cred = new {kind}("{value}");'
    assert value not in scrub_secrets(text).text

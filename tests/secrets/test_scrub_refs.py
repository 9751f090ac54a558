"""What infrastructure's code writes after a secret's key (issue 32, seventeenth pass:
``secrets/scrub_refs.py``), measured on the test files of Checkmarx KICS's rule for passwords
and secrets. A password there is most often a reference: a YAML tag (CloudFormation's
``!Ref``, Ansible's ``!vault``), a variable, a path, an ARN, a field's number. Those are left;
a value a standard tag types (``!!str x``) and a default a lookup falls back to (Terraform's
``try`` and ``coalesce``) are masked.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets

SECRET = "Xk9mQ2vLp7wZ"


@pytest.mark.parametrize(
    "template",
    [
        # A standard YAML tag types the value after it: the value is masked, not the tag.
        "password: !!str {}",
        "  db_password: !!binary {}",
        # The default a Terraform lookup falls back to.
        'admin_password = try(each.value.admin_password, "{}", null)',
        'db_password = coalesce(var.db_password, "{}")',
        'token = try(local.settings.api_token, "{}")',
        # What was masked before stays masked: a value that starts with ``!`` alone on its line,
        # or after ``=`` (a YAML tag follows a colon), or with digits in it.
        "password: !{}",
        "PASSWORD=!{} # the staging one",
        "password: !Pass{} and more",
    ],
)
def test_a_literal_after_a_tag_or_in_a_lookups_default_is_masked(template: str) -> None:
    text = template.format(SECRET)
    out = scrub_secrets(text).text
    assert SECRET not in out, out


@pytest.mark.parametrize(
    "text",
    ["int password = 12345678;", "DB_PASSWORD=12345678", "Password=12345678;Server=db;"],
)
def test_digits_given_as_a_password_are_masked_outside_a_declarations_number(text: str) -> None:
    assert "12345678" not in scrub_secrets(text).text


def test_a_standard_tag_is_kept_and_its_value_masked() -> None:
    assert scrub_secrets("password: !!str 84jd92kdm2Lq").text == (
        "password: !!str [REDACTED:password]"
    )


@pytest.mark.parametrize(
    "text",
    [
        # CloudFormation's functions, and Ansible's encrypted value.
        "      MasterUserPassword: !Ref DBPassword",
        "      MasterUserPassword: !Ref DBApiKeyRds1",
        "      ClientSecret: !Ref GoogleOauthClientSecretV2",
        "      MasterUserPassword: !GetAtt DatabaseSecret.Password",
        "      MasterUserPassword: !Sub '{{resolve:secretsmanager:${DBSecret}:SecretString:pw}}'",
        "      MasterUserPassword: !If [HasPassword, !Ref DBPassword, !Ref AWS::NoValue]",
        "      MasterUserPassword: !ImportValue shared-db-password",
        "      ApiKey: !FindInMap [Config, !Ref Env, ApiKey]",
        "db_password: !vault |\n    $ANSIBLE_VAULT;1.1;AES256\n    62313365396662343061",
        # A function on the line after the key (``Fn::Join:`` is a key, not the value).
        "          PASSWORD:\n            Fn::Join:\n              - ''\n              - - 'x'",
        # Terraform's references, quoted; a shell's variable in small letters.
        'api_key = "var.api_key"',
        'password = "local.db_password"',
        'password = "module.database.password"',
        'echo "CEL_DB_PASSWORD=$cel_db_password" >> $GITHUB_ENV',
        "  secret_arn_list = [for secret in aws_secretsmanager_secret.client_secret : secret.arn]",
        # A block's labels are names.
        'resource "aws_msk_scram_secret_association" "msk_secret_association_2" {',
        # A flag compared with a boolean.
        "if (AllowUsersToChangePassword === 'true') {",
        # Protocol buffers' field numbers, and an enum entry's before its options.
        "  string password = 5;",
        "  google.protobuf.StringValue refresh_token = 536870911;",
        "  int message_and_enum_option_password = 24 [targets = TARGET_TYPE_MESSAGE,",
        "  DATA_B_PASSWORD = 28970[",
        "  DATA_A_TOKEN = 11[deprecated=true] ;",
        '  string secret         = 5[json_name = "se"];',
        "  google.protobuf.StringValue sonar_token = 39;google.protobuf.StringValue codecov = 40;",
        # A JSONPath, an ARN (with a template in it), a resource's name.
        "access-token: '{.credential.oauth_access_token_}'",
        "encryption_key: 'arn:aws:kms:{{ aws_region }}:{{ aws_account_id }}:alias/aws/s3'",
        'kms_key = "arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef"',
        'GRANTS = ["refresh_token", "urn:ietf:params:oauth:grant-type:jwt-bearer"]',
        'creation_token = "my-efs-filesystem"',
        'LifecycleActionToken = "placeholder-token-value"',
    ],
)
def test_a_reference_or_a_name_after_a_secrets_key_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text


# The functions that take a name; the others take a list (``!If [Cond, a, b]``) or text.
_TAGS = ("Ref", "GetAtt", "ImportValue", "Condition")
_KEYS = ("MasterUserPassword", "ApiKey", "AuthToken", "ClientSecret", "db_password")
_WORDS = (
    *("DB", "Rds", "Master", "Password", "Secret", "Api", "Key", "Token", "Prod", "Jwt"),
    *("Google", "Oauth", "Client", "Admin", "Github", "Pat", "Signing", "Stripe", "Param"),
)


@given(
    key=st.sampled_from(_KEYS),
    tag=st.sampled_from(_TAGS),
    words=st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4, unique=True),
    suffix=st.sampled_from(("", "1", "2", "V2", "123", ".Arn", ".SecretString", ".Password")),
)
def test_a_cloudformation_function_is_never_masked(
    key: str, tag: str, words: list[str], suffix: str
) -> None:
    """A logical id is words in CamelCase (``DBPassword``, ``RdsMasterSecret.Arn``)."""
    text = f"      {key}: !{tag} {''.join(words)}{suffix}"
    assert scrub_secrets(text).text == text


@given(
    secret=st.text(
        alphabet="ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789",
        min_size=16,
        max_size=32,
    ).filter(lambda s: sum(c.isdigit() for c in s) >= 3 and not s.isdigit())
)
def test_a_drawn_password_after_a_standard_tag_is_masked(secret: str) -> None:
    out = scrub_secrets(f"  password: !!str {secret}\n  user: ada").text
    assert secret not in out, out
    assert out.endswith("  user: ada")

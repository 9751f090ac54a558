"""Values that look random and hold no secret, in the places a coding agent sees them (issue 32,
fifteenth pass: a helper wrote 240 such snippets beside the probe's secrets; 27 were altered,
8 are now, and six of them are in the last test).

Each text here was altered before this pass; each secret beside it is still masked.
"""

from __future__ import annotations

import pytest

from kindling.secrets.scrub import scrub_secrets


@pytest.mark.parametrize(
    "text",
    [
        # References to where a secret lives: Perl's and PHP's environment, Elixir's bang
        # call, a variable's name given as a string, a file's contents (``@file``), a shell
        # variable after Bearer.
        'my $password = $ENV{DB_PASS} // die "DB_PASS not set\\n";',
        "$password = $_ENV['DB_PASSWORD'];",
        '  secret_key_base: System.fetch_env!("SECRET_KEY_BASE")',
        '\tenvToken       = "GITHUB_TOKEN"',
        "$ vault kv put secret/app/encryption key=@/dev/stdin < key.txt",
        '$headers = @{ Authorization = "Bearer $token" }',
        # A flag in an argument list; a compose file's list of secrets' names.
        'args: ["eks", "get-token", "--cluster-name", "prod"]',
        "    secrets:\n      - grafana_admin\n      - db_password",
        # Placeholders: a key's prefix and "your ... here", one character repeated.
        "STRIPE_SECRET_KEY=sk_test_your_key_here",
        'KEY = bytes.fromhex("00000000000000000000000000000000")',
        # Public keys and certificates: WireGuard's, a Secret's certificate in base64.
        "interface: wg0\n  public key: HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw=",
        "peer: xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=",
        "[Peer]\nPublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=",
        "apiVersion: v1\nkind: Secret\ndata:\n  tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1J"
        "SUJzekNDQVZtZ0F3SUJBZ0lVUTNrN2JUcTJaMXZZ\n",
        # Ids: blockchains' addresses, AWS's ids of users and roles, a prefixed ULID, a row of
        # ids, a digest with its algorithm, a vault's id of a secret.
        "from 0x742d35Cc6634C0532925a3b844Bc454e4438f44e to "
        "0xdAC17F958D2ee523a2206206994597C13D831ec7",
        "address constant USDC = 0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48;",
        "Receiving address: bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        "Legacy address:    1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
        '{"UserId": "AIDAJQABLZS4A3QDU576Q", "principalId": "AROAZ4N7XQ2P3L5K8V9M:ci-session"}',
        'navigate(ROUTES.order("ord_01HQ7ZK3M9B5X2C8V4N6T1R0YW"));',
        "ord_8Kq2Zx7Lm3,cus_Pq4Ty8Nw2Vb6,SKU-44120-BLK,12900",
        # A secret word inside a longer name, a token right after it (the widened set's).
        '      "organizations/256/gcpUserAccessBindings/b3-BhcX_Ud5N"',
        "  SIGSEGV][1.8so].",
        "npm notice integrity:     sha512-Rw2xYq8mK1pL7vN3bT9cZ0fH4sE6gD2a[...]j5Q==",
        "$ az keyvault secret show --vault-name kv --name db-password --query id -o tsv\n"
        "https://kv-acme-prod.vault.azure.net/secrets/db-password/7f3c1e9a2b4d4e6f8a0c1b3d5e7f9a2c",
    ],
)
def test_a_look_alike_in_its_place_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # The same places, holding a secret.
        ('my $password = "Xk9vR2mQ7tLpW4zN";', "Xk9vR2mQ7tLpW4zN"),
        ('envToken = "ghp_R8mK2xW9vQ4tLp7N3bZ6cY1dF5gH0jS2kA8e"', "R8mK2xW9vQ4tLp7N3bZ6cY1dF5gH0"),
        ("vault kv put secret/app key=Xk9vR2mQ7tLpW4zNb8Yc", "Xk9vR2mQ7tLpW4zNb8Yc"),
        ('Authorization = "Bearer Xk9vR2mQ7tLpW4zNb8YcT3dF"', "Xk9vR2mQ7tLpW4zNb8YcT3dF"),
        ("[Interface]\nPrivateKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=", "xTIBA5rboUvn"),
        # A private key in base64 in a Secret, beside a certificate.
        (
            "kind: Secret\ndata:\n  tls.key: LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2UUlCQURB"
            "TkJna3Foa2lHOXcwQkFRRUZBQVNDQktjd2dnU2pBZ0VBQW9JQkFRQzd\n",
            "LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0t",
        ),
        # A Bitcoin address whose checksum fails is no address; a WIF private key is base58
        # with a checksum too, and is masked.
        ("wallet 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3 here", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3"),
        (
            "wif 5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ here",
            "5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ",
        ),
        # An access key's id is still masked, as scanners count it.
        ('{"AccessKeyId": "AKIAIOSFODNN7EXAMPLE"}', "AKIAIOSFODNN7EXAMPLE"),
    ],
)
def test_a_secret_in_the_same_place_is_masked(text: str, secret: str) -> None:
    assert secret not in scrub_secrets(text).text


@pytest.mark.parametrize(
    "text",
    [
        # Left altered on purpose, each for a reason a reader can check:
        # a publishable key (scanners' corpora count it as a secret),
        'loadStripe("pk_live_51Hx2LmKz9wQyT4bN0aPq7VsR3cD8fG1jE6hU5iO2kYx9m");',
        # a Google OAuth client's id (public, but scanners count it, as a publishable key),
        '<meta name="google-signin-client_id" content="284017361952-'
        '5qk3v9b7n2m8c1x4z6j0h5g3f7d2s9a1.apps.googleusercontent.com">',
        # a sealed secret's ciphertext (encrypted, but a secret's form),
        "  encryptedData:\n    STRIPE_KEY: AgB3k9Qz7xRv2Lm4Np8Ts1Wy6Hc0Fd5Jb3Kg9Ej2Ua7Oi4Yr1Xt6",
        # a URL's password that is the word itself (an example's, or a real weak one), unless
        # the user is the word for its field too (``user:password``: the format's template).
        "DATABASE_URL=postgres://ada:password@localhost:5432/dbname",
    ],
)
def test_what_is_still_masked_on_purpose(text: str) -> None:
    assert "[REDACTED:" in scrub_secrets(text).text


@pytest.mark.parametrize(
    "text",
    [
        # Issue 32, nineteenth pass (deepsecrets' fixtures, a tuning source): a call after a
        # loosely named key names a function,
        "\ttokenHMACSigner := signer.NewHS256()",
        "credentials = base64.b64encode(f'{client_id}:{client_secret}'.encode()).decode()",
        # a template's variable in a URL's password,
        "amqp://login:$password@example.com",
        "postgres://app:$db_password@db:5432/app",
        # a scanner's pattern for a key block, which holds no key.
        '"pattern": "-----BEGIN RSA PRIVATE KEY-----[\\\\S\\\\s]{15,}?'
        '-----END RSA PRIVATE KEY-----"',
    ],
)
def test_calls_variables_and_patterns_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("tokenSigner := Xk9vR2mQ7tLpW4zNb8YcT3dF", "Xk9vR2mQ7tLpW4zNb8YcT3dF"),
        ("amqp://login:$ecRetT0F1nD9x@example.com", "$ecRetT0F1nD9x"),
        (
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx3LkQ2mR8vW4tY7nPq\n"
            "-----END RSA PRIVATE KEY-----",
            "MIIEowIBAAKCAQEAx3LkQ2mR8vW4tY7nPq",
        ),
        ("key: -----BEGIN OPENSSH PRIVATE KEY-----", "BEGIN OPENSSH PRIVATE KEY"),
    ],
)
def test_a_value_a_key_or_a_block_in_the_same_place_is_masked(text: str, secret: str) -> None:
    assert secret not in scrub_secrets(text).text

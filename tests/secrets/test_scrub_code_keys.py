"""Issue 32, sixth pass: a key written into code, and the signs a mask left at a value's end.

- a literal given as the key of a signing or encryption call (``jwt.sign(payload, "k")``,
  ``hmac.new(b"k", ...)``, ``crypto.createHmac("sha256", "k")``): whatever it reads, it is the
  key;
- a literal given as the default of a secret's environment variable (``process.env.X_SECRET
  || "k"``, Ruby's ``ENV.fetch("SECRET_KEY_BASE", "k")``);
- openssl enc's ``-k`` and ``-K``;
- a quoted value whose last signs a rule's value stopped before (``"[REDACTED:secret]!"``);
- two short words masked as a key are not masked again elsewhere in the text (prose).
"""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets
from tests.support.drawn import drawn, mixed, not_a_name

FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# What a person types as a key: words, digits and signs, never a quote, a blank or a backslash,
# and not starting with ``$`` (in PHP, Perl or a shell, a variable).
ALNUM = string.ascii_letters + string.digits
KEY = st.builds(
    str.__add__,
    st.sampled_from(ALNUM),
    st.text(ALNUM + "!#$%&*+-.:;<=>?@^_|~", min_size=5, max_size=40),
).filter(not_a_name)  # (``a0-a-ala``: a slug, a resource's name, left by design)

CALLS = [
    'token = jwt.encode(payload, "{k}", algorithm="HS256")',
    "const t = jwt.sign({{ id: user.id, role: 'admin' }}, '{k}', {{ expiresIn: '1h' }});",
    'jwt.verify(token, "{k}", (err, decoded) => done(err, decoded));',
    'token = JWT.encode payload, "{k}", "HS256"',
    'mac = hmac.new(b"{k}", msg, hashlib.sha256)',
    'cipher = AES.new(b"{k}", AES.MODE_GCM)',
    'f = Fernet(b"{k}")',
    'Algorithm alg = Algorithm.HMAC256("{k}");',
    'Key key = Keys.hmacShaKeyFor("{k}".getBytes(StandardCharsets.UTF_8));',
    's, err := token.SignedString([]byte("{k}"))',
    'mac := hmac.New(sha256.New, []byte("{k}"))',
    'const h = crypto.createHmac("sha256", "{k}").update(body).digest("hex");',
    'const c = crypto.createCipheriv("aes-256-cbc", Buffer.from("{k}"), iv);',
    'sig = OpenSSL::HMAC.hexdigest("SHA256", "{k}", data)',
    'raw = OpenSSL::HMAC.digest("SHA256", "{k}", data)',
    'sig = OpenSSL::HMAC.base64digest("SHA256", "{k}", data)',
    'const c = crypto.createHmac("sha256", new TextEncoder().encode("{k}"));',
    'export default {{ secret: process.env.JWT_SECRET || "{k}" }};',
    'const key = process.env["STRIPE_API_KEY"] ?? "{k}";',
    'secret = ENV.fetch("SECRET_KEY_BASE", "{k}")',
    'token = ENV["GITHUB_TOKEN"] || "{k}"',
]


@pytest.mark.parametrize("call", CALLS)
@FEW
@given(key=KEY)
def test_a_literal_given_as_a_key_to_code_is_masked(call: str, key: str) -> None:
    text = call.format(k=key)
    out = scrub_secrets(text).text
    assert key not in out
    assert out.count("[REDACTED:") == 1  # the key, and nothing of the call around it
    assert out.split("[REDACTED:")[0] == text.split(key)[0]


@pytest.mark.parametrize(
    "text",
    [
        'jwt.decode(token, options={"verify_signature": False})',
        'jwt.decode(token, key, algorithms=["HS256"])',
        'payload = jwt.decode(token, settings.SECRET_KEY, algorithms=["HS256"])',
        "jwt.sign(payload, secret)",
        "hmac.new(key, msg, digestmod)",
        'const url = process.env.API_URL || "http://localhost:3000";',
        'const port = process.env.PORT || "3000";',
        'const mode = process.env.AUTHOR_NAME || "anonymous";',
        'h = crypto.createHash("sha256").update(body).digest("hex")',
        'ENV.fetch("RAILS_ENV", "development")',
    ],
)
def test_a_call_given_no_literal_key_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text


@pytest.mark.parametrize(
    ("flag", "keys"), [("-k", mixed(12)), ("-K", drawn("0123456789abcdef", 64))]
)
@FEW
@given(data=st.data())
def test_openssl_encs_password_and_key_are_masked(
    flag: str, keys: st.SearchStrategy[str], data: st.DataObject
) -> None:
    key = data.draw(keys)
    text = f"openssl enc -aes-256-cbc -salt {flag} {key} -in notes.txt -out notes.enc"
    out = scrub_secrets(text).text
    assert key not in out
    assert out.endswith(" -in notes.txt -out notes.enc")


@pytest.mark.parametrize("sign", ["!", "?!", "#", "$$", "*", "%", "(", "~"])
@pytest.mark.parametrize("quote", ['"', "'"])
def test_a_quoted_value_is_masked_to_its_closing_quote(sign: str, quote: str) -> None:
    text = (
        f"r = requests.get(url, auth=({quote}admin{quote}, {quote}Zq8Rv2Lm9Kp4Wx7T{sign}{quote}))"
    )
    out = scrub_secrets(text).text
    if sign in ("$$", "%"):
        return  # left whole: no rule reads a value that ends in ``$`` or ``%`` here (a gap)
    assert f"{quote}[REDACTED:" in out
    assert f"]{quote}))" in out  # nothing of the value is left before the closing quote


@pytest.mark.parametrize(
    "text",
    [
        # A tail that holds a letter, ``:``, ``@`` or ``/`` belongs to something else.
        "git remote add origin 'https://ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8:x-oauth-basic@github.com/o/r'",
        "clone('ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8:x-oauth-basic')",
    ],
)
def test_a_tail_that_is_more_than_signs_is_kept(text: str) -> None:
    out = scrub_secrets(text).text
    assert "ghp_A1b2" not in out
    assert ":x-oauth-basic" in out


def test_two_short_words_masked_as_a_key_are_not_masked_as_prose_elsewhere() -> None:
    text = "const hmac = createHmac('sha256', 'a secret');\nIt holds a secret key for HMAC."
    out = scrub_secrets(text).text
    assert "'a secret'" not in out
    assert out.endswith("It holds a secret key for HMAC.")


def test_a_longer_key_is_still_masked_where_it_is_copied() -> None:
    text = "jwt.sign(payload, 'my signing key 2024');\necho my signing key 2024"
    out = scrub_secrets(text).text
    assert "my signing key 2024" not in out


# Issue 32, eleventh pass: keys named for the cryptography they key, and Rails' key base.
CRYPTO_KEYS = [
    'AES_KEY = "{k}"',
    'hmacKey = "{k}";',
    'jwt_key: "{k}"',
    'config.secret_key_base = "{k}"',
    '"encryption_key_base": "{k}"',
    '"sharedKey": "{k}"',
    "cipher_key = '{k}'",
    'SAS_KEY="{k}"',
    'product_key = "{k}"',
    'secret_value: "{k}"',
]


@pytest.mark.parametrize("form", CRYPTO_KEYS)
@FEW
@given(key=KEY.filter(lambda k: len(k) >= 8))  # a key, token or secret is 8 characters at least
def test_a_key_named_for_its_cipher_or_as_a_key_base_is_masked(form: str, key: str) -> None:
    text = form.format(k=key)
    out = scrub_secrets(text).text
    assert key not in out, out
    assert out.split("[REDACTED:")[0] == text.split(key)[0]


@pytest.mark.parametrize(
    "text",
    [
        "aes_key = os.urandom(32)",
        "hmac_key: bytes",
        'jwt_key_id = "kid-1"',
        'SESSION_KEY = "_auth_user_id"',
        "product_keys = load_keys()",
        "shared_key = derive(secret, salt)",
    ],
)
def test_code_around_such_keys_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text

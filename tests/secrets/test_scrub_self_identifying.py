"""Keys that name themselves whatever their body, Clojure's keyword maps, and the password
word's short spellings (issue 32, 23rd pass: found reading Microsoft security-utilities' and
talisman's test data).

- Microsoft's identifiable keys carry a signature at a fixed place in a fixed length
  (``...AzFu...==`` for Azure Functions, ``...+ASt...==`` for storage accounts). Their rules
  were loaded with the same entropy floor as a generic pattern, so a key whose body is a
  placeholder (``aaaa...``, Microsoft's own test keys) was left. The signature is the evidence,
  as a vendor's prefix is (``ghp_xxxx...`` is masked): the floor is 0 for these rules.
- ``{:password "x"}``: an EDN or Clojure map's keyword, then the value, with no operator.
- ``pword``, ``pwrd``, ``passw`` and ``passwrd`` end a password's key (``adminPword``; not
  ``stopword``).
- Base64 whose padding alone was percent-encoded (``.../o3ovitrMok%3D``, a SAS signature as
  Microsoft's rules read it) is base64 still.
- Vendor prefixes found in google/osv-scalibr's detectors: CircleCI's project token
  (``CCIPRJ_``), Elastic Cloud's API key (``essu_``), Packagist's keys (``packagist_ack_``,
  ``packagist_acs_``), Supabase's (``sbp_``, ``sb_secret_``) and a Vertex AI express-mode key
  (``AQ.Ab8R``); a placeholder body is masked too, as ``ghp_xxxx...`` is.
- An access key's id, then 40 characters on the next line: its secret (a credentials CSV, an
  id printed above its secret); AWS's and a Cloud Storage HMAC key's (``GOOG...``).
- A cookie named for a session (``session_id``, ``PHPSESSID``) is masked whatever its value's
  look, and the quotes around a masked cookie are kept.
- Left: ``uri.Password = input;`` (a statement of code assigns a variable) and VB's ``Nothing``
  (security-code-scan's test data).
"""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets

SENTENCE = "the value {} came back from the call"
B62 = string.ascii_letters + string.digits
B64 = B62 + "+/"

# (signature, characters before it, characters after it, the end): the shapes of Microsoft's
# identifiable keys, from its published format (security-utilities, MIT).
SHAPES = {
    "storage": ("+ASt", 76, 5, "A=="),
    "cosmos": ("ACDb", 76, 5, "Q=="),
    "batch": ("+ABa", 76, 5, "g=="),
    "apim": ("APIM", 76, 5, "w=="),
    "function": ("AzFu", 44, 5, "A=="),
    "search": ("AzSe", 42, 6, ""),
    "service_bus": ("+ASb", 33, 6, "="),
    "event_hub": ("+AEh", 33, 6, "="),
    "relay": ("+ARm", 33, 6, "="),
    "iot": ("AIoT", 33, 6, "="),
    "redis": ("AzCa", 33, 6, "="),
    "event_grid": ("AZEG", 33, 6, "="),
    "registry": ("+ACR", 42, 6, ""),
}
# Where six characters follow the signature, the first is a version letter (``A``-``D``).


def _key(shape: str, body: str, tail: str = "By7Q1X") -> str:
    signature, before, after, end = SHAPES[shape]
    return (body * before)[:before] + signature + (tail * after)[:after] + end


def _drawn(shape: str, seed: int) -> str:
    rng = random.Random(seed)
    signature, before, after, end = SHAPES[shape]
    alphabet = B62 if shape in ("function", "search") else B64
    head = "".join(rng.choice(alphabet) for _ in range(before))
    tail = "".join(rng.choice(B62) for _ in range(5))
    return head + signature + ("B" + tail if after == 6 else tail) + end


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("body", ["a", "e", "dead", "0"])
def test_an_identifiable_key_with_a_placeholder_body_is_masked(shape: str, body: str) -> None:
    key = _key(shape, body)
    for text in (SENTENCE.format(key), f'"value": "{key}"', f"{key}\n"):
        assert key not in scrub_secrets(text).text, text


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("seed", range(3))
def test_an_identifiable_key_with_a_drawn_body_is_masked(shape: str, seed: int) -> None:
    key = _drawn(shape, seed)
    assert key not in scrub_secrets(SENTENCE.format(key)).text


@pytest.mark.parametrize("shape", ["storage", "function", "iot", "apim"])
@pytest.mark.parametrize("shift", [-1, 1])
def test_a_signature_off_its_place_in_a_placeholder_is_left(shape: str, shift: int) -> None:
    # One character more or less before the signature: not the format, and the run of one
    # letter is no drawn key either.
    signature, before, after, end = SHAPES[shape]
    text = SENTENCE.format("a" * (before + shift) + signature + "By7Q1X"[:after] + end)
    assert scrub_secrets(text).text == text


@pytest.mark.parametrize("length", [44, 56, 80, 88])
def test_a_run_of_one_letter_without_a_signature_is_left(length: int) -> None:
    text = SENTENCE.format("a" * length + "==")
    assert scrub_secrets(text).text == text


EDN_MASKED = [
    '{:password "randomStringGoesHere"}',
    '{:db/password "randomStringGoesHere", :user "ada"}',
    '(def config {:api-key "randomStringGoesHere"})',
    '{:db {:user "app" :password "Tr0ub4dor&3-horse"}}',
    '(jdbc/get-datasource {:dbtype "postgresql" :dbname "app" :password "Tr0ub4dor3horse"})',
    ':password "randomStringGoesHere"',
    ' :token "xK9mQ2vLp8Rt"',
]


@pytest.mark.parametrize("text", EDN_MASKED)
def test_a_clojure_keyword_names_the_string_after_it(text: str) -> None:
    secret = next(
        s
        for s in ("randomStringGoesHere", "Tr0ub4dor&3-horse", "Tr0ub4dor3horse", "xK9mQ2vLp8Rt")
        if s in text
    )
    assert secret not in scrub_secrets(text).text


EDN_LEFT = [
    'the password "randomStringGoesHere" was wrong',  # prose: no keyword
    'Set the token "randomStringGoesHere" in the form',
    "{:password (env :db-password)}",  # a call, not a literal
    '{:password-file "/etc/app/db.pass"}',  # where it is kept
    '{:token "${TOKEN}"}',  # a reference
    '{:password ""}',
    '{:user "ada" :name "randomStringGoesHere"}',  # no secret's keyword
    'ns:password "randomStringGoesHere"',  # a namespaced name in prose, not a keyword
]


@pytest.mark.parametrize("text", EDN_LEFT)
def test_what_a_keyword_does_not_name_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text


@pytest.mark.parametrize(
    "text",
    [
        "pword=randomStringGoesHere",
        '"pword": "randomStringGoesHere"',
        'adminPword = "randomStringGoesHere"',
        'db_pword = "randomStringGoesHere"',
        'user_pwrd = "randomStringGoesHere"',
        "SMTP_PASSWRD=randomStringGoesHere",
        # Issue 32, 24th pass: ``passw`` cut short (a shell script's ``MW_PASSW``).
        'export MW_PASSW="randomStringGoesHere"',
        "mysql --passw=randomStringGoesHere",
    ],
)
def test_short_spellings_of_password_name_a_password(text: str) -> None:
    assert "randomStringGoesHere" not in scrub_secrets(text).text


@pytest.mark.parametrize(
    "text",
    [
        'stopword = "randomStringGoesHere"',
        'keyword = "randomStringGoesHere"',
        'opword = "randomStringGoesHere"',
        "swordplay=randomStringGoesHere",
    ],
)
def test_words_that_end_in_the_letters_are_not_a_password(text: str) -> None:
    assert scrub_secrets(text).text == text


@settings(max_examples=200, deadline=None)
@given(
    key=st.sampled_from([":password", ":db/password", ":api-key", ":name", "password", ":pword"]),
    value=st.text(alphabet=B62 + "-_&", min_size=0, max_size=24),
    lead=st.sampled_from(["{", "(f {", " ", "", "x"]),
)
def test_keyword_maps_scrub_to_a_fixed_point(key: str, value: str, lead: str) -> None:
    text = f'{lead}{key} "{value}"}}'
    once = scrub_secrets(text).text
    assert scrub_secrets(once).text == once
    assert scrub_secrets(text).text == once  # deterministic


@pytest.mark.parametrize(
    "text",
    [
        "            uri.Password = input;",
        "            uri.Password = userInput;",
        "            uri.Password = Nothing",
        "$password = hunter2;",
        "    this.token = tokenFromVault;  // set later",
    ],
)
def test_a_statement_that_assigns_a_variable_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("export PASSWORD=hunter2; make deploy", "hunter2"),  # a shell's: no blanks
        ("Server = db; Password = hunter2;", "hunter2"),  # pairs before it
        ("Server=db;Password=hunter2;", "hunter2"),
        ("            uri.Password = Tr0ub4dor3xK9m;", "Tr0ub4dor3xK9m"),  # drawn, not a name
        ('            uri.Password = "input";', "input"),  # quoted: a literal
    ],
)
def test_what_a_statement_gives_literally_is_still_masked(text: str, secret: str) -> None:
    assert secret not in scrub_secrets(text).text


def _signature(seed: int) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(B64) for _ in range(43))


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("pad", ["%3D", "%3d"])
def test_base64_with_its_padding_escaped_is_masked_bare(seed: int, pad: str) -> None:
    token = _signature(seed) + pad
    for text in (
        SENTENCE.format(token),
        f"https://acct.blob.core.windows.net/c/b?sp=r&sig={token}",
    ):
        assert token not in scrub_secrets(text).text, text


@pytest.mark.parametrize(
    "text",
    [
        "see https://github.com/repos/owner%2Frepo/contents/path/to/File.txt?ref=main",
        "GET /api/v1/projects/group%2Fsubgroup%2Fproject/repository/files/src%2Fmain.py/raw",
        "https://example.com/redirect?url=https%3A%2F%2Fexample.org%2Fpath",
        "the filter was name%3Dvalue/other+thing%3D/and/more/words/here",
    ],
)
def test_escaped_paths_and_queries_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


VENDOR = [
    "CCIPRJ_Nw1xCXXyTW8uvdkHKLNUqK_4ad9cadd8b2b29d02a49ed03720fac5644f66c92",
    "essu_" + "Q" * 92,
    "essu_"
    + "VWtSQlNXNWFjMEpWWVZsbFVUZDBORmRQTldJNmNuWnVYMU5yY1ZGdlJ6aHVlRE5rWmxGelIy"
    + "A" * 19
    + "=",
    "packagist_ack_" + "a" * 28,
    "packagist_ack_7432cdc05ea3f83037723ff56638",
    "packagist_acs_" + "d3caf3a8" * 10,
    "packagist_ort_" + "0f" * 34,
    "sbp_" + "b" * 40,
    "sbp_0c5d2b1e8a9f7e6d5c4b3a2918f7e6d5c4b3a291",
    "sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz",
    "AQ.Ab8R" + "x" * 46,
]


@pytest.mark.parametrize("token", VENDOR)
def test_a_vendor_prefix_names_its_token_whatever_its_body(token: str) -> None:
    for text in (SENTENCE.format(token), f"KEY={token}", f"{token}\n", f'"{token}"'):
        assert token not in scrub_secrets(text).text, text


@pytest.mark.parametrize(
    "text",
    [
        "see packagist_api_docs and sbp_helper and essu_test",
        "packagist_ack_invalid",
        "the CCIPRJ_ prefix marks a CircleCI project token",
        "AQ.Ab8R is the prefix of an express-mode key",
        "sb_secret_ keys replace the service_role key",
    ],
)
def test_a_prefix_without_its_body_is_left(text: str) -> None:
    assert scrub_secrets(text).text == text


AWS_SECRET = "32r923jr023rk320rk2a3rkB34tj340r32Ckt433"
GCS_ID = "GOOG1984R439T439HTH439T403TJ430TK340TK43T430JT430TK430JT043JT"


@pytest.mark.parametrize(
    "text",
    [
        f"AKIA1984R439T439HTH4\n{AWS_SECRET}",
        f"config_app1:\n\t\t\tAKIA1984R439T439HTH4\n{AWS_SECRET}\n",
        f"Access key ID,Secret access key\r\nAKIA1984R439T439HTH4,{AWS_SECRET}\r\n",
        f"{GCS_ID}\n{AWS_SECRET}",
        f"{GCS_ID}:{AWS_SECRET}",
        f'"{GCS_ID}", "{AWS_SECRET}"',
    ],
)
def test_the_secret_after_an_access_keys_id_is_masked(text: str) -> None:
    assert AWS_SECRET not in scrub_secrets(text).text


@pytest.mark.parametrize(
    "second",
    [
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4",  # a commit's SHA-1
        "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4",  # one case, upper
        "This is the documentation line of forty c",
        "a" * 40,
    ],
)
def test_a_line_after_an_id_that_is_no_drawn_key_is_left(second: str) -> None:
    result = scrub_secrets(f"AKIAIOSFODNN7EXAMPLE\n{second}").text
    assert result.endswith(second)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            'HTTP/1.1 200 896 Cookie: "session_id=23rj302jr032mr03m2r03230r"',
            "23rj302jr032mr03m2r03230r",
        ),
        ("Cookie: PHPSESSID=abcdefghijklmnop1234; theme=dark", "abcdefghijklmnop1234"),
        ("Set-Cookie: remember_user_token=w8r2k9x0q3m5v7n1b4; Path=/", "w8r2k9x0q3m5v7n1b4"),
        ("Cookie: connect.sid=s%3A2k9x0q3m5v7n1b4w8r", "s%3A2k9x0q3m5v7n1b4w8r"),
    ],
)
def test_a_cookie_named_for_a_session_is_masked(text: str, value: str) -> None:
    result = scrub_secrets(text).text
    assert value not in result
    assert result.count('"') == text.count('"')  # its quotes are kept


@pytest.mark.parametrize(
    "text",
    [
        "Cookie: theme=dark; lang=en-GB; _ga=GA1.2.1234567890.1600000000",
        "Cookie: session_id=short",
        "Cookie: session_seen=2024-05-01T10:00:00Z",
        "Cookie: auth_pref=dark-mode-with-big-fonts-2024",  # words, not a session's draw
        "Cookie: author_pref=dark-mode-with-big-fonts-2024",
    ],
)
def test_other_cookies_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text

"""Drawn tokens the stand-alone rules split, and an auth-param's value (issue 32, tenth pass).

- A token holding signs of both base64 alphabets (``+`` or ``/`` with ``-`` or ``_``), or a
  ``~`` of the URL's unreserved signs (an Entra ID application's older 34-character
  passwords): no encoder writes them, a password generator draws them, and each stand-alone
  token rule stopped at the other's signs.
- A password drawn with one sign only, standing alone: masked when its letters and digits are
  drawn as a key's are (two signs were needed before).
- ``Authorization: Token token="<value>"``: the auth-param's name was masked, its value kept.

Values are drawn from a seed, never fixed fakes.
"""

from __future__ import annotations

import random
import string

import pytest

from kindling.secrets.scrub import scrub_secrets

ALNUM = string.ascii_letters + string.digits
SENTENCE = "the value {} came back from the call"


def _mixed(seed: int, n: int = 24) -> str:
    """Letters and digits with ``+`` and ``-`` or ``_`` among them, as a generator draws."""
    rng = random.Random(seed)
    while True:
        chars = [rng.choice("+"), rng.choice("-_"), *rng.choices(string.digits, k=2)]
        chars += [rng.choice(ALNUM + "+-_") for _ in range(n - 4)]
        rng.shuffle(chars)
        value = rng.choice(string.ascii_letters) + "".join(chars)
        core = "".join(c for c in value if c.isalnum())
        if sum(map(str.isupper, core)) >= 3 and sum(map(str.islower, core)) >= 3:
            return value


def _unreserved(seed: int) -> str:
    """34 of the URL's unreserved characters with a ``~`` among them."""
    rng = random.Random(seed)
    chars = ["~", *rng.choices(string.digits, k=2), *rng.choices(ALNUM + "-_.~", k=30)]
    rng.shuffle(chars)
    return rng.choice(string.ascii_letters) + "".join(chars)


def _one_sign(seed: int, n: int = 20) -> str:
    rng = random.Random(seed)
    chars = [rng.choice("!@#$%^&*"), *rng.choices(string.digits, k=4)]
    chars += [rng.choice(string.ascii_uppercase), rng.choice(string.ascii_lowercase)]
    chars += rng.choices(ALNUM, k=n - len(chars) - 1)
    rng.shuffle(chars)
    return rng.choice(string.ascii_letters) + "".join(chars)


@pytest.mark.parametrize("seed", range(8))
def test_a_token_of_both_base64_alphabets_is_masked_alone(seed: int) -> None:
    value = _mixed(seed)
    for text in (SENTENCE.format(value), f'"{value}"', f"{value}\n", f"it is {value}."):
        out = scrub_secrets(text).text
        assert value not in out, out
        assert "[REDACTED:random_token]" in out


def test_most_unreserved_draws_with_a_tilde_are_masked_alone() -> None:
    values = [_unreserved(100 + i) for i in range(200)]
    masked = sum(v not in scrub_secrets(SENTENCE.format(v)).text for v in values)
    assert masked >= 0.85 * len(values)


def test_most_one_sign_passwords_are_masked_alone() -> None:
    values = [_one_sign(300 + i) for i in range(200)]
    masked = sum(v not in scrub_secrets(SENTENCE.format(v)).text for v in values)
    assert masked >= 0.85 * len(values)


def _slashed(seed: int) -> str:
    """Standard base64's ``/`` (no ``+``) and URL-safe ``-`` in one draw, as a generator of
    long secrets writes them (issue 32, 25th pass: SonarSource's analyzers' tests)."""
    rng = random.Random(seed)
    parts = ["".join(rng.choices(ALNUM, k=rng.randint(24, 40))) for _ in range(3)]
    return f"{parts[0]}//{parts[1]}/{parts[2]}-{rng.choice(ALNUM)}{rng.randint(10, 99)}y"


@pytest.mark.parametrize("seed", range(8))
def test_a_draw_with_slashes_and_a_dash_is_no_path(seed: int) -> None:
    value = _slashed(seed)
    for text in (SENTENCE.format(value), f'tuna = "{value}"'):
        out = scrub_secrets(text).text
        assert value not in out, out


@pytest.mark.parametrize("seed", range(6))
def test_an_auth_params_value_is_masked_not_its_name(seed: int) -> None:
    rng = random.Random(seed)
    word = "".join(rng.choices(string.ascii_lowercase, k=7))
    value = f"{word.capitalize()}{rng.randrange(1000, 9999)}{rng.choice('!#$')}{word[:3]}"
    for quote in ('"', "'"):
        text = f"Authorization: Token token={quote}{value}{quote}, other=1"
        out = scrub_secrets(text).text
        assert value not in out, out
        assert out.startswith(f"Authorization: Token token={quote}[REDACTED:authorization]")


@pytest.mark.parametrize(
    "text",
    [
        "cd ~/src/My_App-2/Build3Xy9Kq and run it",
        "ls ~/.cache/pip/wheels/Ab3dE/x_Y",
        "C:\\PROGRA~1\\Vendor_App-2\\Bin",
        "git diff HEAD~3 main~2 release-2.4~1",
        "apt install foo=1.0~beta1+dfsg-2ubuntu3",
        "pip install torch==2.1.0+cu121 torch-2.1.0+cu121_cp311",
        "x_1+x_2-y_3/z_4 = total_value+Offset_2",
        "see src/app_v2/Main-3Xy9Qz/File_8 for it",
        "ls /nix/store/0c4ysmb8zqlgmvn5qbdnbx24rkqy3k5c-python3-3.11.9/bin",
        "see node_modules/@types/react-dom/ReactDOMServerLegacyRenderer-v18 file",
        "src/components/VeryLongComponentNameForTesting/Index-v2",
        "rsync -a src/My_Module-v2/ host:/srv/Other_Dir-3/",
        "1.0.0-rc.1+build.20240101-abc_def",
        "a_b+c_d~e-f/g_h+i_j~k",
        "Authorization: Basic [REDACTED:authorization]",
    ],
)
def test_look_alikes_of_mixed_alphabets_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


def test_a_basic_credential_keeps_its_padding_masked() -> None:
    """The auth-param form needs a quote after ``=``: base64's own ``=`` is no param."""
    rng = random.Random(9)
    value = "".join(rng.choices(ALNUM, k=22)) + "=="
    out = scrub_secrets(f"Authorization: Basic {value}").text
    assert out == "Authorization: Basic [REDACTED:authorization]"

"""Secrets written among other languages and scripts (issue 32, ninth pass).

People write to their agents in their own language: ``密码：<value>``, ``パスワードは <value>
です``, ``Passwort: <value>``. The password word of 21 languages is a key now, with ``:``,
``=``, a full-width colon or the language's "is" after it; the value is the run of ASCII
characters that follows. A generated value after ``<name>=`` is judged as one after an English
name is, whatever the script of the name (``密码=<value>`` was left, the value judged to be
inside a word).

Values are drawn from a seed, never fixed fakes.
"""

from __future__ import annotations

import random
import string

import pytest

from kindling.secrets.scrub import scrub_secrets

ALNUM = string.ascii_letters + string.digits


def _password(seed: str) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(6)) + str(rng.randrange(100))


@pytest.mark.parametrize(
    "form",
    [
        "密码：{}",
        "数据库密码是 {}。",
        "密碼: {}",
        "パスワードは {} です",
        "「パスワード」は「{}」",
        "비밀번호는 {}",
        "비밀번호: {}",
        "Passwort: {}",
        "DB_PASSWORT={}",
        "Kennwort ist {}",
        "mot de passe : {}",
        'contraseña: "{}"',
        "senha é {}",
        "wachtwoord = {}",
        "hasło jest {}",
        "lösenord är {}",
        "пароль: {}",
        "salasana={}",
    ],
)
def test_a_password_after_its_word_in_another_language_is_masked(form: str) -> None:
    value = _password(form)
    out = scrub_secrets(form.format(value)).text
    assert value not in out, out
    assert "[REDACTED:password]" in out


@pytest.mark.parametrize(
    "text",
    [
        "密码学很难",  # cryptography is hard
        "암호화: AES256",  # encryption: the cipher, no password
        "密码：必填",  # password: required
        "Passwort: required",
        "senha = ${SENHA}",
        "Die Passwortlänge ist 12345",  # a longer word
        "la parola è casa1234",  # Italian "word"
    ],
)
def test_look_alikes_in_other_languages_are_left(text: str) -> None:
    assert scrub_secrets(text).text == text


@pytest.mark.parametrize("name", ["密码", "パスワード", "비밀번호", "пароль", "session", "sid"])
def test_a_generated_value_after_a_name_in_any_script_is_judged_alone(name: str) -> None:
    rng = random.Random(name)
    for _ in range(10):
        key = "".join(rng.choice(ALNUM) for _ in range(32))
        encoded = rng.choice(ALNUM) + "".join(rng.choice(ALNUM + "+") for _ in range(39))
        for value in (key, encoded):
            out = scrub_secrets(f"{name}={value}").text
            assert value not in out, out


def test_a_digest_after_its_label_is_still_left() -> None:
    for text in (
        "integrity=sha512-" + "A" * 20 + "b+c/d" + "E" * 20,
        "digest=" + "Zm9vYmFy" * 4,
    ):
        assert scrub_secrets(text).text == text

"""Keys drawn from letters alone (issue 32, twentieth pass; ``secrets.scrub_letters``).

repo-supervisor's random secrets (read after its held-out figure was taken) drew 21
characters from letters of one case, or from letters with ``-`` and ``_``: no digit, so the
stand-alone token rule never judged them. A draw of one case, 20+ letters, and a draw of both
cases with base64url's signs are masked now; names, words and typed rows are left.

Draws come from a seed; no fixed fake stands for them.
"""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling.secrets.scrub import scrub_secrets
from kindling.secrets.scrub_letters import drawn_letters

SENTENCE = "the value {} came back from the call"


def _draws(alphabet: str, n: int, count: int = 200) -> list[str]:
    rng = random.Random(n)
    out: list[str] = []
    while len(out) < count:
        value = "".join(rng.choice(alphabet) for _ in range(n))
        if value.strip("-_") == value and (alphabet.isalpha() or value.strip(string.ascii_letters)):
            out.append(value)
    return out


@pytest.mark.parametrize(
    ("alphabet", "n", "least"),
    [
        (string.ascii_lowercase, 24, 0.55),
        (string.ascii_uppercase, 24, 0.55),
        (string.ascii_lowercase, 32, 0.55),
        (string.ascii_letters + "-_", 21, 0.7),
        (string.ascii_letters + "-_", 28, 0.85),
    ],
)
def test_most_letter_draws_are_masked_bare(alphabet: str, n: int, least: float) -> None:
    draws = _draws(alphabet, n)
    masked = sum(d not in scrub_secrets(SENTENCE.format(d)).text for d in draws)
    assert masked >= least * len(draws), masked


@pytest.mark.parametrize(
    "form", ['    "{}",', "token: {}", "{}", "export ACME_ID={}", "<td>{}</td>"]
)
def test_a_letter_draw_is_masked_in_its_forms(form: str) -> None:
    draw = next(d for d in _draws(string.ascii_lowercase, 22) if drawn_letters(d))
    text = form.format(draw)
    out = scrub_secrets(text).text
    assert draw not in out, out


@pytest.mark.parametrize(
    "token",
    [
        "internationalization",
        "donaudampfschifffahrtsgesellschaft",
        "thequickbrownfoxjumpsoverthelazydog",
        "abcdefghijklmnopqrstuvwxyz",
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "qwertyuiopasdfghjklzxcvbnm",
        "zyxwvutsrqponmlkjihgfedcba",
        "acgtacgttgcaggctaacgtacgatcg",  # a DNA sequence
        "aaaaaaaaaaaaaaaaaaaaaaaa",
        "PFNGLGETNPIXELMAPFVPROC",  # an OpenGL function pointer's type
        "PFNGLPATHGLYPHSNVPROC",
        "sz_xRenderAddGlyphsReq",
        "get_access_token_from_headers",
        "SOME_LONG_CONSTANT_NAME_HERE",
        "Content-Security-Policy-Report-Only",
        "x-amz-server-side-encryption-customer",
        "notificationserviceextension",
    ],
)
def test_names_and_words_of_letters_are_left(token: str) -> None:
    assert not drawn_letters(token)
    text = SENTENCE.format(token)
    assert scrub_secrets(text).text == text


@pytest.mark.parametrize(
    "token",
    [
        "ndsbyvtebprybbvehgjqa",  # repo-supervisor's, one case
        "HDS-wP-_QzTDTZbRuDHMF",  # and with base64url's signs
        "cmnvH-PMEuKdVCF-tN_Nh",
        "b-bY_BXe_qHaSUBMrddXN",
    ],
)
def test_the_read_draws_are_masked(token: str) -> None:
    assert drawn_letters(token)
    assert token not in scrub_secrets(f'    "{token}",').text


@pytest.mark.parametrize("name", ["_AddVmwareDhcpIpConfig", "XkbSA_DfltBtnAbsolute"])
def test_names_in_humps_are_no_letter_draws(name: str) -> None:
    # (another judge reads their parts: ``generated_part``)
    assert not drawn_letters(name)


def test_letters_with_digits_or_other_signs_are_not_this_judges() -> None:
    # digits go to the other draws' judges; dots and slashes make hosts and paths
    for token in ("ndsbyvtebprybbvehgjqa1", "nds.byvtebprybbvehgjqa", "nds/byvtebprybbvehgjqa"):
        assert not drawn_letters(token)
    assert not drawn_letters("HDS-wP-_QzT-DTZ-bRuDHMF")  # four signs: no base64url draw
    assert not drawn_letters("ndsbyvtébprybbvehgjqa")  # not ASCII


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=string.ascii_letters + "-_", min_size=0, max_size=48))
def test_drawn_letters_never_raises_and_scrubbing_is_stable(token: str) -> None:
    drawn_letters(token)
    once = scrub_secrets(SENTENCE.format(token)).text
    assert scrub_secrets(once).text == once

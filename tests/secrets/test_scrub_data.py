"""The rules loaded as data (``secrets.scrub_data``): kingfisher's, gitleaks', Microsoft's,
CredSweeper's and betterleaks'.

Microsoft's identifiable keys carry a fixed signature at a fixed place (``+ASt`` in an Azure
storage key, ``AzFu`` in a function key, ``8Q~`` in an Entra ID client secret): with random
characters around it, each must be masked bare, in a sentence, by its signature alone.
"""

from __future__ import annotations

import importlib.util
import json
import random
import re
import string
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kindling.secrets import scrub_data
from kindling.secrets.scrub import scrub_secrets

B64 = string.ascii_letters + string.digits + "+/"
URLSAFE = string.ascii_letters + string.digits + "-_"


def _draw(rng: random.Random, n: int, alphabet: str = B64) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


# (name, a key of the family, from a seeded draw)
IDENTIFIABLE: dict[str, Callable[[random.Random], str]] = {
    "storage account key": lambda r: _draw(r, 76) + "+ASt" + _draw(r, 5) + r.choice("AQgw") + "==",
    "Cosmos DB key": lambda r: _draw(r, 76) + "ACDb" + _draw(r, 5) + r.choice("AQgw") + "==",
    "API Management key": lambda r: _draw(r, 76) + "APIM" + _draw(r, 5) + r.choice("AQgw") + "==",
    "function key": lambda r: (
        _draw(r, 44, URLSAFE) + "AzFu" + _draw(r, 5, URLSAFE) + r.choice("AQgw") + "=="
    ),
    "Event Hub key": lambda r: (
        _draw(r, 33) + "+AEh" + r.choice("ABCDEFGHIJKLMNOP") + _draw(r, 5) + "="
    ),
    "Redis key": lambda r: _draw(r, 33) + "AzCa" + r.choice("ABCDEFGHIJKLMNOP") + _draw(r, 5) + "=",
    "container registry key": lambda r: _draw(r, 42) + "+ACR" + r.choice("ABCD") + _draw(r, 5),
}


def test_every_data_file_loads_and_every_pattern_compiles() -> None:
    sources = []
    for path in scrub_data.DATA_FILES:
        data = json.loads(Path(path).read_text("utf-8"))
        sources.append(data["source"])
        assert data["licence"] in ("Apache-2.0", "MIT")
        assert re.fullmatch(r"[0-9a-f]{40}", data["commit"])
        for _, keyword, pattern, _ in data["rules"]:
            for word in keyword if isinstance(keyword, list) else [keyword]:
                assert word == word.lower()
                assert len(word) >= 3
            assert re.compile(pattern, re.ASCII).groups <= 1 or data["source"] == "kingfisher"
    assert sources == [
        "kingfisher",
        "gitleaks",
        "microsoft/security-utilities",
        "Samsung/CredSweeper",
        "betterleaks",
    ]
    assert len(scrub_data.data_rules()) > 1000


def _rules(source: str) -> list[tuple[str, list[str], str, float]]:
    for path in scrub_data.DATA_FILES:
        data = json.loads(Path(path).read_text("utf-8"))
        if data["source"] == source:
            return [(name, list(words), pattern, e) for name, words, pattern, e in data["rules"]]
    raise AssertionError(source)


def test_betterleaks_adds_only_rules_gitleaks_lacks_and_only_for_secrets() -> None:
    # Issue 32, 24th pass: betterleaks (gitleaks' successor, by its author) is read as gitleaks
    # is, less what gitleaks' file already holds, the rules that report an id, a host or a URL,
    # those a word of every config file wakes (``key``: Kindling's key-value rules do that) and
    # those that mask a whole document (a JWT of any kind, a service account's JSON).
    gitleaks = {name.split(".", 1)[1] for name, *_ in _rules("gitleaks")}
    better = {name.split(".", 1)[1]: words for name, words, *_ in _rules("betterleaks")}
    assert len(better) > 100
    assert gitleaks.isdisjoint(better)
    place = re.compile(r"-(?:id|ids|url|host|name|address|domain)(?:\.\d+)?$")
    assert [name for name in better if place.search(name)] == []
    every_config = {"key", "secret", "token", "access", "client", "storage", "poly"}
    assert [name for name, words in better.items() if every_config & set(words)] == []
    assert {"jwt", "gcp-service-account", "lark-app-id", "azure-client-id"}.isdisjoint(better)


@pytest.mark.parametrize(
    "key",
    [
        # Prefixes only betterleaks names, before bodies no draw would make: masked all the same.
        "rootly_" + "0123456789abcdef" * 4,
        "lip_" + "abcdefghijklmnop",
        "napi_" + "a" * 64,
        "ramp_sec_" + "0" * 48,
    ],
)
def test_a_key_only_betterleaks_names_is_masked_bare(key: str) -> None:
    out = scrub_secrets(f"the value {key} came back from the call").text
    assert out == "the value [REDACTED:vendor_secret] came back from the call"


@pytest.mark.parametrize(
    "text",
    [
        # betterleaks' Brave key is ``BSA`` and 24 to 40 characters: a name spelled from words
        # after those letters is no key.
        "x = BSAttributeDescriptionsForClass(1)",
        "lip_sync_controller_main_v2(frame)",
        "tss_timeseries_storage_backend = None",
    ],
)
def test_names_a_data_rule_could_read_as_keys_stay(text: str) -> None:
    assert scrub_secrets(text).text == text


@pytest.mark.parametrize("name", sorted(IDENTIFIABLE))
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_an_identifiable_key_is_masked_bare(name: str, seed: int) -> None:
    key = IDENTIFIABLE[name](random.Random(seed))
    out = scrub_secrets(f"the value {key} came back from the call").text
    assert key not in out
    assert out.startswith("the value [REDACTED:")


def test_a_missing_data_file_leaves_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    whole = len(scrub_data.data_rules())
    monkeypatch.setattr(scrub_data, "DATA_FILES", (*scrub_data.DATA_FILES[:1], "/nonexistent"))
    assert 0 < len(scrub_data.data_rules()) < whole


def test_no_gitleaks_pattern_starts_with_its_lazy_lead() -> None:
    # gitleaks starts most patterns with ``[\w.-]{0,50}?`` (the key's name, for its report):
    # the scan tried 51 lengths of it at every position, and 1 MiB of dotted words that named
    # a few vendors took minutes. ``scripts/build_secret_corpora.py`` drops it (issue 32).
    data = json.loads(Path(scrub_data.DATA_FILES[1]).read_text("utf-8"))
    assert data["source"] == "gitleaks"
    lead = re.compile(r"(?:\(\?[aiLmsux]+[:)])*\[\\w\.-\]\{0,50\}\?")
    assert [name for name, _, pattern, _ in data["rules"] if lead.match(pattern)] == []


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), lead=st.sampled_from(["telegram bot ", "tgram://"]))
def test_a_rule_that_starts_with_a_choice_of_words_is_woken_by_each(seed: int, lead: str) -> None:
    # kingfisher's Telegram rule starts ``(?:telegram|tgram://)``: no single literal, so it was
    # left out until each word of a leading choice could wake a rule.
    r = random.Random(seed)
    token = f"{r.randrange(10**7, 10**10)}:{_draw(r, 34, URLSAFE)}{_draw(r, 1, string.digits)}"
    out = scrub_secrets(f"the bot: {lead}{token} answered").text
    assert token.split(":")[1] not in out
    assert out == f"the bot: {lead}[REDACTED:vendor_secret] answered"


def test_every_word_of_a_rule_that_starts_with_a_choice_is_its_keyword() -> None:
    data = json.loads(Path(scrub_data.DATA_FILES[0]).read_text("utf-8"))
    keywords = {name: keyword for name, keyword, _, _ in data["rules"]}
    assert keywords["kingfisher.telegram.1"] == ["telegram", "tgram://"]
    assert keywords["kingfisher.replicate.1"] == "r8_"  # a literal inside the secret's group
    assert "kingfisher.stripe.1" not in keywords  # it also reports publishable keys


def _builder() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "scripts" / "build_secret_corpora.py"
    spec = importlib.util.spec_from_file_location("build_secret_corpora", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("go", "python"),
    [
        (r"(?i)abc", r"(?i)abc"),  # at the start: Python reads it as Go does
        (r"lin_api_(?i)[a-z0-9]{4}", r"lin_api_(?i:[a-z0-9]{4})"),
        (r"\b(p8e-(?i)[a-z]{2})(?:[;]|$)", r"\b(p8e-(?i:[a-z]{2}))(?:[;]|$)"),
        (r"x[(?i)]y(?i)z", r"x[(?i)]y(?i:z)"),  # a class's brackets are characters
        (r"\((?i)a\)", r"\((?i:a\))"),  # so are escaped ones
        (r"(a(?i)b)|c", r"(a(?i:b))|c"),
        (r"ab(?i)c|d", None),  # the scope would change what ``|`` chooses between
    ],
)
def test_a_gitleaks_flag_after_the_start_holds_to_the_end_of_its_group(
    go: str, python: str | None
) -> None:
    assert _builder().scoped_flags(go) == python


def test_gitleaks_rules_with_a_flag_after_their_start_are_loaded() -> None:
    data = json.loads(Path(scrub_data.DATA_FILES[1]).read_text("utf-8"))
    patterns = {name: pattern for name, _, pattern, _ in data["rules"]}
    linear = re.compile(patterns["gitleaks.linear-api-key"], re.ASCII)
    assert linear.search("lin_api_" + "A1b2" * 10)  # the flag holds after the prefix
    assert not linear.search("LIN_API_" + "a1b2" * 10)  # and not before it
    assert "gitleaks.flutterwave-public-key" not in patterns  # public by design


@pytest.mark.slow  # every rule, keyword and fill, once a thousand times over: about a minute
def test_no_data_rule_backtracks_after_its_keyword() -> None:
    # Python's engine backtracks where the scanners' own (Rust, Go) do not: kingfisher's
    # ``(?:.|[\n\r]){0,32}?`` took 2^n tries through a run of n carriage returns, so 40 of
    # them after a vendor's name held the write path for days. The builder writes it
    # ``[\s\S]`` and leaves out any rule its probe (each keyword, then 40 of a character or
    # pair; or a thousand times 16 of them) finds slow; this is the same probe, on every rule
    # as loaded.
    builder = _builder()
    slow = []
    for path in scrub_data.DATA_FILES:
        for name, keyword, pattern, _ in json.loads(Path(path).read_text("utf-8"))["rules"]:
            words = keyword if isinstance(keyword, list) else [keyword]
            if builder.backtracks(pattern, words, budget_s=5.0):
                slow.append(name)
    assert slow == []

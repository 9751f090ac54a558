"""docs/glossary.md is the vocabulary: a test reads its tables and greps src/ and docs/."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.paths import ROOT

SRC = ROOT / "src" / "kindling"
GLOSSARY = ROOT / "docs" / "glossary.md"
WORD = re.compile(r"\w*redact\w*", re.IGNORECASE)
# Modules whose job is forgetting: scrubbing is another concept and never named there.
FORGET_MODULES = ("engine/forget.py", "store/sqlite/forget.py", "store/sqlite/purge.py")
# Modules whose job is scrubbing: of the "redact" words only the scrub wire names appear there.
SCRUB_MODULES = (
    *("secrets/scrub.py", "secrets/scrub_rules.py", "secrets/scrub_keyed.py"),
    *("secrets/scrub_values.py", "secrets/scrub_keywords.py", "secrets/privacy.py"),
    *("secrets/scrub_named.py", "secrets/scrub_keys.py"),
)
# (plus "redacted" as a word the scrubber reads in logs: ``password: redacted`` is no password)
SCRUB_WIRE = {"redactedKinds", "REDACTED_KINDS_KEY", "REDACTED", "redacted"}
# Adapters that are not the chat-memory bridge: there an observation is never "a memory".
NOT_BRIDGE = ("mcp", "hooks", "cli")
COUNTABLE_MEMORY = re.compile(r"\b(?:an? memory|memories)\b", re.IGNORECASE)


def _wire_names() -> set[str]:
    text = GLOSSARY.read_text(encoding="utf-8")
    section = text.split("## Wire names", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([^`]+)` \|", section, re.MULTILINE))


def _texts() -> dict[str, str]:
    files = [*SRC.rglob("*.py"), *(ROOT / "docs").glob("*.md"), ROOT / "README.md"]
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in files if p != GLOSSARY}


def _files(parts: tuple[str, ...]) -> list[Path]:
    found: list[Path] = []
    for part in parts:
        target = SRC / part
        found.extend(sorted(target.rglob("*.py")) if target.is_dir() else [target])
    return found


def test_the_glossary_lists_wire_names() -> None:
    names = _wire_names()
    assert {"redacted", "includeRedacted", "redactedKinds"} <= names


def test_every_redact_word_is_a_listed_wire_name() -> None:
    allowed = _wire_names()
    unknown = {
        f"{name}: {word}"
        for name, text in _texts().items()
        for word in WORD.findall(text)
        if word not in allowed
    }
    assert unknown == set(), "add the word to docs/glossary.md or use forget / scrub"


def test_forget_modules_never_speak_of_scrubbing() -> None:
    for path in _files(FORGET_MODULES):
        assert "scrub" not in path.read_text(encoding="utf-8").lower(), path


def test_scrub_modules_use_only_scrub_wire_names() -> None:
    for path in _files(SCRUB_MODULES):
        words = set(WORD.findall(path.read_text(encoding="utf-8")))
        assert words <= SCRUB_WIRE, (path, words - SCRUB_WIRE)


def test_outside_the_bridge_an_observation_is_never_a_memory() -> None:
    for path in _files(NOT_BRIDGE):
        if path.name == "bridge.py":
            continue
        found = COUNTABLE_MEMORY.findall(path.read_text(encoding="utf-8"))
        assert found == [], (path, found)


def test_bridge_score_fields_are_in_the_glossary() -> None:
    from kindling.bridge import render

    text = GLOSSARY.read_text(encoding="utf-8")
    fields = set(re.findall(r'"(\w*(?:score|multiplier))"', Path(render.__file__).read_text()))
    assert len(fields) == 6
    assert [f for f in sorted(fields) if f"| `{f}` |" not in text] == []


def _section(title: str) -> str:
    text = GLOSSARY.read_text(encoding="utf-8")
    return text.split(f"## {title}", 1)[1].split("\n## ", 1)[0]


def test_every_seed_the_code_cites_is_defined() -> None:
    defined = set(re.findall(r"^\| (\d{3}) \|", _section("Seeds"), re.MULTILINE))
    cited = {
        number
        for text in _texts().values()
        for number in re.findall(r"\bseeds? (\d{3})\b", text, re.IGNORECASE)
    }
    assert "000" in cited
    assert cited <= defined, "define the seed in docs/glossary.md's Seeds table"


def test_each_meaning_of_token_is_defined() -> None:
    terms = set(re.findall(r"^\| ([^|]+?) \|", _section("Token: five meanings"), re.MULTILINE))
    assert {"API token (bearer token)", "budget token", "scope token"} <= terms
    assert {"token (secret kind)", "index token (FTS token)"} <= terms


def test_each_meaning_of_seed_is_defined() -> None:
    terms = set(re.findall(r"^\| ([^|]+?) \|", _section("Seeds"), re.MULTILINE))
    assert {"spec seed", "RNG seed", "seed (verb)"} <= terms

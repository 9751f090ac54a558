"""The compiled-pattern cache (``secrets.regex_cache``): a pattern from the cache is the one
``re.compile`` returns, whatever the file holds, and the file holds pattern sources only."""

from __future__ import annotations

import importlib
import marshal
import os
import pkgutil
import re
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import kindling.secrets
from kindling.hooks import mapping
from kindling.secrets import regex_cache, scrub_context, scrub_rules
from kindling.secrets.scrub_values import LazyPattern, LazyRe, P
from tests.support.hooks import payload, run_hook
from tests.support.secret_corpus import SECRETS, planted


@pytest.fixture(autouse=True)
def _cache_off() -> Iterator[None]:
    yield
    regex_cache.enable(None)


def _file(directory: Path) -> Path:
    (path,) = directory.glob("regex-*.bin")
    return path


def _warm(directory: Path, sources: list[tuple[str, int]]) -> None:
    """Compile ``sources`` in a fresh cache and write it, as a first hook would."""
    regex_cache.enable(str(directory))
    for source, flags in sources:
        regex_cache.compile(source, flags)
    regex_cache.save()
    regex_cache.enable(str(directory))  # as the next process: read back from the file


def _rule_sources() -> list[tuple[str, int]]:
    """Every pattern source of the scrubber's rules, with its flags."""
    rules = scrub_rules.compile_rules()
    return [(pattern.source, pattern.flags) for _, pattern, _ in rules]


SOME = [(r"(?P<key>[A-Z_]+)=(?P<value>\S++)", re.ASCII), (r"\bghp_[A-Za-z0-9]{36}\b", 0)]


def test_every_rule_pattern_from_the_cache_equals_re_compile(tmp_path: Path) -> None:
    sources = _rule_sources()
    assert len(sources) > 100
    regex_cache.enable(str(tmp_path))
    cold = [regex_cache.compile(s, f) for s, f in sources]
    regex_cache.save()
    regex_cache.enable(str(tmp_path))
    warm = [regex_cache.compile(s, f) for s, f in sources]
    expected = [re.compile(s, f) for s, f in sources]
    # Pattern equality compares the source, the flags and the whole compiled program.
    assert cold == expected
    assert warm == expected
    assert [p.groupindex for p in warm] == [p.groupindex for p in expected]
    assert [p.groups for p in warm] == [p.groups for p in expected]


FRAGMENTS = [
    "a", "b", "Z", "0", r"\d", r"\w", r"\s", r"\b", ".", "[a-f]", "[^x-z]", r"[\w.-]",
    "(?:ab|cd)", "(a)", "(?P<n>b)", "(?P=n)", r"\1", "a*", "b+?", "c{2,3}", "d{1,4}+", "e*+",
    "(?=a)", "(?!b)", "(?<=c)", "(?<!d)", "(?i:q)", "(?-i:Q)", "^", "$", r"\Z", "|", "(?>ab*)",
    "é", "ß", r"\x41", " ", "#", r"\n",
]  # fmt: skip
FLAGS = [0, re.IGNORECASE, re.MULTILINE, re.DOTALL, re.VERBOSE, re.ASCII, re.ASCII | re.I]


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    parts=st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=8),
    flags=st.sampled_from(FLAGS),
    texts=st.lists(st.text(alphabet="abcdqzZ0Qé ß\n_.-", max_size=30), max_size=5),
)
def test_cached_patterns_behave_as_re_compile(
    tmp_path: Path, parts: list[str], flags: int, texts: list[str]
) -> None:
    source = "".join(parts)
    try:
        expected = re.compile(source, flags)
    except re.error:
        assume(False)
        raise
    directory = tmp_path / f"c{abs(hash((source, flags)))}"
    _warm(directory, [(source, flags)])
    cached = regex_cache.compile(source, flags)
    assert cached == expected
    assert (cached.flags, cached.groups, cached.groupindex) == (
        expected.flags,
        expected.groups,
        expected.groupindex,
    )
    for text in texts:
        assert [m.span() for m in cached.finditer(text)] == [
            m.span() for m in expected.finditer(text)
        ]
        assert cached.sub("-", text) == expected.sub("-", text)


def test_a_bad_source_still_raises_re_error(tmp_path: Path) -> None:
    regex_cache.enable(str(tmp_path))
    with pytest.raises(re.error):
        regex_cache.compile("(unclosed", 0)
    regex_cache.save()
    assert not list(tmp_path.glob("regex-*.bin"))


def _damaged(data: bytes) -> list[bytes]:
    damaged = []
    for at in range(len(regex_cache.FILE_MAGIC), len(data), max(1, len(data) // 40)):
        flipped = bytearray(data)
        flipped[at] ^= 0x10  # a bit flipped in a key, a program, a digest or the structure
        damaged.append(bytes(flipped))
    return [
        *damaged,
        b"",
        b"garbage",
        data[: len(data) // 2],  # truncated
        b"XXXXX\n" + data[len(regex_cache.FILE_MAGIC) :],  # another format
        data + b"tail",
        os.urandom(len(data)),
    ]


def test_a_damaged_or_foreign_file_falls_back_silently(tmp_path: Path) -> None:
    _warm(tmp_path, SOME)
    path = _file(tmp_path)
    expected = [re.compile(s, f) for s, f in SOME]
    for bad in _damaged(path.read_bytes()):
        path.write_bytes(bad)
        regex_cache.enable(str(tmp_path))
        assert [regex_cache.compile(s, f) for s, f in SOME] == expected
        regex_cache.save()  # what was damaged is compiled and written again
        regex_cache.enable(str(tmp_path))
        entries = regex_cache._load()
        assert {(s, int(f)) for s, f in SOME} <= set(entries)
        assert all(regex_cache._intact(key, stored) for key, stored in entries.items())
        assert [regex_cache.compile(s, f) for s, f in SOME] == expected
        assert not regex_cache._added  # all hits


def test_a_file_of_another_interpreter_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patch:
        patch.setattr(regex_cache, "_stamp", lambda: ("1", "0", "another python", "x"))
        _warm(tmp_path, SOME)
    regex_cache.enable(str(tmp_path))
    assert regex_cache._load() == {}
    assert [regex_cache.compile(s, f) for s, f in SOME] == [re.compile(s, f) for s, f in SOME]


def test_a_program_sre_refuses_is_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A well-formed file whose program is wrong: _sre validates programs and raises; the
    # pattern comes from re.compile.
    source, flags = SOME[0]
    good = re.compile(source, flags)
    bad = (good.flags, [99999, 1, 2], good.groups, dict(good.groupindex), (None, "key", "value"))
    for stored in (marshal.dumps(bad), b"not marshal", marshal.dumps(("a", "tuple"))):
        regex_cache._write(str(tmp_path), {(source, int(flags)): stored})
        regex_cache.enable(str(tmp_path))
        assert regex_cache.compile(source, flags) == good


def test_a_file_others_can_write_is_ignored(tmp_path: Path) -> None:
    if not hasattr(os, "getuid"):
        pytest.skip("no file modes on this platform")
    _warm(tmp_path, SOME)
    path = _file(tmp_path)
    path.chmod(0o666)
    regex_cache.enable(str(tmp_path))
    assert regex_cache._load() == {}
    assert regex_cache.compile(*SOME[0]) == re.compile(*SOME[0])


def test_the_file_is_private_and_written_only_when_something_was_compiled(tmp_path: Path) -> None:
    directory = tmp_path / "home" / "cache"  # neither exists yet
    regex_cache.enable(str(directory))
    regex_cache.save()
    assert not directory.exists()
    _warm(directory, SOME)
    path = _file(directory)
    if hasattr(os, "getuid"):
        assert stat.S_IMODE(directory.stat().st_mode) == 0o700
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not [p for p in directory.iterdir() if p != path]  # no temporary file left
    before = path.stat().st_mtime_ns
    regex_cache.compile(*SOME[0])  # a hit: nothing new to write
    regex_cache.save()
    assert path.stat().st_mtime_ns == before


def test_an_unwritable_directory_leaves_the_cache_cold(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    regex_cache.enable(str(blocker / "cache"))
    assert regex_cache.compile(*SOME[0]) == re.compile(*SOME[0])
    regex_cache.save()  # never raises


def test_disabled_compiles_with_re_and_writes_nothing(tmp_path: Path) -> None:
    regex_cache.enable(str(tmp_path / "cache"))
    regex_cache.enable(None)
    assert regex_cache.compile(*SOME[0]) == re.compile(*SOME[0])
    regex_cache.save()
    assert not (tmp_path / "cache").exists()


def _static_sources() -> set[str]:
    """Every pattern source written in the scrubber's modules (what may reach the cache)."""
    sources = {source for source, _ in _rule_sources()}
    sources |= {v.pattern for v in vars(P).values() if isinstance(v, re.Pattern)}
    for info in pkgutil.iter_modules(kindling.secrets.__path__):
        importlib.import_module(f"kindling.secrets.{info.name}")  # (some load on first use)
    modules = [m for name, m in sys.modules.items() if name.startswith("kindling.secrets.")]
    assert scrub_context in modules
    for module in [*modules, mapping]:
        for value in vars(module).values():
            if isinstance(value, re.Pattern):
                sources.add(value.pattern)
            elif isinstance(value, LazyRe):
                sources.add(value._source)
            elif isinstance(value, LazyPattern):
                sources.add(value.source)
    return sources


def test_a_hook_caches_pattern_sources_never_the_secrets_it_scrubbed(git_repo: Path) -> None:
    text = "\n".join(planted(name) for name in SECRETS)
    leak = payload(
        "post_tool_use_bash",
        git_repo,
        tool_input={"command": "cat config"},
        tool_response={"stdout": text, "stderr": ""},
    )
    assert run_hook("PostToolUse", leak).returncode == 0
    home = Path(os.environ["KINDLING_HOME"])
    path = _file(home / "cache")
    raw = path.read_bytes()
    for value, _ in SECRETS.values():
        assert value.encode() not in raw
    regex_cache.enable(str(home / "cache"))
    cached = regex_cache._load()
    assert len(cached) > 20  # the hook used the cache
    assert {source for source, _ in cached} <= _static_sources()
    if hasattr(os, "getuid"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    # The next hook reads what the first one wrote.
    assert run_hook("PostToolUse", leak).returncode == 0
    assert path.read_bytes() == raw


def test_a_fifo_or_a_symlink_in_place_of_the_file_is_not_read(tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    _warm(tmp_path / "real", SOME)
    real = _file(tmp_path / "real")
    for make in (os.mkfifo, lambda path: os.symlink(real, path)):
        directory = tmp_path / f"d{id(make)}"
        directory.mkdir(mode=0o700)
        make(str(directory / real.name))
        regex_cache.enable(str(directory))
        assert regex_cache.compile(*SOME[0]) == re.compile(*SOME[0])  # does not block
        assert regex_cache._added  # a miss: nothing was read
        regex_cache.save()
        assert (directory / real.name).is_file()
        assert not (directory / real.name).is_symlink()

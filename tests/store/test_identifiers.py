"""``store.identifiers``: the identifier parts the index stores stay exactly what they were.

``identifier_parts`` runs on every capture, so it was rewritten for speed (maximal runs,
remembered per run, ``str.translate`` instead of a per-character loop). The rewrite must give
byte-identical parts, or every index built before it would rank differently from one built
after: the reference below is the previous implementation, verbatim.
"""

from __future__ import annotations

import random
import re
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.corpus import ObservationRecord, generate
from kindling.store import identifiers
from kindling.store.identifiers import identifier_parts, joined_form

_OLD_RUN = re.compile(
    r"(?<![\w.:\-])[\w.:\-]*?(?:\w[._:\-]+\w|[a-z0-9][A-Z]|[A-Z][A-Z][a-z])[\w.:\-]*"
)
_OLD_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_OLD_WORD = re.compile(r"[^\W_]+")


def _old_identifier_parts(text: str) -> str:
    seen: dict[str, None] = {}
    for run in _OLD_RUN.findall(text):
        colon = run.split(":")
        pieces = dict.fromkeys((run, *colon, *(dot for part in colon for dot in part.split("."))))
        for piece in pieces:
            joined = joined_form(piece)
            if joined is not None:
                seen.setdefault(joined, None)
        for word in _OLD_WORD.findall(run):
            parts = _OLD_CAMEL.split(word)
            if len(parts) > 1:
                seen.setdefault(" ".join(parts).lower(), None)
    return " ".join(seen)


def test_examples() -> None:
    assert identifier_parts("AuthenticationError in getHTTPResponse, snake_case") == (
        "authentication error get http response snakecase"
    )
    assert identifier_parts("x.py::test_retry_once and table.rs:42") == (
        "xpytestretryonce xpy testretryonce tablers42 tablers"
    )
    assert identifier_parts("plain words only") == ""


def test_same_parts_as_before_on_the_bench_corpus() -> None:
    texts = [r.content for r in generate(3000, 7) if isinstance(r, ObservationRecord)]
    for text in texts:
        assert identifier_parts(text) == _old_identifier_parts(text), text


def test_same_parts_whatever_the_cache_holds() -> None:
    text = "ClientSerializer::new in response_get.rs and self.user"
    first = identifier_parts(text)
    identifiers._FORMS.clear()
    assert identifier_parts(text) == first == _old_identifier_parts(text)
    for i in range(identifiers._FORMS_MAX + 10):  # the cache drops its older half when full
        identifier_parts(f"name_{i}")
    assert len(identifiers._FORMS) <= identifiers._FORMS_MAX
    assert identifier_parts(text) == first


IDENTIFIER_CHARS = string.ascii_letters + string.digits + "._:-/ \n\t()é" + "ÅßΣ٣"
identifier_text = st.text(st.sampled_from(IDENTIFIER_CHARS), max_size=200)


@settings(max_examples=500)
@given(st.one_of(identifier_text, st.text(st.characters(), max_size=200)))
def test_same_parts_as_before_on_any_text(text: str) -> None:
    assert identifier_parts(text) == _old_identifier_parts(text)


def test_same_parts_as_before_on_random_code() -> None:
    rand = random.Random(13)
    words = ["get", "HTTP", "Response", "user_id", "x", "3.40.1", "::", ".", "-", "_", "A", "a1"]
    for _ in range(2000):
        text = "".join(rand.choice([*words, " ", "/", ":"]) for _ in range(rand.randint(0, 30)))
        assert identifier_parts(text) == _old_identifier_parts(text), text


def test_threads_sharing_the_run_cache_never_fail() -> None:
    """A server's capture threads share the cache; evicting from it must not race."""
    from concurrent.futures import ThreadPoolExecutor

    from kindling.store import identifiers

    def names(t: int) -> list[str]:
        return [identifiers.identifier_parts(f"call get_item{t}_{n}Config") for n in range(12_000)]

    import sys

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often, so an unguarded eviction races
    try:
        with ThreadPoolExecutor(4) as pool:
            results = list(pool.map(names, range(4)))
    finally:
        sys.setswitchinterval(interval)
    assert results[0][5] == identifiers.identifier_parts("call get_item0_5Config")
    assert all(len(r) == 12_000 for r in results)

"""The page's HTML builder: any text stays text, and data can never become a tag, an event
handler or a link off the page (property tests)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kindling.ui.markup import BIDI, Markup, esc, tag, url, when


class Parsed(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.text: list[str] = []

    def handle_starttag(self, name: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((name, attrs))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(html: str) -> Parsed:
    parsed = Parsed()
    parsed.feed(html)
    parsed.close()
    return parsed


# HTML parsers turn CR and CRLF into LF and drop NUL; everything else must come back as sent
TEXT = st.text(st.characters(blacklist_characters="\r\x00", blacklist_categories=["Cs"]))
# ... except the bidirectional controls, which text shows as their code points (below)
PLAIN = st.text(st.characters(blacklist_characters="\r\x00" + BIDI, blacklist_categories=["Cs"]))


def visible(text: str) -> str:
    for ch in BIDI:
        text = text.replace(ch, f"<U+{ord(ch):04X}>")
    return text


@given(PLAIN, TEXT)
def test_any_text_is_one_text_node_and_one_attribute_value(text: str, value: str) -> None:
    html = tag("pre", {"title": value}, text)
    parsed = parse(html)
    assert parsed.tags == [("pre", [("title", value)])]
    assert "".join(parsed.text) == text


@given(st.lists(PLAIN, max_size=5))
def test_nested_children_escape_at_every_level(parts: list[str]) -> None:
    html = tag("div", None, *(tag("span", None, p) for p in parts), *parts)
    parsed = parse(html)
    assert [t for t, _ in parsed.tags] == ["div"] + ["span"] * len(parts)
    assert "".join(parsed.text) == "".join(parts) * 2


@given(TEXT, TEXT)
def test_bidi_controls_show_as_code_points_and_attributes_keep_them(text: str, value: str) -> None:
    parsed = parse(tag("pre", {"title": value}, text))
    shown = "".join(parsed.text)
    assert shown == visible(text)
    assert not any(ch in shown for ch in BIDI)
    assert parsed.tags[0] == ("pre", [("title", value)])  # a form sends back what it got
    assert [t for t, _ in parsed.tags[1:]] == ["span"] * sum(ch in BIDI for ch in text)


def test_a_right_to_left_override_is_marked_up_everywhere_it_shows() -> None:
    name = "/work/\u202egnp.exe"
    assert esc(name) == '/work/<span class="bidi">&lt;U+202E&gt;</span>gnp.exe'
    for ch in BIDI:
        assert ch not in esc(f"a{ch}b")
    title = tag("title", None, name + " \u2066x\u2069")
    assert title == "<title>/work/&lt;U+202E&gt;gnp.exe &lt;U+2066&gt;x&lt;U+2069&gt;</title>"
    assert tag("input", {"value": name}) == '<input value="/work/&#x202E;gnp.exe">'


@pytest.mark.parametrize(
    "href",
    ["javascript:alert(1)", "//evil.example/x", "http://evil.example", " /x", "data:text/html,x"],
)
def test_links_only_point_at_the_page_itself(href: str) -> None:
    with pytest.raises(ValueError, match="refused in markup"):
        tag("a", {"href": href}, "x")


@pytest.mark.parametrize("name", ["onclick", "onerror", "on-x", "a b", 'x"y', ""])
def test_event_handlers_and_odd_attribute_names_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match="refused in markup"):
        tag("a", {name: "x"})


def test_only_markup_is_trusted() -> None:
    assert esc("<b>") == "&lt;b&gt;"
    assert esc(Markup("<b>")) == "<b>"
    assert esc(None) == ""
    assert esc(["<", Markup("<i>")]) == "&lt;<i>"


@given(st.dictionaries(st.sampled_from(["q", "repo", "before"]), TEXT))
def test_urls_keep_their_query_values_as_text(query: dict[str, str]) -> None:
    made = url("/ui", "/search", **query)
    assert made.startswith("/ui/search")
    parsed = parse(tag("a", {"href": made}, "x"))
    assert parsed.tags[0][1] == [("href", made)]


def test_times_are_utc_and_bad_times_do_not_fail() -> None:
    assert when(0) == "1970-01-01 00:00:00 UTC"
    assert when(None) == "-"
    assert when(True) == "-"
    assert when(10**20) == str(10**20)

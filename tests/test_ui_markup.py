"""The page's HTML builder: any text stays text, and data can never become a tag, an event
handler or a link off the page (property tests)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kindling.ui.markup import Markup, esc, tag, url, when


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


@given(TEXT, TEXT)
def test_any_text_is_one_text_node_and_one_attribute_value(text: str, value: str) -> None:
    html = tag("pre", {"title": value}, text)
    parsed = parse(html)
    assert parsed.tags == [("pre", [("title", value)])]
    assert "".join(parsed.text) == text


@given(st.lists(TEXT, max_size=5))
def test_nested_children_escape_at_every_level(parts: list[str]) -> None:
    html = tag("div", None, *(tag("span", None, p) for p in parts), *parts)
    parsed = parse(html)
    assert [t for t, _ in parsed.tags] == ["div"] + ["span"] * len(parts)
    assert "".join(parsed.text) == "".join(parts) * 2


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

"""``<noscript>`` read as a reader sees it: never hiding the page, used when it is the page."""

from __future__ import annotations

from pathlib import Path

import pytest

from scrapy_boilerplate import extract
from scrapy_boilerplate.page.noscript import resolve_noscript

READING = Path(__file__).parent / "fixtures" / "reading"
STORY = "This is sentence 0 of the story, written with plenty of ordinary words."


def test_an_unclosed_div_in_noscript_does_not_swallow_the_page() -> None:
    text = extract((READING / "noscript-unclosed-div.html").read_bytes()).text
    assert STORY in text
    assert "enable JavaScript" not in text


def test_a_page_served_inside_noscript_is_read() -> None:
    text = extract((READING / "noscript-forum.html").read_bytes()).text
    assert "Reply number 3 in this thread about gardening." in text


@pytest.mark.parametrize("kind", [str, bytes])
def test_noscript_is_emptied_unless_it_holds_most_of_the_text(kind: type) -> None:
    def as_kind(text: str) -> str | bytes:
        return text if kind is str else text.encode("utf-8")

    small = as_kind("<p>An article of many words here</p><NOSCRIPT a=1><div>Enable JS</noscript>")
    assert resolve_noscript(small) == as_kind(
        "<p>An article of many words here</p><NOSCRIPT a=1></noscript>"
    )
    large = as_kind("<p>Hi</p><noscript class=x><p>The readable page</p></noscript><p>x</p>")
    assert resolve_noscript(large) == as_kind(
        "<p>Hi</p><div data-noscript class=x><p>The readable page</p></div><p>x</p>"
    )


def test_script_and_style_text_do_not_count_as_the_page_text() -> None:
    html = "<script>" + "var state = 1;" * 50 + "</script><noscript><p>Readable</p></noscript>"
    assert "<div data-noscript>" in resolve_noscript(html)


def test_a_noscript_start_tag_without_end_tag_is_dropped() -> None:
    assert resolve_noscript("<p>a</p><noscript><p>rest of the page</p>") == (
        "<p>a</p><p>rest of the page</p>"
    )
    assert resolve_noscript("<p>no noscript at all</p>") == "<p>no noscript at all</p>"

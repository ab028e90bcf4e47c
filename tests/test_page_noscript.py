"""``<noscript>`` read as a reader sees it: never hiding the page, used when it is the page."""

from __future__ import annotations

from pathlib import Path

import pytest
from pure_python import twin_or_skip
from shared_datasets import SHARED_DATASETS, TWIN_DATASETS

from scrapy_boilerplate import extract
from scrapy_boilerplate.evaluation.datasets import load_pages
from scrapy_boilerplate.evaluation.report import page_text
from scrapy_boilerplate.page import noscript
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


# -- the compiled twin of the element search ---------------------------------------------------

_NOSCRIPT_SHAPES = [
    b"",
    b"<p>no element here</p>",
    b"<NoScRiPt>mixed case</nOsCrIpT>",
    b"<noscript>text</noscript\t\x0b\n >after",
    b"<noscript class='a'>one</noscript><noscript>two</noscript>",
    b"<noscriptx>not one</noscript><noscript-y>one</noscript >",
    b"<noscript<p>not a tag</p><noscript>a tag</noscript>",
    b"<noscript>unclosed to the end",
    b"<noscript>closed by </noscript  x> only later </noscript>",
    b"</noscript><noscript>",
    b"<noscript",
    b"<noscript>",
    b"<noscript " + b"a" * 4095 + b">long but allowed</noscript>",
    b"<noscript " + b"a" * 4096 + b">one byte too long</noscript>",
    "<noscript title='é'>non-ASCII</noscript>".encode(),
    "<noscript\u00a0x>".encode(),
]


@pytest.mark.parametrize("html", _NOSCRIPT_SHAPES)
def test_compiled_spans_are_the_reference_spans(html: bytes) -> None:
    speedups = twin_or_skip("scrapy_boilerplate.page._speedups")
    patterns = noscript._BYTES_PATTERNS
    expected = noscript._spans(html, patterns["noscript_open"], patterns["noscript_close"])
    assert speedups.noscript_spans(html) == expected


@pytest.mark.parametrize("dataset", (*TWIN_DATASETS, "fundus", "magic-html"))
def test_compiled_spans_on_every_shared_page(dataset: str) -> None:
    speedups = twin_or_skip("scrapy_boilerplate.page._speedups")
    if not (SHARED_DATASETS / dataset).is_dir():
        pytest.skip(f"shared dataset {dataset} not present")
    patterns = noscript._BYTES_PATTERNS
    pages = 0
    for page in load_pages(SHARED_DATASETS / dataset):
        for html in (page.html, page_text(page).encode("utf-8", "replace")):
            expected = noscript._spans(html, patterns["noscript_open"], patterns["noscript_close"])
            assert speedups.noscript_spans(html) == expected, page.id
        pages += 1
    assert pages >= 50

"""parse_html: bytes are decoded by w3lib's rules; valid UTF-8 bytes give the tree of their text."""

from __future__ import annotations

import pytest
from lxml import etree
from shared_datasets import SHARED_DATASETS

from scrapy_boilerplate.evaluation.datasets import load_pages
from scrapy_boilerplate.page.parsing import decode_html, parse_html, strip_xml_declaration


def text_path_tree(html: bytes, content_type: str | None = None) -> bytes:
    """The tree parse_html builds from the page decoded to text first (the reference path)."""
    return etree.tostring(parse_html(strip_xml_declaration(decode_html(html, content_type))))


def tree(html: bytes, content_type: str | None = None) -> bytes:
    return etree.tostring(parse_html(html, content_type))


UTF8_PAGES = [
    "<html><body><p>café – naïve “quotes” 東京</p></body></html>".encode(),
    "\ufeff<html><body><p>with a byte-order mark: é</p></body></html>".encode(),
    '<?xml version="1.0" encoding="iso-8859-1"?><html><body><p>é</p></body></html>'.encode(),
    '<html><head><meta charset="utf-8"></head><body><p>Grüße</p></body></html>'.encode(),
    b"<p>plain ASCII, no html element</p>",
]


@pytest.mark.parametrize("html", UTF8_PAGES)
def test_utf8_bytes_give_the_tree_of_their_text(html: bytes) -> None:
    assert tree(html) == text_path_tree(html)


def test_the_header_charset_wins_over_meta() -> None:
    html = '<html><head><meta charset="iso-8859-1"></head><body><p>Grüße</p></body></html>'
    assert "Grüße" in parse_html(html.encode(), "text/html; charset=utf-8").xpath("string(//p)")


def test_invalid_utf8_is_decoded_with_replacement_characters() -> None:
    html = b"<html><body><p>broken \xff\xfe bytes then text</p></body></html>"
    assert tree(html, "text/html; charset=utf-8") == text_path_tree(
        html, "text/html; charset=utf-8"
    )
    assert "\ufffd" in parse_html(html, "text/html; charset=utf-8").xpath("string(//p)")


def test_legacy_charsets_are_decoded() -> None:
    html = '<html><head><meta charset="windows-1251"></head><body><p>Привет</p></body></html>'
    assert parse_html(html.encode("cp1251")).xpath("string(//p)") == "Привет"


@pytest.mark.parametrize("dataset", ["wcxb-dev", "l3s-gn1"])
def test_every_shared_dataset_page_parses_as_its_text(dataset: str) -> None:
    if not (SHARED_DATASETS / dataset).is_dir():
        pytest.skip(f"shared dataset {dataset} not present")
    for page in load_pages(dataset):
        assert tree(page.html) == text_path_tree(page.html), page.url

"""Which responses are HTML (``scrapy_boilerplate.page.responses``)."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.page.responses import (
    html_by_content_type,
    is_html_response_body,
    looks_like_html,
    media_type,
)

HTML = b"\n<!DOCTYPE HTML><p>x"
TEXT = b"just words"


def test_media_type_drops_parameters_and_case() -> None:
    assert media_type(" Text/HTML ; charset=UTF-8") == "text/html"
    assert media_type("") is None and media_type(None) is None


def test_looks_like_html_reads_only_the_first_kib() -> None:
    assert looks_like_html(HTML) and looks_like_html(b"<BODY>")
    assert not looks_like_html(TEXT)
    assert not looks_like_html(b" " * 1024 + b"<html>")


@pytest.mark.parametrize(
    ("content_type", "body", "sniff_text", "expected"),
    [
        ("text/html; charset=koi8-r", TEXT, False, True),  # the header decides
        ("application/xhtml+xml", TEXT, False, True),
        (None, HTML, False, True),  # no header: the body decides
        ("", TEXT, False, False),
        ("text/plain", HTML, False, False),
        ("text/plain", HTML, True, True),  # sniff_text: text that looks like HTML
        ("text/plain", TEXT, True, False),
        ("text/xml", HTML, True, False),  # never XML
        ("application/pdf", HTML, True, False),
    ],
)
def test_is_html_response_body(
    content_type: str | None, body: bytes, sniff_text: bool, expected: bool
) -> None:
    assert is_html_response_body(content_type, body, sniff_text=sniff_text) is expected


def test_html_by_content_type_says_when_the_body_decides() -> None:
    assert html_by_content_type("text/html", sniff_text=False) is True
    assert html_by_content_type("image/png", sniff_text=True) is False
    assert html_by_content_type(None, sniff_text=False) is None
    assert html_by_content_type("text/plain", sniff_text=True) is None

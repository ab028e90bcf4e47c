"""Bad input: every case returns a result or raises the package's documented exception."""

from __future__ import annotations

import pytest

from scrapy_boilerplate import InvalidInputError, extract

PARAGRAPH = "<p>" + "The council approved the new budget after a long debate. " * 6 + "</p>"


@pytest.mark.parametrize("html", ["", b"", "   \n\t ", b"\xef\xbb\xbf"])
def test_empty_input_raises_invalid_input(html: str | bytes) -> None:
    with pytest.raises(InvalidInputError, match="empty"):
        extract(html)


def test_binary_garbage_raises_invalid_input() -> None:
    garbage = bytes(range(256)) * 40
    with pytest.raises(InvalidInputError, match="binary"):
        extract(garbage)


def test_png_bytes_raise_invalid_input() -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00\x01\x02\x03" * 200
    with pytest.raises(InvalidInputError):
        extract(png)


def test_legacy_charset_declared_in_meta_is_decoded() -> None:
    html = (
        '<html><head><meta charset="windows-1251"></head><body><p>'
        + "Правительство утвердило новый бюджет после долгих обсуждений в парламенте. " * 5
        + "</p></body></html>"
    ).encode("windows-1251")
    result = extract(html)
    assert "Правительство утвердило новый бюджет" in result.text


def test_charset_from_http_header_wins_over_sniffing() -> None:
    body = (
        "<html><body><p>" + "Café crème à la française, très célèbre. " * 8 + "</p></body></html>"
    )
    result = extract(body.encode("iso-8859-1"), content_type="text/html; charset=iso-8859-1")
    assert "Café crème à la française" in result.text


def test_ten_thousand_level_nesting_is_refused_not_truncated() -> None:
    # libxml2 stops at 2,048 open elements: the paragraph would be lost, so the page is refused.
    html = "<div>" * 10_000 + PARAGRAPH + "</div>" * 10_000
    with pytest.raises(InvalidInputError, match="nested deeper than libxml2 can parse"):
        extract(html)


def test_three_thousand_unclosed_font_tags_keep_the_paragraph_after_them() -> None:
    html = "<html><body>" + "<font>" * 3_000 + PARAGRAPH + "</body></html>"
    assert extract(html).text.startswith("The council approved the new budget")
    structured = extract(html, include_markdown=True, include_html=True)
    assert structured.markdown is not None and structured.html is not None
    assert structured.markdown.startswith("The council approved the new budget")
    assert structured.html.startswith("<article>\n<p>The council approved the new budget")


def test_twenty_megabyte_page() -> None:
    html = "<html><body>" + PARAGRAPH * (20_000_000 // len(PARAGRAPH)) + "</body></html>"
    assert len(html) >= 19_000_000
    result = extract(html)
    assert result.text.startswith("The council approved the new budget")


def test_unclosed_tags_are_balanced_by_the_parser() -> None:
    html = (
        "<html><body><div><p>"
        + "Unclosed paragraphs still carry the story text here. " * 5
        + "<p>More"
    )
    result = extract(html, extractor="keep-everything")
    assert "Unclosed paragraphs still carry the story text here." in result.text


def test_anchor_nested_in_anchor_keeps_link_counts_sane() -> None:
    html = "<p>one <a href=a>out <a href=b>in</a> tail</a> after</p>" + PARAGRAPH
    result = extract(html, extractor="keep-everything")
    first, second = result.blocks[:2]
    assert second.num_linked_words == 0  # the nested anchor does not leak link state onwards
    assert first.num_words == 5


@pytest.mark.parametrize(
    "html",
    [
        "<html></html>",
        "<html><head><title>Only a title</title></head></html>",
        "<frameset></frameset>",
    ],
)
def test_pages_without_body_give_an_empty_result(html: str) -> None:
    result = extract(html)
    assert result.text == ""
    assert result.blocks == []


def test_xml_declaration_in_text_input_is_accepted() -> None:
    html = '<?xml version="1.0" encoding="utf-8"?><html><body>' + PARAGRAPH + "</body></html>"
    assert "council approved" in extract(html).text


def test_unclosed_xml_declaration_with_junk_encoding_is_dropped() -> None:
    junk = ", ".join(["words"] * 200)
    html = f'<?xml version="1.0" encoding="{junk}"<html><body>{PARAGRAPH}</body></html>'
    assert "council approved" in extract(html.encode()).text
    assert "council approved" in extract(html).text


def test_nul_characters_in_text_input_are_dropped() -> None:
    html = (
        "<html><body><p>"
        + "Text with a stray\x00 NUL character inside it. " * 8
        + "</p></body></html>"
    )
    assert "\x00" not in extract(html, extractor="keep-everything").text

"""Tests for the tag helpers of :mod:`scrapy_boilerplate.page.tags`."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.tags import spaced_text, string_value


def _h1(body: str) -> object:
    return parse_html(f"<body><h1>{body}</h1></body>").find(".//h1")


@pytest.mark.parametrize(
    ("body", "text"),
    [
        ("Data Analytics<br>Agency", "Data Analytics Agency"),
        ("Top MBA Programs<span><br/>Your Guide</span>", "Top MBA Programs Your Guide"),
        ("<div>Kicker</div><div>Headline</div>", "Kicker Headline"),
        ("Cosmetic <!-- note -->Packaging<br>Design", "Cosmetic Packaging Design"),
    ],
)
def test_a_line_break_becomes_a_space(body: str, text: str) -> None:
    assert " ".join(spaced_text(_h1(body)).split()) == text  # type: ignore[arg-type]


def test_inline_markup_joins_as_string_does() -> None:
    h1 = _h1("Head<b>line</b> <i>of</i> the day<!-- c -->.")
    assert spaced_text(h1) == string_value(h1) == "Headline of the day."  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "markup",
    [
        "<title>Plain headline</title>",
        "<title></title>",
        "<p>Split <![CDATA[cdata]]> text</p>",
        "<p>One<b>two</b>three</p>",
    ],
)
def test_string_value_is_the_xpath_string_of_the_node(markup: str) -> None:
    from lxml import etree

    for node in etree.fromstring(f"<root>{markup}<!-- a comment --></root>").iter(etree.Element):
        assert string_value(node) == str(etree.XPath("string()")(node))  # type: ignore[arg-type]

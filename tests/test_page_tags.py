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

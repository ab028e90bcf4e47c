"""Clean main-content HTML: only the content blocks, in structural tags, without the page's
attributes, scripts or boilerplate nested in kept elements (fixtures in
``tests/fixtures/structure``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree, html

from scrapy_boilerplate import extract
from scrapy_boilerplate.output.html import content_html
from scrapy_boilerplate.page import parse_html, segment

FIXTURES = Path(__file__).parent / "fixtures" / "structure"
URL = "https://news.example.com/2024/story"
ALLOWED_TAGS = {
    "article", "h1", "h2", "h3", "h4", "h5", "h6", "p", "ul", "ol", "li", "table", "caption",
    "thead", "tbody", "tr", "th", "td", "pre", "code", "blockquote", "a", "strong", "em", "br",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {"href", "start", "colspan", "class"}


def clean_html(name: str, extractor: str = "article-rules") -> str:
    page = (FIXTURES / name).read_text(encoding="utf-8")
    result = extract(page, URL, extractor=extractor, include_html=True)
    assert result.html is not None
    return result.html


def elements(fragment: str) -> list[etree._Element]:
    return list(html.fragment_fromstring(fragment).iter())


@pytest.mark.parametrize("extractor", ["article-rules", "keep-everything"])
@pytest.mark.parametrize("name", sorted(path.name for path in FIXTURES.glob("*.html")))
def test_only_structural_tags_and_a_few_attributes(name: str, extractor: str) -> None:
    found = elements(clean_html(name, extractor))
    assert found[0].tag == "article"
    assert {element.tag for element in found} <= ALLOWED_TAGS
    assert {attribute for element in found for attribute in element.attrib} <= ALLOWED_ATTRIBUTES
    assert all(element.get("class", "language-").startswith("language-") for element in found)


def test_blocks_nested_in_a_kept_element_stay_out() -> None:
    fragment = clean_html("boilerplate-inside.html")
    assert "Buy now" not in fragment and "Share" not in fragment
    assert "track(" not in fragment and "font-size" not in fragment  # no script, no style
    assert fragment.count("Council approves new cycle lanes") == 1
    assert "<p>Work will start in the spring" in fragment  # text right in the story <div>


@pytest.mark.parametrize("extractor", ["article-rules", "keep-everything"])
def test_nested_lists(extractor: str) -> None:
    fragment = clean_html("nested-lists.html", extractor)
    assert (
        "<ul>\n<li>Shelter, which matters most when the weather turns against you in the hills\n"
        "<ul>\n<li>a light tent with a good fly sheet and enough pegs for hard ground</li>\n"
        "<li>a sleeping mat that packs small and still keeps the cold of the ground away</li>\n"
        "</ul>\n</li>\n<li>Water, carried and treated on the way\n<ol>\n"
        "<li>two bottles of one litre each, filled at every stream you trust</li>\n"
    ) in fragment


@pytest.mark.parametrize("extractor", ["article-rules", "keep-everything"])
def test_tables_keep_header_cells_caption_and_spans(extractor: str) -> None:
    fragment = clean_html("table.html", extractor)
    assert (
        "<table>\n<caption>Winter sailings from the harbour</caption>\n<thead>\n"
        "<tr><th>Day</th><th>First sailing</th><th>Last sailing</th></tr>\n</thead>\n<tbody>\n"
        "<tr><td>Monday to Friday</td><td>06:40</td><td>19:15</td></tr>\n"
        "<tr><td>Saturday</td><td>05:50</td><td>20:30</td></tr>\n"
        '<tr><td>Sunday</td><td colspan="2">no sailings</td></tr>\n</tbody>\n</table>'
    ) in fragment


@pytest.mark.parametrize("extractor", ["article-rules", "keep-everything"])
def test_headings_and_inline_styles(extractor: str) -> None:
    fragment = clean_html("headings.html", extractor)
    assert "<h1>Tide tables explained</h1>\n<p>Tide tables tell you" in fragment
    assert "<h4>A note on <em>local</em> effects</h4>" in fragment
    assert "by <strong>half a metre</strong> or more" in fragment


def test_code_quotes_and_absolute_links() -> None:
    fragment = clean_html("code-and-quotes.html", "keep-everything")
    assert '<pre><code class="language-python">import csv\n\nwith open("data.csv"' in fragment
    assert '<blockquote>\n<p>Always pass <code>newline=""</code> when' in fragment
    assert '<a href="https://news.example.com/python/">Python</a>' in fragment


def test_layout_tables_leave_no_table() -> None:
    fragment = clean_html("layout-table.html", "keep-everything")
    assert "<table" not in fragment and "<td" not in fragment
    assert "<h1>Village fete raises record sum</h1>" in fragment


def test_text_is_escaped_and_a_page_without_content_gives_nothing() -> None:
    doc = segment(
        parse_html("<body><p>1 &lt; 2 &amp; <a href='/x?a=1&amp;b=\"2\"'>x</a></p></body>")
    )
    assert content_html(doc.blocks) == ""
    doc.blocks[0].is_content = True
    assert content_html(doc.blocks, "http://e.com/") == (
        '<article>\n<p>1 &lt; 2 &amp; <a href="http://e.com/x?a=1&amp;b=&quot;2&quot;">x</a></p>'
        "\n</article>"
    )

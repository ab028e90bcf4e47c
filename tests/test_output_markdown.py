"""Markdown of the main content: headings, nested lists, tables, code and quotes from the DOM
(fixtures in ``tests/fixtures/structure``), Victor's labels when present, and escaping."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from scrapy_boilerplate import available_extractors, extract
from scrapy_boilerplate.model import labels as L
from scrapy_boilerplate.output.markdown import content_markdown, escape_markdown
from scrapy_boilerplate.page import parse_html, segment

FIXTURES = Path(__file__).parent / "fixtures" / "structure"
URL = "https://news.example.com/2024/story"


def markdown(name: str, extractor: str = "article-rules") -> str:
    page = (FIXTURES / name).read_text(encoding="utf-8")
    result = extract(page, URL, extractor=extractor, include_markdown=True)
    assert result.markdown is not None
    return result.markdown


@pytest.mark.parametrize("extractor", ["article-rules", "keep-everything"])
def test_headings_keep_their_levels_and_inline_styles(extractor: str) -> None:
    lines = markdown("headings.html", extractor).split("\n")
    assert [line for line in lines if line.startswith("#")] == [
        "# Tide tables explained",
        "## Why there are two tides a day",
        "### Spring and neap tides",
        "#### A note on *local* effects",
    ]
    assert any("by **half a metre** or more" in line for line in lines)
    heading = lines.index("## Why there are two tides a day")
    assert lines[heading - 1] == lines[heading + 1] == ""  # blocks apart by blank lines


def test_boilerplate_blocks_stay_out_and_keep_everything_keeps_them() -> None:
    assert "[Home]" not in markdown("headings.html", "article")
    assert "[Home](https://news.example.com/) [News](https://news.example.com/news/)" in (
        markdown("headings.html", "keep-everything")
    )


NESTED_LISTS = """\
- Shelter, which matters most when the weather turns against you in the hills
  - a light tent with a good fly sheet and enough pegs for hard ground
  - a sleeping mat that packs small and still keeps the cold of the ground away
- Water, carried and treated on the way
  1. two bottles of one litre each, filled at every stream you trust
  2. a filter that removes bacteria, and tablets as a spare for bad days
- Food for seven days, planned meal by meal before you leave home
"""


@pytest.mark.parametrize("extractor", ["article-rules", "keep-everything"])
def test_nested_lists_are_indented_under_their_item(extractor: str) -> None:
    text = markdown("nested-lists.html", extractor)
    assert "\n\n" + NESTED_LISTS + "\nWeigh the pack" in text


TIMETABLE = """\
Winter sailings from the harbour

| Day | First sailing | Last sailing |
|---|---|---|
| Monday to Friday | 06:40 | 19:15 |
| Saturday | 05:50 | 20:30 |
| Sunday | no sailings |  |
"""


@pytest.mark.parametrize("extractor", ["article-rules", "keep-everything"])
def test_data_tables_become_pipe_tables_with_a_header_row(extractor: str) -> None:
    text = markdown("table.html", extractor)
    assert "\n\n" + TIMETABLE + "\nTickets bought" in text


@pytest.mark.parametrize("extractor", ["article-rules", "keep-everything"])
def test_layout_tables_are_read_as_paragraphs(extractor: str) -> None:
    text = markdown("layout-table.html", extractor)
    assert "|" not in text
    assert "# Village fete raises record sum\n\nThe summer fete" in text


CODE = """\
```python
import csv

with open("data.csv", encoding="utf-8") as handle:
    for row in csv.reader(handle):
        print(row)
```
"""


def test_code_blocks_keep_their_lines_and_quotes_their_marker() -> None:
    text = markdown("code-and-quotes.html", "keep-everything")
    assert "\n\n" + CODE + "\n" in text
    assert (
        '\n\n> Always pass `newline=""` when you open a file for the csv module, or quoted fields'
    ) in text
    assert "hand it to `csv.reader`, and loop" in text
    assert "[DictReader](https://docs.python.org/3/library/csv.html#csv.DictReader)" in text


def test_blocks_inside_a_kept_element_that_are_not_content_stay_out() -> None:
    text = markdown("boilerplate-inside.html", "article")
    assert "Work will start in the spring" in text and "The cost, about two million" in text
    assert "Buy now" not in text and "Tweet" not in text and "track(" not in text


def test_every_extractor_renders_markdown_when_asked() -> None:
    page = (FIXTURES / "headings.html").read_text(encoding="utf-8")
    for name in available_extractors():
        result = extract(page, URL, extractor=name, include_markdown=True)
        assert isinstance(result.markdown, str), name
        if result.text:
            assert result.markdown, name
        assert extract(page, URL, extractor=name).markdown is None, name


def test_markdown_survives_pickling_and_is_in_the_dict() -> None:
    page = (FIXTURES / "nested-lists.html").read_text(encoding="utf-8")
    result = extract(page, URL, include_markdown=True)
    copy = pickle.loads(pickle.dumps(result))
    assert copy.markdown == result.markdown
    assert copy.to_dict()["markdown"] == result.markdown
    assert "markdown" not in extract(page, URL).to_dict()


def labelled(page: str, labels: list[str]) -> str:
    """The Markdown of ``page`` whose blocks get ``labels`` in order (``victor:other`` is
    noise), as the ``victor`` extractor labels them."""
    doc = segment(parse_html(page))
    assert len(doc.blocks) == len(labels), [block.text for block in doc.blocks]
    for block, label in zip(doc.blocks, labels, strict=True):
        block.labels.add(label)
        block.is_content = label != L.VICTOR_OTHER
    return content_markdown(doc.blocks)


VICTOR_PAGE = (
    "<html><body><div><p><b>Opening hours</b></p><p>The museum opens every day.</p>"
    "<p>\u2022 Monday: closed</p><p>\u2022 Tuesday: 10 to 18</p><p>and late on Thursdays.</p>"
    "<ul><li>Tours start at noon.</li></ul><h3>Tickets</h3><p>Share this page</p>"
    "</div></body></html>"
)


def test_victor_labels_decide_headings_and_list_items() -> None:
    text = labelled(
        VICTOR_PAGE,
        [
            L.VICTOR_HEADER,  # a bold paragraph becomes a heading (level 2 outside <hN>)
            L.VICTOR_PARAGRAPH,
            L.VICTOR_LIST,  # paragraphs with bullets become list items
            L.VICTOR_LIST,
            L.VICTOR_CONTINUATION,  # a continuation after the segment opens a paragraph
            L.VICTOR_PARAGRAPH,  # an <li> labelled paragraph is no list item
            L.VICTOR_HEADER,  # an <h3> keeps its level
            L.VICTOR_OTHER,
        ],
    )
    assert text == (
        "## Opening hours\n\nThe museum opens every day.\n\n- Monday: closed\n"
        "- Tuesday: 10 to 18\n\nand late on Thursdays.\n\nTours start at noon.\n\n### Tickets"
    )


@pytest.mark.parametrize("name", ["headings.html", "table.html", "nested-lists.html"])
def test_the_victor_extractor_headings_are_its_header_segments(name: str) -> None:
    page = (FIXTURES / name).read_text(encoding="utf-8")
    result = extract(page, URL, extractor="victor", include_markdown=True)
    assert result.markdown is not None
    headers = [b.text for b in result.content_blocks if L.VICTOR_HEADER in b.labels]
    assert headers  # every fixture has an <h1> the model labels a header
    headings = [line.lstrip("#").strip() for line in result.markdown.split("\n") if line[:1] == "#"]
    assert headings == headers


def test_a_victor_segment_over_table_cells_fills_each_cell() -> None:
    page = (FIXTURES / "table.html").read_text(encoding="utf-8")
    doc = segment(parse_html(page))
    cells = [
        block
        for block in doc.blocks
        if block.element is not None and block.element.tag in ("th", "td")
    ]
    first = cells[0]
    for block in cells[1:6]:  # one segment: the header row and the first row
        first.merge_next(block)
        first.text = first.text.replace("\n", " ")  # as Victor joins a segment
    for block in doc.blocks:
        block.labels.add(L.VICTOR_PARAGRAPH)
        block.is_content = block is first
    assert content_markdown([first, *cells[6:]]) == (
        "| Day | First sailing | Last sailing |\n|---|---|---|\n"
        "| Monday to Friday | 06:40 | 19:15 |"
    )


def test_without_victor_labels_the_dom_decides() -> None:
    doc = segment(parse_html(VICTOR_PAGE))
    for block in doc.blocks:
        block.is_content = True
    text = content_markdown(doc.blocks)
    assert text.startswith("**Opening hours**\n\nThe museum")
    assert "\n\n- Tours start at noon.\n\n### Tickets\n\n" in text


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("*star* [link] `tick` <tag> a\\b", r"\*star\* \[link\] \`tick\` \<tag> a\\b"),
        ("snake_case_name stays, _edges_ do not", r"snake_case_name stays, \_edges\_ do not"),
    ],
)  # fmt: skip
def test_inline_markup_characters_are_escaped(text: str, escaped: str) -> None:
    assert escape_markdown(text) == escaped


def test_line_starts_that_look_like_markup_are_escaped() -> None:
    page = (
        "<body><p>1. is not a list here</p><p># not a heading</p><p>- not an item</p>"
        "<p>+ nor this</p><p>> nor a quote</p><p>===</p><p>C# and F# stay</p>"
        "<table><tr><th>a|b</th><th>c</th></tr></table></body>"
    )
    doc = segment(parse_html(page))
    for block in doc.blocks:
        block.is_content = True
    assert content_markdown(doc.blocks).split("\n\n") == [
        r"1\. is not a list here",
        r"\# not a heading",
        r"\- not an item",
        r"\+ nor this",
        r"\> nor a quote",
        r"\===",
        "C# and F# stay",
        "| a\\|b | c |\n|---|---|",
    ]


def test_the_learned_article_renders_its_body_and_leaves_the_headline_to_the_title() -> None:
    page = (FIXTURES / "headings.html").read_text(encoding="utf-8")
    result = extract(page, URL, extractor="article", include_markdown=True)
    assert result.markdown is not None and result.title == "Tide tables explained"
    lines = result.markdown.split("\n")
    assert "# Tide tables explained" not in lines and "## Why there are two tides a day" in lines

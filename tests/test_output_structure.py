"""The content structure: pieces and owners, data tables, code blocks, merged blocks, blocks
without DOM, deep nesting and the base URL."""

from __future__ import annotations

import pickle

import pytest
from lxml import html

from scrapy_boilerplate import extract
from scrapy_boilerplate.model.document import TextDocument
from scrapy_boilerplate.output.inline import Link, Text
from scrapy_boilerplate.output.markdown import render_markdown
from scrapy_boilerplate.output.structure import (
    MAX_CELL_WORDS,
    CodeBlock,
    ListBlock,
    Paragraph,
    content_structure,
    is_data_table,
    page_base_url,
)
from scrapy_boilerplate.page import parse_html, segment


def document(page: str, content: str = "") -> TextDocument:
    """``page`` segmented; every block is content, or those whose text contains ``content``."""
    doc = segment(parse_html(page))
    for block in doc.blocks:
        block.is_content = content in block.text
    return doc


@pytest.mark.parametrize(
    ("table", "data"),
    [
        ("<table><tr><td>a</td><td>b</td></tr></table>", True),
        ("<table><tr><th>a</th></tr><tr><td>b</td></tr></table>", False),  # one column
        ("<table role='presentation'><tr><td>a</td><td>b</td></tr></table>", False),
        ("<table><tr><td><div>a</div></td><td>b</td></tr></table>", False),
        ("<table><tr><td><ul><li>a</li></ul></td><td>b</td></tr></table>", False),
        ("<table><tr><td><table><tr><td>a</td><td>c</td></tr></table></td><td>b</td></tr>", False),
        ("<table><tr><td><p>a</p><p>c</p></td><td>b <br> d</td></tr></table>", True),
        (f"<table><tr><td>{'word ' * (MAX_CELL_WORDS + 1)}</td><td>b</td></tr></table>", False),
        (f"<table><tr><td>{'word ' * MAX_CELL_WORDS}</td><td>b</td></tr></table>", True),
    ],
)  # fmt: skip
def test_data_tables_are_told_from_layout_tables(table: str, data: bool) -> None:
    assert is_data_table(html.fragment_fromstring(table)) is data


def test_only_rows_with_content_are_kept_with_all_their_cells() -> None:
    doc = document(
        "<body><table><tr><td>Share</td><td>Print</td></tr>"
        "<tr><td>keep one</td><td>x</td></tr><tr><td>keep two</td><td>y</td></tr></table></body>",
        "keep",
    )
    assert render_markdown(content_structure(doc.blocks)) == (
        "| keep one |  |\n|---|---|\n| keep two |  |"
    )


def test_a_code_block_is_the_pre_as_written_or_its_content_lines() -> None:
    page = (
        "<body><pre class='lang-sh'>$ make\n\n  ok<div>drop this</div>$ make install</pre></body>"
    )
    (whole,) = content_structure(document(page).blocks)
    assert whole == CodeBlock("$ make\n\n  ok\ndrop this\n$ make install", "sh")
    (part,) = content_structure(document(page, "make").blocks)
    assert part == CodeBlock("$ make ok\n$ make install", "sh")


def test_a_paragraph_split_by_an_inline_tag_the_walk_splits_at_stays_one() -> None:
    doc = document("<body><p>Posted<time>today</time>by <small>Ann</small>.</p></body>")
    assert len(doc.blocks) == 5  # the segmentation splits at <time> and <small>
    assert content_structure(doc.blocks) == [Paragraph([Text("Posted today by Ann.")])]


def test_a_partly_kept_paragraph_gives_its_kept_blocks_only() -> None:
    doc = document("<body><p>Kept text<br>dropped text<br>kept again</p></body>", "ept")
    assert content_structure(doc.blocks) == [
        Paragraph([Text("Kept text")]),
        Paragraph([Text("kept again")]),
    ]


def test_merged_blocks_are_split_back_into_their_elements() -> None:
    doc = document("<body><h2>Title</h2><p>First <a href='/a'>link</a></p><p>Other</p></body>")
    first, second, third = doc.blocks
    first.merge_next(second)
    del doc.blocks[1]
    third.is_content = False
    assert render_markdown(content_structure(doc.blocks, "http://e.com/")) == (
        "## Title\n\nFirst [link](http://e.com/a)"
    )


def test_blocks_without_elements_give_plain_paragraphs() -> None:
    page = "<html><body><h1>Head</h1><ul><li>one item here</li></ul></body></html>"
    result = extract(page, extractor="keep-everything")
    copy = pickle.loads(pickle.dumps(result))
    assert render_markdown(content_structure(copy.blocks)) == "Head\n\none item here"


def test_deep_nesting_is_flattened_not_recursed() -> None:
    depth = 600
    page = "<body>" + "<ul><li>item" * depth + "</li></ul>" * depth + "</body>"
    nodes = content_structure(document(page).blocks)
    assert isinstance(nodes[0], ListBlock)
    assert render_markdown(nodes).count("item") == depth


def test_links_resolve_against_the_base_element() -> None:
    root = parse_html("<html><head><base href='/docs/'></head><body><p>x</p></body></html>")
    assert page_base_url(root, "https://e.com/a/b") == "https://e.com/docs/"
    assert page_base_url(parse_html("<p>x</p>"), "https://e.com/a") == "https://e.com/a"
    doc = document("<body><p><a href='page'>Go</a></p></body>")
    assert content_structure(doc.blocks, "https://e.com/docs/") == [
        Paragraph([Link("https://e.com/docs/page", (Text("Go"),))])
    ]

"""The compiled walk and word counts give exactly what the pure-Python reference gives.

Skipped when the extension is not built, unless ``BOILERPLATE_REQUIRE_SPEEDUPS`` is set (CI
sets it, so a broken build fails there instead of silently testing nothing).
"""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lxml import etree
from pure_python import twin_or_skip
from shared_datasets import SHARED_DATASETS

from scrapy_boilerplate import extract
from scrapy_boilerplate.evaluation.datasets import load_pages
from scrapy_boilerplate.model.document import TextBlock
from scrapy_boilerplate.page import segmentation, tags, tokens
from scrapy_boilerplate.page.parsing import parse_html

_speedups = twin_or_skip("scrapy_boilerplate.page._speedups")

FIXTURES = Path(__file__).parent / "fixtures"
Walk = tuple[str | None, list[Any], list[tokens.WordStats]]


def pure_walk(root: etree._Element, strict: bool) -> Walk:
    segmenter = segmentation._Segmenter(strict)
    segmenter.run(root)
    buffers = [buffer for buffer, *_ in segmenter.pending]
    return segmenter.title, segmenter.pending, tokens.block_word_stats(buffers)


def fast_walk(root: etree._Element, strict: bool) -> Walk:
    title, pending, _ = _speedups.walk(root, strict)
    buffers = [buffer for buffer, *_ in pending]
    return title, pending, _speedups.block_word_stats(buffers)


def assert_same_walk(root: etree._Element, strict: bool) -> None:
    pure_title, pure_pending, pure_stats = pure_walk(root, strict)
    fast_title, fast_pending, fast_stats = fast_walk(root, strict)
    assert fast_title == pure_title
    assert len(fast_pending) == len(pure_pending)
    for fast, pure in zip(fast_pending, pure_pending, strict=True):
        assert fast[:4] == pure[:4]
        assert fast[4] is pure[4]  # the very same lxml element
    assert fast_stats == pure_stats
    fast_blocks = _speedups.build_blocks(fast_pending, TextBlock)
    pure_blocks = segmentation._build_blocks(pure_pending)
    assert [_fields(b) for b in fast_blocks] == [_fields(b) for b in pure_blocks]
    assert all(type(b) is TextBlock for b in fast_blocks)


def _fields(block: Any) -> list[Any]:
    """Every dataclass field of ``block`` (elements compared by identity)."""
    return [getattr(block, field.name) for field in dataclasses.fields(block)]


@pytest.mark.parametrize("strict", [False, True])
def test_tag_classes_match_the_python_tables(strict: bool) -> None:
    classes = tags.TAG_CLASSES[strict]
    names = [*classes, "div", "p", "head", "title", "html", "x-widget", "bb", "scripts", ""]
    for name in names:
        assert _speedups.tag_class(name, strict) == classes.get(name, 0), name


HAND_MADE = [
    "<p>Plain <b>bold</b> and <a href='#'>a link</a> then text.</p>",
    "<html><head><title> The  title </title></head><body><h1>Head</h1><p>Body</p></body></html>",
    "<body><ul><li>one<li>two <a>three</a></ul><h2>sub</h2>tail text</body>",
    "<body><a href=1>outer <div>block in a link</div> still linked</a> after</body>",
    "<body><a>one <a>nested</a> two</a><p>x</p></body>",
    "<body>text<script>var x = 1;</script>more<style>p{}</style><noscript>no</noscript></body>",
    "<body><svg><text>drawn</text></svg><textarea>typed</textarea><iframe>f</iframe>x</body>",
    "<body><p>a&nbsp;b \u00a0 c\u3000d\u2028e\tf</p><p>   </p><p>\u00a0</p></body>",
    "<body><abbr>WHO</abbr>said<acronym>NATO</acronym>.</body>",
    "<body><p>don\u2019t \u00abquoted\u00bb \u00a9 2024 | menu \u2014 dash\u2026</p></body>",
    "<body><p>\u0915\u093f\u0924\u093e\u092c \u0645\u064e\u0643\u0652\u062a\u064e\u0628</p></body>",
    "<body>" + "<div>" * 60 + "deep" + "</div>" * 60 + "tail</body>",
    "<body><p>" + "word " * 200 + "</p><p>" + "x" * 120 + " short</p></body>",
    "<title>outside</title><p>no html element</p>",
    "<body><h3>h</h3><h4>not labelled</h4><table><tr><td>c1<td>c2</table></body>",
    "<html><body><p>x</p></body></html><p>after html</p>",
    # hidden by style or not: the compiled walk asks is_hidden only when the style may hide
    "<body><p style='DISPLAY : None'>a</p><p style='color:red'>b</p><p style>c</p>"
    "<p style='visibility:HIDDEN;'>d</p><p style='display:block; x:nonee'>e</p>"
    "<p style='diſplay:none'>f</p><p style='visibility:hİdden'>g</p>"
    "<p style='display:&#110;one'>h</p><p aria-hidden=' TRUE '>i</p><p hidden>j</p>"
    "<p style='font:bold' aria-hidden=false>k</p><p>" + "visible words " * 5 + "</p></body>",
    # text of format characters only makes no block (unless strict); linked, its markers stay
    "<body><p>a</p><p>\u200b</p><p>\u200b \ufeff\u00ad</p><p><a href=x>\u200b</a></p>"
    "<a href=y>\u200c<p>in the link</p></a><p>b\u200b</p></body>",
]


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("html", HAND_MADE)
def test_hand_made_pages(html: str, strict: bool) -> None:
    assert_same_walk(parse_html(html), strict)


def built_tree() -> etree._Element:
    """A tree the HTML parser never makes: comments, PIs, entities, namespaces, CDATA."""
    root = etree.Element("html")
    body = etree.SubElement(root, "body")
    body.text = "lead "
    body.append(etree.Comment(" a comment "))
    body[-1].tail = "after comment"
    body.append(etree.ProcessingInstruction("php", "echo 1"))
    body[-1].tail = " after pi"
    body.append(etree.Entity("nbsp"))
    body[-1].tail = "after entity"
    svg = etree.SubElement(body, "{http://www.w3.org/2000/svg}svg")
    svg.text = "namespaced"
    title = etree.SubElement(body, "{urn:x}title")
    title.text = "not a title"
    para = etree.SubElement(body, "p")
    para.text = etree.CDATA("cdata text")
    para.tail = "\n  "
    return root


@pytest.mark.parametrize("strict", [False, True])
def test_trees_built_with_the_api(strict: bool) -> None:
    assert_same_walk(built_tree(), strict)


def test_a_subtree_root_is_walked_like_the_reference() -> None:
    root = parse_html("<body><div><p>in <b>bold</b></p>tail of p</div>after div</body>")
    assert_same_walk(root.find(".//div"), False)
    assert_same_walk(root.find(".//b"), False)


def fixture_pages() -> Iterator[Path]:
    yield from sorted(path for path in FIXTURES.rglob("*.html"))


@pytest.mark.parametrize("path", list(fixture_pages()), ids=lambda path: path.name)
def test_fixture_pages(path: Path) -> None:
    root = parse_html(path.read_bytes())
    assert_same_walk(root, False)
    assert_same_walk(root, True)


ALPHABET = (
    "aZ09_"  # word characters
    "\"'.,!@-:;$?()/"  # glue
    "\u00a9|\u00bb\u2019\u2014#*+="  # other
    "\u0301\u093f\u064e"  # non-spacing marks
    "\u00e9\u0915\u4e2d\u0663"  # non-ASCII letters and digits
    "\u00a0\u2007\t"  # spaces that do not separate tokens
    f"  {tokens.LINK_START}{tokens.LINK_END}"
)


def random_buffer(rng: random.Random) -> str:
    length = rng.choice([0, 1, 3, 10, 40, 120, 400])
    text = "".join(rng.choice(ALPHABET) for _ in range(length))
    if rng.random() < 0.2:  # long words: the 80-column wrap
        text += " " + "w" * rng.randint(70, 100) + " tail"
    return text


@pytest.mark.parametrize("seed", range(20))
def test_word_stats_of_random_buffers(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(100):
        buffers = [random_buffer(rng) for _ in range(rng.randint(1, 5))]
        in_link = rng.random() < 0.3
        assert _speedups.block_word_stats(buffers, in_link) == tokens.block_word_stats(
            buffers, in_link
        ), buffers


# Pieces of words that hold spaces (NBSP, figure space, NEL, tab): their wrap is laid out as
# the reference's regex cuts lines, not by arithmetic; long runs around 80 columns included.
SPACED_PIECES = (
    "w",
    "ab",
    "\u00a0",
    "\u2007",
    "\u0085",
    "\t",
    " ",
    "x" * 30,
    "y" * 85,
    "\u00a0z",
    "\u00e9",
    "-",
    "\u00a9",
    "\u4e2d",
    f"{tokens.LINK_START} ",
    f"{tokens.LINK_END} ",
)


@pytest.mark.parametrize("seed", range(10))
def test_word_stats_of_words_holding_spaces(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(1000):
        buffer = "".join(rng.choice(SPACED_PIECES) for _ in range(rng.randint(1, 60)))
        in_link = rng.random() < 0.3
        assert _speedups.block_word_stats([buffer], in_link) == tokens.block_word_stats(
            [buffer], in_link
        ), buffer


@pytest.mark.parametrize(
    "buffer",
    [
        "\u00a0" + "w" * 85,  # a long word starting with a space: no line can start there
        "a\u00a0" + "w" * 90 + " tail",  # a space inside a word longer than the line
        " ".join(["ab\u00a0cd"] * 30),  # many short spaced words
        "w" * 79 + "\u00a0 x",  # a line ending just before the space
    ],
)
def test_word_stats_of_spaced_words_at_the_wrap_edges(buffer: str) -> None:
    assert _speedups.block_word_stats([buffer]) == tokens.block_word_stats([buffer])


@pytest.mark.parametrize("seed", range(5))
def test_marker_stripping_of_random_buffers(seed: int) -> None:
    rng = random.Random(seed)
    pieces = (tokens.LINK_START, tokens.LINK_END, " ", "  ", "a", "\u00e9", "\u4e2d", "\U0001f600")
    for _ in range(2000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 20)))
        assert _speedups.strip_markers(text) == tokens.strip_markers(text), text


@pytest.mark.parametrize("words", [[5] * 16, [80], [81], [81, 3], [3, 81], [40, 39], [40, 40]])
def test_word_stats_at_the_wrap_edges(words: list[int]) -> None:
    buffer = " ".join("w" * length for length in words)
    assert _speedups.block_word_stats([buffer]) == tokens.block_word_stats([buffer])


@pytest.mark.parametrize("dataset", ["wcxb-dev", "l3s-gn1"])
def test_every_shared_dataset_page(dataset: str) -> None:
    if not (SHARED_DATASETS / dataset).is_dir():
        pytest.skip(f"shared dataset {dataset} not present")
    count = 0
    for page in load_pages(dataset):
        root = parse_html(page.html)
        assert_same_walk(root, False)
        if count % 10 == 0:
            assert_same_walk(root, True)
        count += 1
    assert count > 500


def test_the_environment_variable_selects_the_pure_python_walk() -> None:
    page = FIXTURES / "site" / "article.html"
    code = (
        "import sys; from scrapy_boilerplate import extract; "
        "from scrapy_boilerplate.page import segmentation; "
        "assert not segmentation.ACCELERATED; "
        f"sys.stdout.write(extract(open({str(page)!r}, 'rb').read()).text)"
    )
    env = {**os.environ, segmentation.PURE_PYTHON_ENV: "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert segmentation.ACCELERATED
    assert done.stdout == extract(page.read_bytes()).text

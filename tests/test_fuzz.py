"""Fuzzing with generated HTML-like pages (hypothesis).

Pages come from a small grammar: nested tags (some left unclosed) with attributes that hide or
link, and text mixing ASCII, punctuation, non-breaking and figure spaces, CJK, Thai, Hangul, the
private-use characters the segmentation uses as link markers (U+E00A, U+E00B), U+FFFD,
combining marks, emoji and entities. Bytes are the pages encoded as UTF-8, cp1252 (unencodable
characters replaced) or UTF-16, or random binary.

Three properties:

* ``extract(page)`` returns an :class:`~scrapy_boilerplate.ExtractionResult` or raises a
  :class:`~scrapy_boilerplate.BoilerplateError`, never anything else;
* with ``include_markdown`` and ``include_html``, every block kept (``keep-everything``), the
  Markdown and the clean HTML are strings, empty exactly when the text is;
* the compiled walk and word counts (``_speedups``) give exactly the blocks the pure-Python
  reference gives (skipped when the extension is not built, unless
  ``BOILERPLATE_REQUIRE_SPEEDUPS`` is set).

The examples are fixed (``derandomize=True``): a run tests the same pages until hypothesis, Python
or this file changes.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_boilerplate import BoilerplateError, ExtractionResult, InvalidInputError, extract
from scrapy_boilerplate.page.parsing import parse_html

assert_same_walk: Callable[[Any, bool], None] | None
try:
    from scrapy_boilerplate.page import _speedups  # noqa: F401
except ImportError:
    if os.environ.get("BOILERPLATE_REQUIRE_SPEEDUPS"):
        raise
    assert_same_walk = None
else:
    from test_speedups import assert_same_walk

FUZZ = settings(max_examples=150, deadline=None, derandomize=True)

TAGS = [
    "div", "p", "span", "a", 'a href="/next"', "b", "li", "ul", "h1", "h2", "script", "style",
    "noscript", "font", "table", "td", "br",
]  # fmt: skip
VOID = {"br"}
ATTRIBUTES = [
    'href="https://example.com/page"', 'class="nav menu"', 'style="display:none"', "hidden",
    'aria-hidden="true"',
]  # fmt: skip
ALPHABET = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    "     .,;:!?'\"()/|*#@&<>-_"
    "\u00a0\u2007\t\n"  # no-break space, figure space
    "日本語の文章ภาษาไทย한국어"
    "\ue00a\ue00b"  # the link markers of the segmentation (private use)
    "\ufffd\u0301\U0001f600\U0001f44d\u200b"
)
SNIPPETS = [
    "&nbsp;", "&amp;", "&lt;", "&#8199;", "&#xE00A;", "&#xe00b;", "&copy;", "&mdash;",
    "The council approved the new budget after a long debate. ",
    "日本語の文章です。", "ภาษาไทยเป็นภาษา", "한국어 문장입니다. ", "a&nbsp;b ", "-" * 90,
    "w" * 85, " \ue00a link \ue00b ", "caf\u0065\u0301 ", "\U0001f600 ",
]  # fmt: skip


def render(tag: str, attributes: list[str], children: list[str], closed: bool) -> str:
    name = tag.split()[0]
    start = "<" + " ".join([tag, *attributes]) + ">"
    if name in VOID:
        return start + "".join(children)
    return start + "".join(children) + (f"</{name}>" if closed else "")


text = st.lists(
    st.one_of(st.text(ALPHABET, max_size=30), st.sampled_from(SNIPPETS)), max_size=4
).map("".join)


def element(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.builds(
        render,
        tag=st.sampled_from(TAGS),
        attributes=st.lists(st.sampled_from(ATTRIBUTES), max_size=2, unique=True),
        children=st.lists(children, max_size=4),
        closed=st.sampled_from([True, True, True, False]),  # some tags are left open
    )


fragment = st.recursive(
    text, lambda children: element(children) | st.lists(children, max_size=4).map("".join),
    max_leaves=40,
)  # fmt: skip
WRAPPERS = [
    "{}",
    "<html><body>{}</body></html>",
    "<html><head><title>A \ue00a title \ue00b</title></head><body>{}</body></html>",
    '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>{}',
]
html_text = st.builds(str.format, st.sampled_from(WRAPPERS), fragment)


def encode(page: str, encoding: str) -> bytes:
    return page.encode(encoding, errors="replace")


encoded_html = st.builds(encode, html_text, st.sampled_from(["utf-8", "cp1252", "utf-16"]))
html_bytes = st.one_of(st.binary(max_size=400), encoded_html)
pages = st.one_of(html_text, html_bytes)


@FUZZ
@given(page=pages)
def test_extract_returns_a_result_or_raises_a_boilerplate_error(page: str | bytes) -> None:
    try:
        result = extract(page)
    except BoilerplateError:
        return
    assert isinstance(result, ExtractionResult)


@FUZZ
@given(page=pages)
def test_structured_outputs_are_rendered_for_every_page(page: str | bytes) -> None:
    try:
        result = extract(
            page, extractor="keep-everything", include_markdown=True, include_html=True
        )
    except BoilerplateError:
        return
    assert isinstance(result.markdown, str) and isinstance(result.html, str)
    assert bool(result.markdown) == bool(result.html) == bool(result.text)


@pytest.mark.skipif(assert_same_walk is None, reason="the compiled speedups are not built")
@FUZZ
@given(page=st.one_of(html_text, encoded_html), strict=st.booleans())
def test_compiled_and_pure_python_walks_give_the_same_blocks(
    page: str | bytes, strict: bool
) -> None:
    assert assert_same_walk is not None
    try:
        root = parse_html(page)
    except InvalidInputError:
        return  # empty or whitespace-only: nothing to walk
    assert_same_walk(root, strict)

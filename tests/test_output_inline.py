"""Inline content of a paragraph: styles, links, code and line breaks, whitespace rules."""

from __future__ import annotations

from lxml import html

from scrapy_boilerplate.output.inline import (
    Code,
    LineBreak,
    Link,
    Styled,
    Text,
    inline_spans,
    plain_text,
    resolve_link,
    visible_text,
)
from scrapy_boilerplate.page import parse_html

BASE = "https://example.com/news/a.html"


def spans(fragment: str) -> tuple[object, ...]:
    return inline_spans(html.fragment_fromstring(fragment), BASE)


def test_styles_links_code_and_breaks() -> None:
    assert spans(
        "<p> Read <a href='b.html'>the <b>second</b> part</a>, run <code>ls  -l</code><br>"
        " then <em>stop</em>. </p>"
    ) == (
        Text("Read "),
        Link(
            "https://example.com/news/b.html",
            (Text("the "), Styled("strong", (Text("second"),)), Text(" part")),
        ),
        Text(", run "),
        Code("ls -l"),
        LineBreak(),
        Text("then "),
        Styled("em", (Text("stop"),)),
        Text("."),
    )  # fmt: skip


def test_whitespace_collapses_across_tags_and_edges_are_trimmed() -> None:
    assert spans("<p>\n  one\u00a0 <span> two </span>  three <br> four <br> <br> </p>") == (
        Text("one two three"),
        LineBreak(),
        Text("four"),
    )


def test_block_level_hidden_and_script_children_are_skipped_but_their_tails_kept() -> None:
    assert (
        plain_text(
            spans(
                "<li>Item <ul><li>nested</li></ul> tail <span hidden>secret</span> end"
                "<script>x()</script><style>p{}</style><img src=x alt=pic></li>"
            )
        )
        == "Item tail end"
    )


def test_a_style_or_link_already_open_is_not_opened_again() -> None:
    assert spans("<p><b>a <strong>b</strong></b> <a href='/x'>c <a href='/y'>d</a></a></p>") == (
        Styled("strong", (Text("a b"),)),
        Text(" "),
        Link("https://example.com/x", (Text("c "),)),
        Link("https://example.com/y", (Text("d"),)),
    )  # lxml closes the outer <a> at the inner one, as browsers do


def test_links_are_resolved_and_useless_targets_dropped() -> None:
    assert resolve_link(" /a b ", BASE) == "https://example.com/a b"
    assert resolve_link("other.html", None) == "other.html"
    for dropped in ("#top", "javascript:void(0)", "JavaScript:x", "data:text/html,x", "", None):
        assert resolve_link(dropped, BASE) is None
    assert spans("<p>see <a href='#notes'>notes</a></p>") == (Text("see notes"),)


def test_deep_inline_nesting_does_not_recurse() -> None:
    depth = 1500  # beyond Python's recursion limit, within the parser's
    page = "<body><p>" + "<span>" * depth + "deep" + "</span>" * depth + " end</p></body>"
    paragraph = parse_html(page).find(".//p")
    assert paragraph is not None
    assert inline_spans(paragraph) == (Text("deep end"),)


def test_visible_text_keeps_whitespace_and_breaks() -> None:
    pre = html.fragment_fromstring("<pre>a  b\n  c<br>d<span hidden>x</span><i>e</i></pre>")
    assert visible_text(pre) == "a  b\n  c\nde"


def test_visible_text_puts_block_level_elements_on_lines_of_their_own() -> None:
    pre = html.fragment_fromstring("<pre><div>1</div>a\n\n<div>2</div><p>b\n</p>c</pre>")
    assert visible_text(pre) == "1\na\n\n2\nb\nc"


def test_where_the_segmentation_splits_a_space_separates_the_words() -> None:
    assert spans(
        "<div><span>1,992</span><span aria-hidden='true'>2</span><span>2 gold badges</span>"
        "<a href='/a'>Posted</a><time>today</time>by <small>Ann</small>. H<sub>2</sub>O</div>"
    ) == (
        Text("1,992 2 gold badges "),
        Link("https://example.com/a", (Text("Posted"),)),
        Text(" today by Ann. H2O"),
    )

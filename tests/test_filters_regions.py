"""Captions and comments brought back on request."""

from __future__ import annotations

from scrapy_boilerplate.filters.regions import (
    DropHeadlineFilter,
    KeepCaptionsFilter,
    KeepCommentsFilter,
)
from scrapy_boilerplate.model.document import TextDocument
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

PAGE = b"""<html><body><article>
<p>The first paragraph of the article.</p>
<figure><img src="a.jpg"><figcaption>The mayor at the opening.</figcaption></figure>
<p class="photo-credit">Photo: A. Person</p>
<p>The last paragraph of the article.</p></article>
<figure><figcaption>A caption of a teaser below the article.</figcaption></figure>
<section id="comments"><div class="c"><p>I disagree with the mayor.</p></div>
<div class="c"><p><a href="/u/1">link</a> <a href="/u/2">list</a></p></div></section>
</body></html>"""


def article_doc() -> TextDocument:
    doc = segment(parse_html(PAGE))
    for block in doc.blocks:
        block.is_content = "paragraph of the article" in block.text
    return doc


def content(doc: TextDocument) -> list[str]:
    return [block.text for block in doc.blocks if block.is_content]


def test_captions_inside_the_article_span_come_back() -> None:
    doc = article_doc()
    assert KeepCaptionsFilter()(doc) is True
    assert content(doc) == [
        "The first paragraph of the article.",
        "The mayor at the opening.",
        "Photo: A. Person",
        "The last paragraph of the article.",
    ]


def test_comments_with_unlinked_text_come_back() -> None:
    doc = article_doc()
    assert KeepCommentsFilter()(doc) is True
    assert content(doc)[-1] == "I disagree with the mayor."
    assert "link list" not in content(doc)


def test_nothing_selected_nothing_kept() -> None:
    doc = segment(parse_html(PAGE))
    assert KeepCaptionsFilter()(doc) is False


def test_the_headline_leaves_the_text() -> None:
    doc = segment(parse_html(b"<html><body><h1>Big  News</h1><p>Body text here.</p></body></html>"))
    for block in doc.blocks:
        block.is_content = True
    assert DropHeadlineFilter(lambda _: "big news")(doc) is True
    assert content(doc) == ["Body text here."]
    assert DropHeadlineFilter(lambda _: None)(doc) is False

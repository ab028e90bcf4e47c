"""Captions and comments brought back on request."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.filters.regions import (
    CommentRegionFilter,
    DropHeadlineFilter,
    KeepCaptionsFilter,
    KeepCommentsFilter,
    LeadFilter,
    is_comment_name,
    lead_candidates,
)
from scrapy_boilerplate.model import labels as L
from scrapy_boilerplate.model.document import TextDocument
from scrapy_boilerplate.output.text import comments_text
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
    CommentRegionFilter()(doc)
    assert KeepCommentsFilter()(doc) is True
    assert content(doc)[-1] == "I disagree with the mayor."
    assert "link list" not in content(doc)


def test_comments_come_back_only_on_the_page_types_asked() -> None:
    forum, service = article_doc(), article_doc()
    forum.page_type, service.page_type = "forum", "service"
    for doc in (forum, service):
        CommentRegionFilter()(doc)
    only_forums = KeepCommentsFilter(page_types=frozenset({"forum"}))
    assert only_forums(service) is False
    assert "I disagree with the mayor." not in content(service)
    assert only_forums(forum) is True
    assert content(forum)[-1] == "I disagree with the mayor."


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


LEAD_PAGE = b"""<html><body><div class="nav"><p>Home | World</p></div>
<header><h1>Storm hits the coast</h1><p class="lead">Thousands without power after the
storm, the worst in a decade.</p><p class="byline">By A. Writer</p></header>
<div class="body"><p>The storm reached the coast on Monday night.</p>
<p>Power was restored to most homes by Wednesday.</p></div></body></html>"""


def lead_doc(lead_score: float = 0.6) -> TextDocument:
    """The page after the main-region rule: the body content, the lead dropped outside it."""
    doc = segment(parse_html(LEAD_PAGE))
    for block in doc.blocks:
        block.score = 0.9 if block.text.startswith(("The storm", "Power")) else 0.1
        block.is_content = block.score > 0.5
        if block.text.startswith("Thousands"):
            block.score = lead_score
            block.labels.add(L.OUTSIDE_MAIN_GROUP)
    return doc


def test_the_lead_under_the_headline_comes_back() -> None:
    doc = lead_doc()
    assert LeadFilter(lambda _: "Storm hits the coast")(doc) is True
    assert content(doc)[0].startswith("Thousands without power")
    assert len(content(doc)) == 3  # the byline, scored low, stays out


def test_lead_candidates_are_the_scored_short_blocks_right_under_the_headline() -> None:
    doc = lead_doc()
    assert [block.text[:9] for block in lead_candidates(doc, "Storm hits the coast")] == [
        "Thousands"
    ]  # the byline right after it scores 0.1
    assert lead_candidates(doc, None) == [] and lead_candidates(doc, "Not here") == []
    assert lead_candidates(lead_doc(lead_score=0.3), "Storm hits the coast") == []


@pytest.mark.parametrize(
    ("headline", "lead_score"),
    [
        (None, 0.6),  # no headline
        ("A headline not on the page", 0.6),
        ("Storm hits the coast", 0.3),  # the model did not take it for content
    ],
)
def test_no_lead_without_a_headline_block_or_a_score(
    headline: str | None, lead_score: float
) -> None:
    doc = lead_doc(lead_score)
    assert LeadFilter(lambda _: headline)(doc) is False
    assert not any(block.text.startswith("Thousands") for block in doc.blocks if block.is_content)


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        ("comment-body", True),
        ("commentList", True),
        ("disqus_thread", True),
        ("c comments", True),
        ("kommentare-liste", True),
        ("commentary opinion", False),  # a kind of article, not reader comments
        ("comments-open single", False),  # a state of the page (WordPress <body>)
        ("post has-comments", False),
        ("tag-comments category-news", False),
        ("comment-count", False),
        ("comment-form", False),
        ("noloaddisqus", False),
        ("", False),
    ],
)
def test_comment_names_hold_comments_not_describe_them(names: str, expected: bool) -> None:
    assert is_comment_name(names) is expected


THREAD = b"""<html><body class="single comments-open"><article class="post has-comments">
<p>The first paragraph of the article.</p><p>The last paragraph of the article.</p></article>
<ol id="comments"><h3>2 comments</h3>
<li class="comment"><p><a href="/u/ann">Ann</a></p><p>I disagree with the mayor.</p>
<p>She should resign.</p></li>
<li class="comment"><p>Well said, Ann.</p></li></ol>
</body></html>"""


def thread_doc() -> TextDocument:
    doc = segment(parse_html(THREAD))
    for block in doc.blocks:
        block.is_content = True
    return doc


def test_comment_threads_leave_the_content_whatever_the_page_classes_say() -> None:
    doc = thread_doc()
    assert CommentRegionFilter()(doc) is True
    assert content(doc) == [
        "The first paragraph of the article.",
        "The last paragraph of the article.",
    ]
    labelled = [block.text for block in doc.blocks if L.COMMENT in block.labels]
    assert labelled == [
        "2 comments",
        "Ann",
        "I disagree with the mayor.",
        "She should resign.",
        "Well said, Ann.",
    ]


def test_comments_text_is_one_paragraph_per_comment_in_page_order() -> None:
    doc = thread_doc()
    CommentRegionFilter()(doc)
    # the thread's heading and the author link are not comment text
    assert comments_text(doc.blocks) == (
        "I disagree with the mayor.\nShe should resign.\n\nWell said, Ann."
    )
    assert comments_text(segment(parse_html(PAGE)).blocks) == ""  # no filter, no labels

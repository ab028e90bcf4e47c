"""Comment sections found by their heading and signatures (``filters/comment_sections.py``)."""

from __future__ import annotations

from block_factory import make_block

from scrapy_boilerplate.filters.comment_sections import CommentSectionFilter
from scrapy_boilerplate.model import labels as L
from scrapy_boilerplate.model.document import TextDocument
from scrapy_boilerplate.output.text import article_text, comments_text

STORY = "The club named its new manager on Thursday after a month of talks with three candidates."


def _doc(*texts: str, story_paragraphs: int = 4) -> TextDocument:
    blocks = [make_block(STORY, content=True) for _ in range(story_paragraphs)]
    blocks += [make_block(text, content=True) for text in texts]
    return TextDocument(blocks=blocks)


def test_signed_comments_under_a_heading_leave_the_text_one_paragraph_each() -> None:
    doc = _doc(
        "Comments",
        "What a marvellous opportunity for him.",
        "He will do well abroad.",
        "Posted by Idealist on January 10, 2008 5:58 PM",
        "Report this comment",
        "Harry lives in a large house by the sea.",
        "Posted by Ann on January 10, 2008 6:02 PM",
        "Contact us | Privacy",
    )
    assert CommentSectionFilter()(doc) is True
    assert article_text(doc.blocks).split("\n\n") == [STORY] * 4 + ["Contact us | Privacy"]
    assert comments_text(doc.blocks) == (
        "What a marvellous opportunity for him.\nHe will do well abroad.\n\n"
        "Harry lives in a large house by the sea."
    )
    assert all(L.COMMENT in block.labels for block in doc.blocks[4:11])
    assert L.COMMENT_TEXT not in doc.blocks[7].labels  # a signature is no comment text


def test_a_closed_thread_runs_to_the_end_of_the_page() -> None:
    doc = _doc("Comments are now closed for this story", "Stephen B", "Stop spending my money!")
    assert CommentSectionFilter()(doc) is True
    assert article_text(doc.blocks) == "\n\n".join([STORY] * 4)
    assert comments_text(doc.blocks) == "Stephen B\nStop spending my money!"


def test_a_heading_without_signatures_changes_nothing() -> None:
    doc = _doc("Comments", "Our rules for comments are below.", "Be kind to each other.")
    assert CommentSectionFilter()(doc) is False
    assert all(block.is_content and not block.labels for block in doc.blocks)


def test_a_heading_above_the_story_is_a_link_to_the_thread_not_the_thread() -> None:
    blocks = [
        make_block("12 comments", content=True),
        make_block("Posted by Ann on January 10", content=True),
        make_block(STORY, content=True),
        make_block("Posted by Bob on January 11", content=True),
    ]
    doc = TextDocument(blocks=blocks)
    assert CommentSectionFilter()(doc) is False
    assert all(block.is_content for block in doc.blocks)

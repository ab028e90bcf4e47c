"""Modal dialogs (cookie notices, sign-in pop-ups) leave the text; a page shown in one keeps it."""

from __future__ import annotations

import pytest

from scrapy_boilerplate import extract
from scrapy_boilerplate.evaluation.datasets import Page
from scrapy_boilerplate.filters.dialogs import DialogFilter, dialog_blocks
from scrapy_boilerplate.model import labels as L
from scrapy_boilerplate.model.document import TextDocument
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment
from scrapy_boilerplate.page.tags import is_dialog
from scrapy_boilerplate.training.dataset import page_rows
from scrapy_boilerplate.training.train import Decoding, decode

STORY = (
    "The harbour board approved the new ferry terminal on Tuesday after a long debate about "
    "its cost and the noise it would bring to the old quay."
)
NOTICE = (
    "This cookie notice explains how we and our partners use cookies and similar technologies "
    "to recognise you when you visit our services, and what your choices are."
)


def page(attributes: str = 'role="dialog"') -> str:
    notice = "".join(f"<p>{NOTICE} Section {n}.</p>" for n in range(8))
    return (
        "<html><head><title>Ferry terminal approved</title></head><body>"
        f"<article><h1>Ferry terminal approved</h1><p>{STORY}</p><p>{STORY}</p></article>"
        f'<div id="consent"><div {attributes}><h2>Cookie notice</h2>{notice}</div></div>'
        "</body></html>"
    )


@pytest.mark.parametrize(
    ("attributes", "expected"),
    [
        ('role="dialog"', True),
        ('role=" AlertDialog "', True),
        ('aria-modal="true"', True),
        ('role="region" aria-modal="false"', False),
        ('class="dialog"', False),
    ],
)
def test_what_a_dialog_is(attributes: str, expected: bool) -> None:
    root = parse_html(f"<body><div {attributes}><p>x</p></div></body>")
    assert is_dialog(root.find(".//div")) is expected


def scored(html: str) -> TextDocument:
    """Every block content, as a classifier that took the notice for text would leave it."""
    doc = segment(parse_html(html))
    for block in doc.blocks:
        block.is_content, block.score = True, 0.9
    return doc


def test_blocks_inside_a_dialog_leave_the_content() -> None:
    doc = scored(page())
    assert DialogFilter()(doc) is True
    notice = [block for block in doc.blocks if NOTICE in block.text]
    assert len(notice) == 8
    for block in notice:
        assert not block.is_content and block.score == 0.0
        assert {L.DIALOG, L.STRICTLY_NOT_CONTENT} <= block.labels
    assert all(block.is_content for block in doc.blocks if STORY in block.text)


def test_a_page_whose_content_is_all_in_a_dialog_keeps_it() -> None:
    doc = scored(page())
    for block in doc.blocks:
        block.is_content = NOTICE in block.text
    assert DialogFilter()(doc) is False
    assert all(block.is_content for block in doc.blocks if NOTICE in block.text)


def test_a_page_without_dialogs_is_left_alone() -> None:
    doc = scored(page('class="consent"'))
    assert dialog_blocks(doc) == [] and DialogFilter()(doc) is False


def test_the_learned_article_leaves_a_cookie_notice_longer_than_the_story_out() -> None:
    result = extract(page())
    assert STORY in result.text and NOTICE not in result.text


def test_training_rows_carry_the_dialog_blocks_and_decoding_drops_them() -> None:
    rows = page_rows(Page(id="p", html=page().encode(), url=None, gold_text=STORY))
    assert rows is not None and len(rows.dialog_blocks) == 9  # the heading and 8 paragraphs
    text = decode(rows, [0.9] * len(rows.blocks), Decoding(0.25, 0.2))
    assert STORY in text and NOTICE not in text

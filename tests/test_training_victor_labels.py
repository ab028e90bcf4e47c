"""Victor's training labels: gold segments aligned to blocks."""

from __future__ import annotations

import pytest
from shared_datasets import SHARED_DATASETS

from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.victor import victor_blocks
from scrapy_boilerplate.training.victor_labels import (
    aligned_labels,
    alignment_tokens,
    markdown_segments,
)


def test_alignment_tokens() -> None:
    assert alignment_tokens("“Hello,” World! — ﬁne e-mail") == ["hello", "world", "fine", "e-mail"]


def test_markdown_segments() -> None:
    markdown = (
        "# Title *here*\n\nFirst line of a\nparagraph with a [link](http://x.org).\n\n"
        "- item **one**\n* item two\n1. item three\n\n| a | b |\n|---|---|\n| c | d |\n\n"
        "![alt text](img.png)\n> quoted"
    )
    assert markdown_segments(markdown) == [
        ("h", "Title here"),
        ("p", "First line of a paragraph with a link."),
        ("l", "item one"),
        ("l", "item two"),
        ("l", "item three"),
        ("p", "a   b"),
        ("p", "c   d"),
        ("p", "alt text quoted"),
    ]


def test_labels_of_a_synthetic_page() -> None:
    html = (
        "<body><a href='/'>Home</a><h2>News of the day</h2><p>See <a href='#'>our site</a>"
        " for more details.</p><p>Second paragraph here.</p><ul><li>first item</li>"
        "<li>second item</li></ul><p>Copyright notice of the site</p><b></b></body>"
    )
    blocks = victor_blocks(parse_html(html))
    gold = [
        ("h", "News of the day"),
        ("p", "See our site for more details."),
        ("p", "Second paragraph here."),
        ("l", "first item"),
        ("l", "second item"),
    ]
    labels = aligned_labels([b.text for b in blocks], [b.glued for b in blocks], gold)
    assert list(zip([b.text for b in blocks], labels, strict=True)) == [
        ("Home", "o"),
        ("News of the day", "h"),
        ("See", "p"),
        ("our site", "c"),
        ("for more details.", "c"),
        ("Second paragraph here.", "p"),
        ("first item", "l"),
        ("second item", "l"),
        ("Copyright notice of the site", "o"),
    ]


def test_unmatched_segment_start_and_empty_blocks() -> None:
    # the gold paragraph starts with a word the page lacks: its first matched block opens it
    texts = ["menu", "alpha beta", "gamma delta", "---"]
    glued = [False, False, False, True]
    labels = aligned_labels(texts, glued, [("p", "zeta alpha beta gamma delta")])
    assert labels == ["o", "p", "c", "c"]
    assert aligned_labels(["---"], [False], [("p", "x")]) == ["o"]


CLEANEVAL_DEV = SHARED_DATASETS / "cleaneval" / "dev"


@pytest.mark.skipif(not CLEANEVAL_DEV.is_dir(), reason="CleanEval dev not in ../shared/datasets")
def test_oracle_labels_reassemble_the_cleaneval_gold() -> None:
    from scrapy_boilerplate.evaluation.cleaneval import EvertTotals, evert_counts
    from scrapy_boilerplate.training.victor import decoded_cleaneval, victor_dataset

    pages = victor_dataset(str(CLEANEVAL_DEV))
    assert len(pages) == 58
    totals = EvertTotals()
    for page in pages:
        totals.add(evert_counts(page.gold_cleaneval, decoded_cleaneval(page, page.codes)))
    assert totals.mean("f1") >= 0.94
    assert totals.mean("tag_f1") >= 0.94

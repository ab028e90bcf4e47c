"""CleanEval formats and Evert's CleanEval measure."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.evaluation.cleaneval import (
    EvertCounts,
    EvertTotals,
    cleaneval_segments,
    evert_counts,
    evert_tokens,
)
from scrapy_boilerplate.model import labels as L
from scrapy_boilerplate.model.document import TextBlock
from scrapy_boilerplate.output.cleaneval import cleaneval_document

GOLD = (
    "URL: http://example.org/a\n<h> A title\n<p> First paragraph\ncontinues here.\n"
    "<l> an item\n  <p>   Last\x07one\n"
)


def test_segments() -> None:
    assert cleaneval_segments(GOLD) == [
        ("h", "A title"),
        ("p", "First paragraph continues here."),
        ("l", "an item"),
        ("p", "Last\x07one"),
    ]
    assert cleaneval_segments("no markers\nat all") == [("p", "no markers at all")]


def test_writer_and_reader_round_trip() -> None:
    blocks = [
        TextBlock("Menu", 1, labels={L.VICTOR_OTHER}),
        TextBlock("A title", 2, labels={L.VICTOR_HEADER}, is_content=True),
        TextBlock("Some\ntext", 2, labels={L.VICTOR_PARAGRAPH}, is_content=True),
        TextBlock("item", 1, labels={L.LI}, is_content=True),
        TextBlock("more", 1, labels={L.VICTOR_CONTINUATION}, is_content=True),
        TextBlock("Sub", 1, labels={L.HEADING}, is_content=True),
    ]
    document = cleaneval_document(blocks, "http://x.org/")
    assert document == (
        "URL: http://x.org/\n<h> A title\n<p> Some text\n<l> item\n<p> more\n<h> Sub\n"
    )
    assert cleaneval_segments(document) == [
        ("h", "A title"),
        ("p", "Some text"),
        ("l", "item"),
        ("p", "more"),
        ("h", "Sub"),
    ]


def test_tokens() -> None:
    assert evert_tokens(GOLD) == [
        "<h>", "A", "title", "<p>", "First", "paragraph", "continues", "here.",
        "<l>", "an", "item", "<p>", "Last", "one",
    ]  # fmt: skip
    assert evert_tokens("URL: x\n<p>a<l>b", tags=False) == ["a", "b"]


def test_gold_against_itself_scores_one() -> None:
    counts = evert_counts(GOLD, GOLD)
    assert counts.f1 == counts.tag_f1 == 1.0


def test_untagged_gold_loses_only_the_tags() -> None:
    untagged = "\n".join(" ".join(evert_tokens(GOLD, tags=False)).split())
    counts = evert_counts(GOLD, untagged)
    assert counts.precision == 1.0
    assert counts.recall == pytest.approx(10 / 14)
    assert counts.tag_recall == 0.0
    assert evert_counts(GOLD, untagged, tags=False).f1 == 1.0


def test_hand_computed_two_files() -> None:
    # file 1: gold "<p> a b c <p> d", predicted "<p> a b <l> d x"
    # alignment: "<p> a b" (3, 1 tag), "d" (1): matched 4 of 6 predicted and 6 gold tokens
    first = evert_counts("<p> a b c <p> d", "<p> a b <l> d x")
    assert (first.matched, first.predicted, first.gold) == (4, 6, 6)
    assert (first.matched_tags, first.predicted_tags, first.gold_tags) == (1, 2, 2)
    assert first.f1 == pytest.approx(4 / 6)
    assert first.tag_f1 == pytest.approx(0.5)
    # file 2: nothing predicted
    second = evert_counts("<p> a", "")
    assert (second.precision, second.recall, second.f1) == (0.0, 0.0, 0.0)
    assert evert_counts("", "").f1 == 1.0
    totals = EvertTotals([first, second])
    assert totals.mean("f1") == pytest.approx((4 / 6 + 0) / 2)
    assert totals.mean("tag_f1") == pytest.approx(0.25)
    assert EvertTotals().mean("f1") == 0.0
    assert isinstance(totals.files[0], EvertCounts)

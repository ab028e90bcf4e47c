"""Labelling heuristics of the reference boilerpipe (reference §5.4-§5.7, §5.13, §5.18).

Citations "reference §N" and "Q<n>" point to ``docs/reference-quirks.md``.
"""

from __future__ import annotations

import pytest
from block_factory import content_flags, make_block, make_doc, words

from scrapy_boilerplate.filters.heuristics import (
    ArticleMetadataFilter,
    DocumentTitleMatchClassifier,
    IgnoreBlocksAfterContentFilter,
    ListAtEndFilter,
    MainContentFilter,
    TerminatingBlocksFinder,
    TrailingHeadlineToBoilerplateFilter,
    java_split,
    title_candidates,
)
from scrapy_boilerplate.model.labels import (
    ARTICLE_METADATA,
    HEADING,
    INDICATES_END_OF_TEXT,
    LI,
    MIGHT_BE_CONTENT,
    TITLE,
    VERY_LIKELY_CONTENT,
)
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

# --- TerminatingBlocksFinder -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Comments (12)",
        "© Reuters 2009. All rights reserved",
        "Please rate this article",
        "Post a comment",
        "5 comments so far",
        "1234 users responded in this poll",
        "Tell us what you think...",
        "Click to add your comment",
        "Add comment",
        "Reader views",
        "Have your say",
        "Show reader comments",
        "Rätta artikeln",
        "Thanks for your comments - this feedback is now closed",
    ],
)
def test_end_of_text_indicators(text: str) -> None:
    doc = make_doc(make_block(text))
    assert TerminatingBlocksFinder()(doc) is True
    assert INDICATES_END_OF_TEXT in doc.blocks[0].labels


@pytest.mark.parametrize(
    "text",
    [
        "Comment",  # shorter than 8 characters and not linked
        "No comments here",  # "comments" is not a prefix
        "Thanks for your comments - this feedback is now closed. Really",
        "comments " + words(14),  # 15 words: too long to be tested
    ],
)
def test_not_end_of_text(text: str) -> None:
    doc = make_doc(make_block(text))
    assert TerminatingBlocksFinder()(doc) is False
    assert not doc.blocks[0].labels


def test_end_of_text_minimum_length_is_8_characters() -> None:
    # "comments" is exactly 8 characters; "  Comment " trims to 7 and is not linked.
    doc = make_doc(make_block("comments"), make_block("  Comment "))
    TerminatingBlocksFinder()(doc)
    assert [bool(block.labels) for block in doc.blocks] == [True, False]


def test_indicators_are_found_among_many_blocks_and_after_a_length_changing_lowering() -> None:
    # the blocks worth testing are found in the joined texts: each indicator block is labelled
    # wherever it stands, and a page whose lower-cased text grows ("İ" becomes two
    # characters) is tested block by block
    texts = ["Intro text here", "Have your say", words(3), "5 comments so far", "Add comment"]
    for prefix in ("", "İstanbul İzmir "):
        doc = make_doc(
            *(make_block(prefix + text if i == 0 else text) for i, text in enumerate(texts))
        )
        assert TerminatingBlocksFinder()(doc) is True
        labelled = [INDICATES_END_OF_TEXT in block.labels for block in doc.blocks]
        assert labelled == [False, True, False, True, True]


def test_fully_linked_comment_only_in_1_3() -> None:
    # Vector 3 (reference §9): the second, fully linked "Comment" block gets the label (1.3).
    root = parse_html("<div>a<a href='#'>Comment</a></div><div><a href='#'>Comment</a></div>")
    doc = segment(root)
    TerminatingBlocksFinder()(doc)
    assert [INDICATES_END_OF_TEXT in b.labels for b in doc.blocks] == [False, True]
    doc_12 = segment(root)
    assert TerminatingBlocksFinder(version="1.2")(doc_12) is False
    assert not any(b.labels for b in doc_12.blocks)


# --- DocumentTitleMatchClassifier ------------------------------------------------------------


def test_java_split_drops_trailing_empty_pieces() -> None:
    import re

    bar = re.compile(r" *\| *")
    assert java_split(bar, "a | b | ") == ["a", "b"]
    assert java_split(bar, "no separator") == ["no separator"]
    assert java_split(bar, "| a") == ["", "a"]
    assert java_split(bar, "title |") == ["title"]


def test_title_candidates_example_1() -> None:
    candidates = title_candidates("Big News: Something Happened - Example.com")
    assert {
        "big news: something happened - example.com",
        "big news: something happened",
        "big news",
        "something happened",
        "example.com",
    } <= candidates


def test_title_candidates_example_2() -> None:
    candidates = title_candidates("Obama's plan fails | Politics | The Guardian")
    assert "obama's plan fails | politics | the guardian".replace("'", "") in candidates
    assert "obamas plan fails" in candidates


def test_title_candidates_bare_hyphen_breaks_words_q11() -> None:
    assert "mail scams rise, experts say" in title_candidates(
        "e-mail scams rise, experts say - BBC News"
    )


def test_title_candidates_min_four_word_parts() -> None:
    candidates = title_candidates("Short | A much longer part of it | Site")
    assert "a much longer part of it" in candidates
    assert "site" not in candidates


@pytest.mark.parametrize("title", [None, "", "   ", "\u00a0"])
def test_no_title_no_candidates(title: str | None) -> None:
    assert title_candidates(title) == frozenset()
    doc = make_doc(make_block("anything"), title=title)
    assert DocumentTitleMatchClassifier()(doc) is False


def test_title_match_labels_only_the_first_matching_block() -> None:
    doc = make_doc(
        make_block("Menu"),
        make_block("Something Happened!"),  # matches after deleting "!"
        make_block("something happened"),
        title="Big News: Something Happened - Example.com",
    )
    assert DocumentTitleMatchClassifier()(doc) is True
    assert [TITLE in b.labels for b in doc.blocks] == [False, True, False]


def test_title_match_normalises_nbsp_and_apostrophes() -> None:
    doc = make_doc(make_block("Obama's\u00a0plan fails"), title="Obama's plan fails | Politics")
    DocumentTitleMatchClassifier()(doc)
    assert TITLE in doc.blocks[0].labels


def test_title_match_explicit_title_overrides_document_title() -> None:
    doc = make_doc(make_block("Other Headline"), title="Page title")
    DocumentTitleMatchClassifier(title="Other Headline")(doc)
    assert TITLE in doc.blocks[0].labels


def test_title_match_1_2_is_exact_and_labels_every_match() -> None:
    title = "Storm Hits Coast | Weather News"
    doc = make_doc(
        make_block("Storm Hits Coast"),
        make_block("storm hits coast"),
        make_block("Storm Hits Coast"),
        title=title,
    )
    assert DocumentTitleMatchClassifier(version="1.2")(doc) is True
    assert [TITLE in b.labels for b in doc.blocks] == [True, False, True]
    # 1.2 has no " - " tail/head candidates and no case folding.
    assert "storm hits coast" not in title_candidates(title, "1.2")
    assert title_candidates("Headline - Site", "1.2") >= {"Headline - Site", "Headline"}


# --- IgnoreBlocksAfterContentFilter ----------------------------------------------------------


def test_ignore_after_content_needs_60_full_text_words() -> None:
    doc = make_doc(
        make_block(nw=59, td=12, content=True),
        make_block("Comments", content=True, labels={INDICATES_END_OF_TEXT}),
        make_block(nw=5, td=9, content=True),
        make_block("Comments", content=True, labels={INDICATES_END_OF_TEXT}),
        make_block(nw=40, td=12, content=True),
    )
    assert IgnoreBlocksAfterContentFilter()(doc) is True
    # 59 at the first marker; 59 + 5 (td 9 counts) = 64 at the second one.
    assert content_flags(doc) == [True, True, True, False, False]
    assert INDICATES_END_OF_TEXT in doc.blocks[3].labels


def test_ignore_after_content_counts_only_dense_content_blocks_q17() -> None:
    doc = make_doc(
        make_block(nw=100, td=8.5, content=True),  # not full text: td < 9
        make_block(nw=100, td=12, content=False),  # full text, but not content
        make_block("Comments", labels={INDICATES_END_OF_TEXT}),
        make_block(nw=30, td=12, content=True),
    )
    assert IgnoreBlocksAfterContentFilter()(doc) is False
    assert content_flags(doc) == [True, False, False, True]


def test_ignore_after_content_includes_the_marker_block_own_words() -> None:
    doc = make_doc(
        make_block(nw=50, td=10, content=True),
        make_block(nw=10, td=10, content=True, labels={INDICATES_END_OF_TEXT}),
    )
    IgnoreBlocksAfterContentFilter()(doc)
    assert content_flags(doc) == [True, False]


# --- TrailingHeadlineToBoilerplateFilter -----------------------------------------------------


def test_trailing_headlines_become_boilerplate() -> None:
    doc = make_doc(
        make_block(nw=50, content=True, labels={HEADING}),
        make_block(nw=50, content=True),
        make_block(nw=5, content=True, labels={HEADING}),
        make_block(nw=5, content=False),
        make_block(nw=5, content=True, labels={HEADING}),
        make_block(nw=5, content=False, labels={HEADING}),
    )
    assert TrailingHeadlineToBoilerplateFilter()(doc) is True
    assert content_flags(doc) == [True, True, False, False, False, False]
    assert TrailingHeadlineToBoilerplateFilter()(doc) is False


# --- ListAtEndFilter -------------------------------------------------------------------------


def test_list_at_end_keeps_deeper_link_free_items_after_the_main_block() -> None:
    doc = make_doc(
        make_block(nw=3, tl=6, labels={MIGHT_BE_CONTENT, LI}),  # before the main block
        make_block(nw=200, tl=5, content=True, labels={VERY_LIKELY_CONTENT}),
        make_block(nw=3, tl=6, labels={MIGHT_BE_CONTENT, LI}),
        make_block(nw=4, tl=7, labels={MIGHT_BE_CONTENT, LI}),
        make_block(nw=4, nwa=1, tl=6, labels={MIGHT_BE_CONTENT, LI}),  # linked: stops the run
        make_block(nw=4, tl=6, labels={MIGHT_BE_CONTENT, LI}),
    )
    assert ListAtEndFilter()(doc) is True
    assert content_flags(doc) == [False, True, True, True, False, False]


@pytest.mark.parametrize(
    "tail",
    [
        dict(nw=3, tl=5, labels={MIGHT_BE_CONTENT, LI}),  # same level
        dict(nw=3, tl=6, labels={MIGHT_BE_CONTENT}),  # not a list item
        dict(nw=3, tl=6, labels={LI}),  # not a candidate
    ],
)
def test_list_at_end_needs_deeper_candidate_list_items(tail: dict) -> None:
    doc = make_doc(
        make_block(nw=200, tl=5, content=True, labels={VERY_LIKELY_CONTENT}), make_block(**tail)
    )
    assert ListAtEndFilter()(doc) is False
    assert content_flags(doc) == [True, False]


# --- ArticleMetadataFilter -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["March 3, 2009", "12:30 pm EST", "2009", "By Jane Doe", "by the staff", "03/04/2009"]
)
def test_article_metadata_matches(text: str) -> None:
    doc = make_doc(make_block(text))
    assert ArticleMetadataFilter()(doc) is True
    assert doc.blocks[0].is_content and ARTICLE_METADATA in doc.blocks[0].labels


@pytest.mark.parametrize(
    "text", ["Posted March 3, 2009", "Bylines are short", "march 3, 2009", "Jane Doe", "Read more"]
)
def test_article_metadata_rejects(text: str) -> None:
    doc = make_doc(make_block(text))
    assert ArticleMetadataFilter()(doc) is False
    assert not doc.blocks[0].is_content


def test_article_metadata_only_short_blocks() -> None:
    doc = make_doc(make_block("By " + words(10)))
    assert ArticleMetadataFilter()(doc) is False


# --- MainContentFilter (paper) ---------------------------------------------------------------


def test_main_content_filter_cuts_above_title_and_below_comments() -> None:
    doc = make_doc(
        make_block(nw=80, content=True),  # above the title: dropped
        make_block("Headline", labels={TITLE}),
        make_block(nw=30, content=True),
        make_block(nw=30, content=True),
        make_block("Comments", labels={INDICATES_END_OF_TEXT}),
        make_block(nw=90, content=True),  # a long user comment: dropped
    )
    assert MainContentFilter()(doc) is True
    assert content_flags(doc) == [False, False, True, True, False, False]


def test_main_content_filter_without_labels_is_largest_content() -> None:
    doc = make_doc(
        make_block(nw=30, content=True),
        make_block(nw=5),
        make_block(nw=20, content=True),
        make_block(nw=20, content=True),
    )
    MainContentFilter()(doc)
    assert content_flags(doc) == [False, False, True, True]

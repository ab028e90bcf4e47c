"""Selection filters: the main block, its expansion, clause filtering (reference §5.9-§5.16, §5.19).

Citations "reference §N" and "Q<n>" point to ``docs/reference-quirks.md``.
"""

from __future__ import annotations

import pytest
from block_factory import content_flags, make_block, make_doc, texts

from scrapy_boilerplate.filters.selection import (
    BoilerplateBlockFilter,
    ExpandTitleToContentFilter,
    KeepLargestBlockFilter,
    LargeBlockSameTagLevelToContentFilter,
    LargestContentFilter,
    MinClauseWordsFilter,
    SurroundingToContentFilter,
    has_clause,
)
from scrapy_boilerplate.model.labels import MIGHT_BE_CONTENT, TITLE, VERY_LIKELY_CONTENT

# --- BoilerplateBlockFilter ------------------------------------------------------------------


@pytest.mark.parametrize(("keep_title", "expected"), [(True, ["t", "c"]), (False, ["c"])])
def test_boilerplate_block_filter_deletes_non_content(
    keep_title: bool, expected: list[str]
) -> None:
    doc = make_doc(
        make_block("nav"), make_block("t", labels={TITLE}), make_block("c", content=True)
    )
    assert BoilerplateBlockFilter(keep_title=keep_title)(doc) is True
    assert texts(doc) == expected
    assert BoilerplateBlockFilter(keep_title=keep_title)(doc) is False


# --- KeepLargestBlockFilter ------------------------------------------------------------------


def test_keep_largest_marks_the_first_largest_content_block() -> None:
    doc = make_doc(
        make_block(nw=500),  # not content: not a candidate
        make_block(nw=40, content=True),
        make_block(nw=40, content=True),
    )
    assert KeepLargestBlockFilter()(doc) is True
    assert content_flags(doc) == [False, True, False]
    assert [sorted(b.labels) for b in doc.blocks] == [
        [MIGHT_BE_CONTENT],
        [VERY_LIKELY_CONTENT],
        [MIGHT_BE_CONTENT],
    ]


def test_keep_largest_without_content_makes_everything_a_candidate() -> None:
    doc = make_doc(make_block(nw=5), make_block(nw=6))
    KeepLargestBlockFilter()(doc)
    assert content_flags(doc) == [False, False]
    assert all(b.labels == {MIGHT_BE_CONTENT} for b in doc.blocks)


def test_keep_largest_is_inert_below_two_blocks_q16() -> None:
    doc = make_doc(make_block(nw=5, content=True))
    assert KeepLargestBlockFilter(expand=True)(doc) is False
    assert not doc.blocks[0].labels


def test_keep_largest_expands_to_same_level_blocks_until_a_lower_level() -> None:
    doc = make_doc(
        make_block(nw=200, tl=5),  # beyond the level-4 block: not reached
        make_block(nw=10, tl=4),
        make_block(nw=150, tl=5),  # same level, >= 150 words
        make_block(nw=149, tl=5),  # too short
        make_block(nw=300, tl=6),  # deeper: skipped, does not stop
        make_block(nw=400, tl=5, content=True),  # the largest
        make_block(nw=160, tl=5, content=True),
        make_block(nw=5, tl=3),
        make_block(nw=500, tl=5),
    )
    KeepLargestBlockFilter(expand=True, min_words=150)(doc)
    assert content_flags(doc) == [False, False, True, False, False, True, True, False, False]


# --- ExpandTitleToContentFilter --------------------------------------------------------------


def test_expand_title_marks_candidates_between_title_and_content() -> None:
    doc = make_doc(
        make_block("old title", labels={TITLE, MIGHT_BE_CONTENT}),
        make_block("nav", labels={MIGHT_BE_CONTENT}),
        make_block("headline", labels={TITLE, MIGHT_BE_CONTENT}),
        make_block("byline", labels={MIGHT_BE_CONTENT}),
        make_block("not a candidate"),
        make_block("main", content=True, labels={VERY_LIKELY_CONTENT}),
        make_block("later", labels={MIGHT_BE_CONTENT}),
    )
    assert ExpandTitleToContentFilter()(doc) is True
    assert content_flags(doc) == [False, False, True, True, False, True, False]


@pytest.mark.parametrize(
    "blocks",
    [
        [dict(text="main", content=True), dict(text="t", labels={TITLE, MIGHT_BE_CONTENT})],
        [dict(text="a", labels={MIGHT_BE_CONTENT}), dict(text="main", content=True)],
        [
            dict(text="t", labels={TITLE, MIGHT_BE_CONTENT}),
            dict(text="b", labels={MIGHT_BE_CONTENT}),
        ],
    ],
)
def test_expand_title_needs_a_title_before_content(blocks: list[dict]) -> None:
    doc = make_doc(*(make_block(**b) for b in blocks))
    before = content_flags(doc)
    assert ExpandTitleToContentFilter()(doc) is False
    assert content_flags(doc) == before


# --- LargeBlockSameTagLevelToContentFilter ---------------------------------------------------


def test_large_blocks_at_the_main_level_become_content() -> None:
    doc = make_doc(
        make_block(nw=100, tl=5),
        make_block(nw=99, tl=5),
        make_block(nw=300, tl=5, content=True, labels={VERY_LIKELY_CONTENT}),
        make_block(nw=120, tl=4),
        make_block(nw=100, tl=5),
    )
    assert LargeBlockSameTagLevelToContentFilter()(doc) is True
    assert content_flags(doc) == [True, False, True, False, True]


def test_large_blocks_need_a_very_likely_content_block() -> None:
    doc = make_doc(make_block(nw=300, tl=5, content=True), make_block(nw=200, tl=5))
    assert LargeBlockSameTagLevelToContentFilter()(doc) is False


# --- MinClauseWordsFilter --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "accepted"),
    [
        ("This sentence has five words. Then more", True),
        ("Short one. Another, short. But this clause is long enough!", True),
        ("Storm hits coast", False),  # no delimiter
        ('"It will rain all day long," he said."', False),  # a quote follows each punctuation
        ("Five words without a delimiter at the end", False),
        ("One two three four five:\nsix", True),
        ("Two words. three four five six seven", False),  # text after the last delimiter
        ("Version 2.0 is out now with fixes.", True),
    ],
)
def test_min_clause_words(text: str, accepted: bool) -> None:
    doc = make_doc(make_block(text, content=True), make_block(text))
    assert MinClauseWordsFilter()(doc) is (not accepted)
    assert content_flags(doc) == [accepted, False]


def test_min_clause_words_accepting_text_without_delimiter() -> None:
    assert has_clause("Five words without a delimiter", 5, accept_without_delimiter=True)
    assert not has_clause("Four words no delimiter", 5, accept_without_delimiter=True)
    assert has_clause("Two words. three four five six seven", 5, accept_without_delimiter=True)


# --- SurroundingToContentFilter --------------------------------------------------------------


def test_surrounding_to_content_checks_every_triple() -> None:
    doc = make_doc(
        make_block(nw=50, content=True),
        make_block(nw=7),  # link-free, > 6 words: becomes content
        make_block(nw=50, content=True),
        make_block(nw=7),  # the reference skips this triple (Q19); we do not
        make_block(nw=50, content=True),
        make_block(nw=6),  # too short
        make_block(nw=50, content=True),
        make_block(nw=20, nwa=1),  # linked
        make_block(nw=50, content=True),
    )
    assert SurroundingToContentFilter()(doc) is True
    assert content_flags(doc) == [True, True, True, True, True, False, True, False, True]


# --- LargestContentFilter (paper) ------------------------------------------------------------


def test_largest_content_keeps_the_largest_run_without_merging() -> None:
    doc = make_doc(
        make_block(nw=60, content=True),
        make_block(nw=3),
        make_block(nw=40, content=True),
        make_block(nw=30, content=True),
        make_block(nw=3),
        make_block(nw=70, content=True),
    )
    assert LargestContentFilter()(doc) is True
    assert content_flags(doc) == [False, False, True, True, False, False]
    assert len(doc.blocks) == 6


def test_largest_content_ties_keep_the_earliest_and_single_runs_are_kept() -> None:
    doc = make_doc(
        make_block(nw=10, content=True), make_block(nw=1), make_block(nw=10, content=True)
    )
    LargestContentFilter()(doc)
    assert content_flags(doc) == [True, False, False]
    single = make_doc(make_block(nw=1), make_block(nw=10, content=True))
    assert LargestContentFilter()(single) is False

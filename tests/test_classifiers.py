"""The neighbour classifiers: Algorithms 1 and 2, Canola, 1R and CleanEval (reference §5.1-§5.3).

Citations "reference §N" and "Q<n>" point to ``docs/reference-quirks.md``.
"""

from __future__ import annotations

import pytest
from block_factory import content_flags, make_block, make_doc

from scrapy_boilerplate.classifiers import (
    CANOLA_RULES,
    DENSITY_RULES,
    NUM_WORDS_RULES,
    MinWordsClassifier,
    NeighbourClassifier,
    canola_rule,
    cleaneval_rule,
    density_rule,
    num_words_rule,
    text_density_1r_rule,
)
from scrapy_boilerplate.model.document import EMPTY_BLOCK


def test_empty_block_has_zero_features() -> None:
    assert (EMPTY_BLOCK.num_words, EMPTY_BLOCK.link_density, EMPTY_BLOCK.text_density) == (0, 0, 0)


@pytest.mark.parametrize(
    ("prev", "curr", "nxt", "expected"),
    [
        # curr.ld > 0.333333: boilerplate whatever the neighbours
        (dict(nw=5), dict(nw=30, nwa=11), dict(nw=50), False),
        # prev.ld <= 0.555556, curr.nw <= 16: next.nw > 15, else prev.nw > 4
        (dict(nw=0), dict(nw=10), dict(nw=16), True),
        (dict(nw=5), dict(nw=10), dict(nw=15), True),
        (dict(nw=4), dict(nw=10), dict(nw=15), False),
        # prev.ld <= 0.555556, curr.nw > 16: content
        (dict(nw=0), dict(nw=17), dict(nw=0), True),
        # prev.ld > 0.555556 (a link list): curr.nw > 40, else next.nw > 17
        (dict(nw=10, nwa=6), dict(nw=41), dict(nw=0), True),
        (dict(nw=10, nwa=6), dict(nw=40), dict(nw=18), True),
        (dict(nw=10, nwa=6), dict(nw=40), dict(nw=17), False),
    ],
)
def test_num_words_rule(prev: dict, curr: dict, nxt: dict, expected: bool) -> None:
    assert num_words_rule(make_block(**prev), make_block(**curr), make_block(**nxt)) is expected


@pytest.mark.parametrize(
    ("prev", "curr", "nxt", "expected"),
    [
        (dict(td=4), dict(td=8, nwa=4, nw=10), dict(td=12), False),
        # curr.td <= 9: next.td > 10, else prev.td > 4
        (dict(td=0), dict(td=9), dict(td=10.5), True),
        (dict(td=4.5), dict(td=9), dict(td=10), True),
        (dict(td=4), dict(td=9), dict(td=10), False),
        # curr.td > 9: content unless the next block has no words (document end, "|")
        (dict(td=0), dict(td=13), dict(td=1), True),
        (dict(td=20), dict(td=13), dict(td=0), False),
        # prev.ld > 0.555556: next.td > 11
        (dict(nw=10, nwa=6), dict(td=15), dict(td=11.5), True),
        (dict(nw=10, nwa=6), dict(td=15), dict(td=11), False),
    ],
)
def test_density_rule(prev: dict, curr: dict, nxt: dict, expected: bool) -> None:
    assert density_rule(make_block(**prev), make_block(**curr), make_block(**nxt)) is expected


def test_link_density_threshold_is_inclusive_at_0_333333() -> None:
    one_third = make_block(nw=3, nwa=1)  # 0.33333... > 0.333333
    assert num_words_rule(EMPTY_BLOCK, one_third, make_block(nw=20)) is False
    below = make_block(nw=1_000_000, nwa=333_333)  # exactly 0.333333
    assert num_words_rule(EMPTY_BLOCK, below, EMPTY_BLOCK) is True


@pytest.mark.parametrize(
    ("prev", "curr", "nxt", "expected"),
    [
        (dict(nw=0), dict(nw=3, nwa=1), dict(nw=12), True),  # linked, long next
        (dict(nw=0), dict(nw=20), dict(nw=0), True),
        (dict(nw=0), dict(nw=7), dict(nw=7), True),
        (dict(nw=8), dict(nw=2), dict(nw=7), True),
        (dict(nw=2), dict(nw=2), dict(nw=20), True),
        (dict(nw=2), dict(nw=2), dict(nw=7), False),
        (dict(nw=8, nwa=1), dict(nw=7), dict(nw=7), False),
    ],
)
def test_canola_rule(prev: dict, curr: dict, nxt: dict, expected: bool) -> None:
    assert canola_rule(make_block(**prev), make_block(**curr), make_block(**nxt)) is expected


def test_paper_single_feature_rules() -> None:
    assert text_density_1r_rule(EMPTY_BLOCK, make_block(td=10.5), EMPTY_BLOCK) is False
    assert text_density_1r_rule(EMPTY_BLOCK, make_block(td=11), EMPTY_BLOCK) is True
    assert cleaneval_rule(EMPTY_BLOCK, make_block(td=7, nw=20, nwa=7), EMPTY_BLOCK) is True
    assert cleaneval_rule(EMPTY_BLOCK, make_block(td=7, nw=20, nwa=8), EMPTY_BLOCK) is False


def test_neighbour_classifier_uses_empty_blocks_at_edges_and_original_features() -> None:
    seen: list[tuple[int, int, int]] = []

    def spy(prev, curr, nxt) -> bool:
        seen.append((prev.num_words, curr.num_words, nxt.num_words))
        return curr.num_words > 1

    doc = make_doc(make_block(nw=1), make_block(nw=2), make_block(nw=3))
    assert NeighbourClassifier(spy)(doc) is True
    assert seen == [(0, 1, 2), (1, 2, 3), (2, 3, 0)]
    assert content_flags(doc) == [False, True, True]
    assert NeighbourClassifier(spy)(doc) is False  # nothing changes the second time


def test_classifiers_on_an_empty_document() -> None:
    for classifier in (NUM_WORDS_RULES, DENSITY_RULES, CANOLA_RULES, MinWordsClassifier()):
        assert classifier(make_doc()) is False


def test_density_rules_last_dense_block_is_boilerplate() -> None:
    # reference §7: the missing neighbour is a zero block, so a dense last block is boilerplate.
    doc = make_doc(make_block(td=4), make_block(td=15))
    DENSITY_RULES(doc)
    assert content_flags(doc) == [True, False]


def test_min_words_classifier() -> None:
    doc = make_doc(make_block(nw=9), make_block(nw=10), make_block(nw=11, content=True))
    MinWordsClassifier(10)(doc)
    assert content_flags(doc) == [False, True, True]

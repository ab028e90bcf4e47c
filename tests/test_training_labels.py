"""Gold labels: blocks whose shingles are mostly in the gold text are content."""

from __future__ import annotations

from block_factory import make_block

from scrapy_boilerplate.training.labels import gold_labels, gold_shares

GOLD = "The council approved the budget on Monday.\n\nIt takes effect in May."


def test_long_blocks_need_half_their_shingles_in_gold() -> None:
    blocks = [
        make_block("The council approved the budget on Monday."),
        make_block("The council approved a new logo for the city on Friday night."),
        make_block("Share this story on social media"),
    ]
    shares = gold_shares(blocks, GOLD)
    assert shares[0] == 1.0
    assert 0.0 < shares[1] < 0.5
    assert gold_labels(blocks, GOLD) == [1, 0, 0]


def test_short_blocks_need_a_contiguous_gold_run() -> None:
    blocks = [make_block("effect in"), make_block("May effect"), make_block("...")]
    assert gold_labels(blocks, GOLD) == [1, 0, 0]


def test_short_links_need_a_whole_gold_line() -> None:
    gold = "Budget\n\nThe budget passed."
    blocks = [make_block("Budget", nwa=1), make_block("passed", nwa=1), make_block("passed")]
    assert gold_labels(blocks, gold) == [1, 0, 1]


def test_case_and_punctuation_do_not_matter() -> None:
    assert gold_labels([make_block("IT TAKES EFFECT, in may!")], GOLD) == [1]

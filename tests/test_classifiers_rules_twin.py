"""The compiled neighbour rules decide as the pure-Python ones: on random blocks (zero words,
zero lines, the thresholds' edges) and, when present, on every page of the shared datasets.

Skipped when the extension is not built, unless ``BOILERPLATE_REQUIRE_SPEEDUPS`` is set.
"""

from __future__ import annotations

import random

import pytest
from pure_python import assert_runs_in_pure_python, twin_or_skip
from shared_datasets import TWIN_DATASETS, segmented_pages

from scrapy_boilerplate.classifiers import rules
from scrapy_boilerplate.model.document import TextBlock

twin_or_skip("scrapy_boilerplate.classifiers._rules")

TWINNED = [rules.density_rule, rules.num_words_rule]


def assert_same_decisions(blocks: list[TextBlock]) -> None:
    for rule in TWINNED:
        assert rules.neighbour_decisions(blocks, rule) == rules.neighbour_decisions_pure(
            blocks, rule
        )


def random_block(rng: random.Random) -> TextBlock:
    """Counts around the trees' thresholds (4, 15-17, 40; densities 1/3, 5/9, 4, 9-11)."""
    words = rng.choice([0, 1, 3, 4, 5, 15, 16, 17, 18, 40, 41, 200])
    linked = rng.randint(0, words)
    lines = rng.choice([0, 1, 2, 3, 9])
    wrapped = rng.choice([0, 4, 5, 9, 10, 11, 12, 27, 30, 33])
    return TextBlock(
        "x", words, num_linked_words=linked, num_wrapped_words=wrapped, num_wrapped_lines=lines
    )


@pytest.mark.parametrize("seed", range(5))
def test_random_blocks(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(200):
        assert_same_decisions([random_block(rng) for _ in range(rng.randint(0, 12))])


def test_the_edges_see_an_empty_block() -> None:
    long_block = TextBlock("x", 50, num_wrapped_words=30, num_wrapped_lines=3)
    assert rules.neighbour_decisions([long_block], rules.num_words_rule) == [True]
    # text density 10 > 9: content only if the next block has text, and past the edge none has
    assert rules.neighbour_decisions([long_block], rules.density_rule) == [False]
    short = TextBlock("x", 3, num_wrapped_words=3, num_wrapped_lines=1)
    assert rules.neighbour_decisions([short], rules.num_words_rule) == [False]
    assert rules.neighbour_decisions([], rules.density_rule) == []


def test_other_rules_and_huge_counts_take_the_reference() -> None:
    blocks = [TextBlock("x", 2**70, num_wrapped_words=2**70, num_wrapped_lines=1)]
    assert rules.neighbour_decisions(blocks, rules.num_words_rule) == [True]
    assert rules.neighbour_decisions(blocks, rules.canola_rule) == [True]


@pytest.mark.parametrize("dataset", TWIN_DATASETS)
def test_every_shared_dataset_page(dataset: str) -> None:
    for _, doc in segmented_pages(dataset):
        assert_same_decisions(doc.blocks)


def test_the_environment_variable_selects_the_pure_python_code() -> None:
    code = "from scrapy_boilerplate.classifiers import rules\nassert not rules.ACCELERATED\n"
    assert_runs_in_pure_python(code)

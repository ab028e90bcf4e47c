"""Block-level L3S-GN1 scoring: decisions of merged blocks, and a run on the shared data."""

from __future__ import annotations

import pytest
from shared_datasets import SHARED_DATASETS

from scrapy_boilerplate.evaluation.blocks import _decisions, block_table, l3s_block_summary
from scrapy_boilerplate.evaluation.datasets import load_pages
from scrapy_boilerplate.model.document import TextBlock


def _block(text: str, content: bool) -> TextBlock:
    return TextBlock(text=text, num_words=1, is_content=content)


def test_merged_blocks_take_the_decision_of_the_block_they_joined() -> None:
    a, b, c, d = _block("a", True), _block("b", False), _block("c", False), _block("d", False)
    # b was merged into a, d survived on its own
    assert _decisions([a, b, c, d], [a, c, d]) == [True, True, False, False]
    assert _decisions([a, b], [a, b]) == [True, False]


L3S = SHARED_DATASETS / "l3s-gn1"


@pytest.mark.skipif(not L3S.is_dir(), reason="shared L3S-GN1 dataset not present")
def test_l3s_block_summary_on_shared_pages() -> None:
    pages = list(load_pages(L3S, limit=5))
    everything = l3s_block_summary("keep-everything", L3S, pages)
    assert everything.pages == 5
    assert everything.recall == 1.0  # keeping every block finds every content word
    assert 0.0 < everything.precision < 1.0
    assert everything.auc == 0.5  # one score for all blocks: no ranking
    assert "`keep-everything` | 5 |" in block_table([everything])

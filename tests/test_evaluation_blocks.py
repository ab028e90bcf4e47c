"""Block-level L3S-GN1 scoring: decisions of merged blocks, ROC AUC from model scores, and a
run on the shared data."""

from __future__ import annotations

import gzip
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from shared_datasets import SHARED_DATASETS

from scrapy_boilerplate import ExtractionContext, register_extractor
from scrapy_boilerplate.evaluation.blocks import _decisions, block_table, l3s_block_summary
from scrapy_boilerplate.evaluation.datasets import load_pages
from scrapy_boilerplate.filters import Filter
from scrapy_boilerplate.model.document import TextBlock, TextDocument


def _block(text: str, content: bool) -> TextBlock:
    return TextBlock(text=text, num_words=1, is_content=content)


def test_merged_blocks_take_the_decision_of_the_block_they_joined() -> None:
    a, b, c, d = _block("a", True), _block("b", False), _block("c", False), _block("d", False)
    a.score, c.score = 0.9, 0.2
    # b was merged into a, d survived on its own
    assert _decisions([a, b, c, d], [a, c, d]) == [
        (True, 0.9),
        (True, 0.9),
        (False, 0.2),
        (False, None),
    ]
    assert _decisions([a, b], [a, b]) == [(True, 0.9), (False, None)]


ANNOTATED = (
    "<html><head><title>T</title></head><body>"
    "<div><span class='x-nc-sel0'>Home News Sport Weather</span></div>"
    "<p><span class='x-nc-sel2'>The cat sat on the mat all day long and nobody minded it "
    "at all.</span></p>"
    "<div><span class='x-nc-sel0'>Copyright 2024 All rights reserved</span></div>"
    "</body></html>"
)


def _score_by_length(doc: TextDocument) -> bool:
    """Every block is content; its score grows with its words (ranks the paragraph first)."""
    for block in doc.blocks:
        block.is_content = True
        block.score = min(1.0, block.num_words / 20)
    return True


def _scored_chain(options: Mapping[str, Any], context: ExtractionContext) -> Sequence[Filter]:
    return [_score_by_length]


def test_roc_auc_ranks_by_block_scores_when_every_block_has_one(tmp_path: Path) -> None:
    for folder in ("annotated", "original"):
        (tmp_path / folder).mkdir()
        with gzip.open(tmp_path / folder / "p-1.html.gz", "wb") as handle:
            handle.write(ANNOTATED.encode("ascii"))
    register_extractor("test-scored", _scored_chain, replace=True)
    pages = list(load_pages(tmp_path))
    scored = l3s_block_summary("test-scored", tmp_path, pages)
    decided = l3s_block_summary("keep-everything", tmp_path, pages)
    assert scored.auc_from_scores and not decided.auc_from_scores
    assert scored.f1 == decided.f1  # the same decisions...
    assert scored.auc == 1.0 and decided.auc == 0.5  # ...but the scores rank the blocks


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

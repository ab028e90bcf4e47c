"""Text blocks: scores survive merging, ``to_dict`` and the rows sent back by workers."""

from __future__ import annotations

import pickle

from scrapy_boilerplate import extract
from scrapy_boilerplate.model.document import TextBlock, blocks_from_rows, blocks_to_rows


def _block(words: int, score: float | None) -> TextBlock:
    return TextBlock(text="w " * words, num_words=words, score=score)


def test_merged_score_is_the_word_weighted_mean_of_known_scores() -> None:
    first = _block(3, 0.9)
    first.merge_next(_block(1, 0.1))
    assert abs((first.score or 0) - 0.7) < 1e-12  # (3 * 0.9 + 1 * 0.1) / 4
    known = _block(2, 0.4)
    known.merge_next(_block(5, None))
    assert known.score == 0.4
    unknown = _block(2, None)
    unknown.merge_next(_block(2, None))
    assert unknown.score is None
    wordless = _block(0, 0.2)
    wordless.merge_next(_block(0, 0.6))
    assert abs((wordless.score or 0) - 0.4) < 1e-12


def test_score_is_kept_in_to_dict_and_in_rows() -> None:
    block = TextBlock(text="A block", num_words=2, is_content=True, score=0.8125)
    assert block.to_dict()["score"] == 0.8125
    assert TextBlock(text="x", num_words=1).to_dict()["score"] is None
    (back,) = blocks_from_rows(pickle.loads(pickle.dumps(blocks_to_rows([block]))))
    assert back.score == 0.8125 and back.is_content and back.text == "A block"


def test_rule_extractors_leave_scores_unset() -> None:
    result = extract("<html><body><p>Some text here.</p></body></html>", extractor="article-rules")
    assert all(block.score is None for block in result.blocks)

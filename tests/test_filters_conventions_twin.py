"""The compiled word test of the news-convention rules (``_lines.WordMasks``) gives the masks of
the pure-Python reference (:func:`word_masks_pure`), and a block's rule is the same with and
without them: on hand-made and random texts and, when present, on every block of the shared
datasets.

Skipped when the extension is not built, unless ``BOILERPLATE_REQUIRE_SPEEDUPS`` is set.
"""

from __future__ import annotations

import random

import pytest
from pure_python import twin_or_skip
from shared_datasets import TWIN_DATASETS, segmented_pages

from scrapy_boilerplate.filters import conventions
from scrapy_boilerplate.filters.conventions import NewsConventionsFilter, word_masks_pure
from scrapy_boilerplate.model import labels as L
from scrapy_boilerplate.model.document import TextBlock, TextDocument

_lines = twin_or_skip("scrapy_boilerplate.filters._lines")

GROUPS = [("photo", "(ap", "©", "사진"), (), ("ab", "abc", "b"), ("i̇", "straße"), ("x",)]
TEXTS = [
    "", "Photo", "A PHOTO: ©", "(AP)", "[사진 출처]", "abc", "xab", "cab", "B", "aB", "İstanbul",
    "STRASSE", "Straße", "phot", "hoto", "photo" * 40, "ᏸ", "\x00photo", "x",
]  # fmt: skip


def assert_same_masks(texts: list[str], groups: list[tuple[str, ...]]) -> list[int]:
    masks = _lines.WordMasks(groups)(texts)
    assert masks == word_masks_pure(texts, groups)
    return masks


def test_hand_made_texts() -> None:
    masks = assert_same_masks(TEXTS, GROUPS)
    assert masks[TEXTS.index("A PHOTO: ©")] == 1  # found after lower-casing
    assert masks[TEXTS.index("aB")] == 4 and masks[TEXTS.index("")] == 0
    assert masks[TEXTS.index("İstanbul")] & 8  # "İ".lower() is two characters
    assert masks[TEXTS.index("STRASSE")] == 0  # lower-cased, not case-folded


_PIECES = ["photo", "PHO", "(ap", "©", "사", "진", "a", "b", "c", "İ", "ß", " ", "x", "\n"]


@pytest.mark.parametrize("seed", range(3))
def test_random_texts(seed: int) -> None:
    rng = random.Random(seed)
    texts = ["".join(rng.choices(_PIECES, k=rng.randrange(8))) for _ in range(3000)]
    assert_same_masks(texts, GROUPS)


def test_wrong_groups_and_texts_are_refused() -> None:
    with pytest.raises(ValueError):
        _lines.WordMasks([("a",)] * (_lines.MAX_GROUPS + 1))
    with pytest.raises(ValueError):
        _lines.WordMasks([("a", "")])
    with pytest.raises(TypeError):
        _lines.WordMasks(GROUPS)(["photo", b"photo"])


def test_a_text_that_is_not_a_str_leaves_the_words_to_each_block() -> None:
    blocks = [TextBlock("Advertisement", 1, is_content=True), TextBlock(b"x", 1, is_content=True)]  # type: ignore[arg-type]
    assert conventions._rule_word_masks(blocks) == {}


def _rule_groups() -> list[tuple[str, ...]]:
    return [words for _, _, _, words in conventions._LINE_RULES]


@pytest.mark.parametrize(
    "text",
    ["Advertisement", "Related stories", "Read more: the vote", "Caption", "Share this article",
     "Image 3 of 8", "By ANNA WEBER | Posted: 05/30/2024", "The council met on Monday."],
)  # fmt: skip
def test_the_rule_is_the_same_with_the_masks(text: str) -> None:
    block = TextBlock(text, len(text.split()), num_linked_words=len(text.split()) // 2)
    (mask,) = assert_same_masks([text], _rule_groups())
    for credits in (True, False):
        assert conventions._line_rule(block, credits, mask) == conventions._line_rule(
            block, credits, None
        )


def test_the_filter_drops_the_same_blocks() -> None:
    texts = ["Advertisement", "The council met.", "Related stories", "Photo: AP", "Close"]
    blocks = [TextBlock(text, len(text.split()), is_content=True) for text in texts]
    NewsConventionsFilter()(TextDocument(blocks))
    assert [L.BOILERPLATE_LINE in block.labels for block in blocks] == [1, 0, 1, 1, 1]


@pytest.mark.parametrize("dataset", [*TWIN_DATASETS, "fundus", "magic-html"])
def test_every_shared_dataset_page(dataset: str) -> None:
    groups = _rule_groups()
    for _, doc in segmented_pages(dataset):
        texts = [block.text for block in doc.blocks]
        masks = assert_same_masks(texts, groups)
        for block, mask in zip(doc.blocks, masks, strict=True):
            for credits in (True, False):
                assert conventions._line_rule(block, credits, mask) == conventions._line_rule(
                    block, credits, None
                )


def test_the_rules_without_words_begin_at_the_start() -> None:
    """The one search that stands for them is anchored: each of them must be."""
    for _, pattern, _, words in conventions._LINE_RULES:
        assert words or pattern.pattern.startswith(r"^\W*")

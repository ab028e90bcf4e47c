"""The feature rows of the learned block classifier: text, neighbours, rule decisions, structure
and page metadata of every block, in the fixed order of :func:`feature_names`.

Groups (each value a float):

* ``text``: the block's word counts, link and text density, characters, position, tag level,
  punctuation and its segmentation labels (``H1``, ``HEADING``, ``LI``);
* ``rules``: the decisions of the rule chain ``article-rules`` after each of its steps
  (word-count tree, end-of-text markers, grandparent grouping, gap filling), the densitometric
  tree's decision, and the share of rule-selected words within ±3 blocks;
* ``window``: words, link density, text density and the final rule decision of the blocks 1 and
  2 before and after (zeros past the page's edges);
* ``page``: the page's words, blocks, link density and rule-selected share;
* ``structure`` (:mod:`scrapy_boilerplate.features.structure`) and ``metadata``
  (:mod:`scrapy_boilerplate.features.metadata`).

Computing the rows runs the rule chain over the document, which sets ``is_content`` and the
rule labels; the learned classifier then overwrites ``is_content``.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Sequence
from typing import Final

from ..features.metadata import METADATA_FEATURES, metadata_features, page_texts
from ..features.structure import structure_feature_names, structure_features, structure_into
from ..filters.basic import FillContentGapsFilter
from ..filters.heuristics import IgnoreBlocksAfterContentFilter, TerminatingBlocksFinder
from ..filters.tree import AncestorGroupingFilter
from ..model import labels as L
from ..model.document import TextBlock, TextDocument
from ..page.declarations import document_declarations
from ..page.segmentation import compiled_twin
from .rules import DENSITY_RULES, NUM_WORDS_RULES, neighbour_decisions

__all__ = [
    "feature_names",
    "feature_rows",
    "feature_matrix",
    "feature_matrix_pure",
    "rule_decisions",
    "WINDOW_OFFSETS",
    "RULE_WINDOW",
    "ACCELERATED",
]

#: Neighbours (block offsets) whose features are part of a block's row.
WINDOW_OFFSETS: Final = (-2, -1, 1, 2)
#: The rule-selected word share is taken over the blocks within this many positions.
RULE_WINDOW: Final = 3
_TEXT: Final = (
    "num_words", "num_linked_words", "link_density", "text_density", "num_chars",
    "avg_word_chars", "tag_level", "position", "relative_position", "blocks_after",
    "ends_with_punctuation", "starts_uppercase", "digit_share", "num_vertical_bars",
    "commas_per_word", "full_stops_per_word", "label_h1", "label_heading", "label_li",
    "label_end_of_text",
)  # fmt: skip
_RULES: Final = (
    "rule_numwords", "rule_density", "rule_before_end", "rule_grouped", "rule_article",
    "rule_window_share",
)  # fmt: skip
_WINDOW: Final = ("num_words", "link_density", "text_density", "rule_article")
_PAGE: Final = ("page_words", "page_blocks", "page_link_density", "page_rule_share")
_DIGIT: Final = re.compile(r"\d")
_PUNCTUATION_END: Final = tuple(".!?:;\"'”’)…")
_STRUCTURE_WIDTH: Final = len(structure_feature_names())
_STRUCTURE_START: Final = len(_TEXT) + len(_RULES) + len(WINDOW_OFFSETS) * len(_WINDOW) + len(_PAGE)
_WIDTH: Final = _STRUCTURE_START + _STRUCTURE_WIDTH + len(METADATA_FEATURES)
#: The steps of the ``article-rules`` chain that :func:`rule_decisions` runs (stateless filters,
#: built once).
_FIND_END_MARKERS: Final = TerminatingBlocksFinder()
_CUT_AFTER_END: Final = IgnoreBlocksAfterContentFilter()
_GROUP: Final = AncestorGroupingFilter(2, 0.5)
_FILL_GAPS: Final = FillContentGapsFilter()
_features = compiled_twin(f"{__package__}._features")
#: True when :func:`feature_matrix` runs its compiled twin.
ACCELERATED: Final = _features is not None


def feature_names() -> list[str]:
    """The names of a feature row's values, in order."""
    window = [f"w{offset:+d}_{name}" for offset in WINDOW_OFFSETS for name in _WINDOW]
    return [
        *_TEXT,
        *_RULES,
        *window,
        *_PAGE,
        *structure_feature_names(),
        *METADATA_FEATURES,
    ]


def rule_decisions(doc: TextDocument) -> list[list[bool]]:
    """Run the ``article-rules`` chain over ``doc`` (its ``is_content`` ends as the chain's
    decisions); per step, every block's decision: word-count tree, density tree, before the
    end-of-text markers, grouped, final."""
    blocks = doc.blocks
    density = neighbour_decisions(blocks, DENSITY_RULES.rule)  # only recorded: not applied
    NUM_WORDS_RULES(doc)
    numwords = [block.is_content for block in blocks]
    _FIND_END_MARKERS(doc)
    _CUT_AFTER_END(doc)
    before_end = [block.is_content for block in blocks]
    _GROUP(doc)
    grouped = [block.is_content for block in blocks]
    _FILL_GAPS(doc)
    article = [block.is_content for block in blocks]
    return [numwords, density, before_end, grouped, article]


def _text_row(blocks: Sequence[TextBlock], index: int) -> list[float]:
    block = blocks[index]
    text = block.text
    chars = len(text)
    words = block.num_words
    labels = block.labels
    count = len(blocks)
    return [
        float(words),
        float(block.num_linked_words),
        block.link_density,
        block.text_density,
        float(chars),
        block.num_word_chars / words if words else 0.0,
        float(block.tag_level),
        float(index),
        index / count,
        float(count - 1 - index),
        1.0 if text.endswith(_PUNCTUATION_END) else 0.0,
        1.0 if text[:1].isupper() else 0.0,
        len(_DIGIT.findall(text)) / chars if chars else 0.0,
        float(text.count("|")),
        text.count(",") / words if words else 0.0,
        text.count(".") / words if words else 0.0,
        1.0 if L.H1 in labels else 0.0,
        1.0 if L.HEADING in labels else 0.0,
        1.0 if L.LI in labels else 0.0,
        1.0 if L.INDICATES_END_OF_TEXT in labels else 0.0,
    ]


def _window_share(words: Sequence[int], article: Sequence[bool], index: int) -> float:
    low, high = max(0, index - RULE_WINDOW), min(len(words), index + RULE_WINDOW + 1)
    total = sum(words[low:high])
    if not total:
        return 0.0
    return sum(w for w, keep in zip(words[low:high], article[low:high], strict=True) if keep) / (
        total
    )


def feature_rows(doc: TextDocument, headline: str | None) -> list[list[float]]:
    """One feature row per block of ``doc`` (see :func:`feature_names`); runs the rule chain.

    ``headline`` is the page's headline (:func:`~scrapy_boilerplate.extractors.title.find_title`
    or the gold title), used by the title-position features.
    """
    blocks = doc.blocks
    if not blocks:
        return []
    decisions = rule_decisions(doc)
    structure = structure_features(blocks, decisions[-1])
    metadata = metadata_features(blocks, page_texts(document_declarations(doc), headline))
    return _rows(blocks, decisions, structure, metadata)


def feature_matrix(doc: TextDocument, headline: str | None) -> tuple[array[float], int]:
    """The rows of :func:`feature_rows` one after the other in one array of doubles, and their
    number (:func:`feature_matrix_pure`, by the compiled twin in ``_features`` when it is
    built); runs the rule chain."""
    blocks = doc.blocks
    if _features is None or not blocks:
        return feature_matrix_pure(doc, headline)
    decisions = rule_decisions(doc)
    texts = page_texts(document_declarations(doc), headline)
    matrix: array[float] = _features.feature_matrix(blocks, decisions, _STRUCTURE_WIDTH, texts)
    structure_into(blocks, decisions[-1], matrix, _STRUCTURE_START, _WIDTH)
    return matrix, len(blocks)


def feature_matrix_pure(doc: TextDocument, headline: str | None) -> tuple[array[float], int]:
    """:func:`feature_matrix` in pure Python (the reference of the compiled twin)."""
    rows = feature_rows(doc, headline)
    matrix = array("d")
    for row in rows:  # array.fromlist: the fastest way from lists of floats to doubles
        matrix.fromlist(row)
    return matrix, len(rows)


def _rows(
    blocks: Sequence[TextBlock],
    decisions: Sequence[Sequence[bool]],
    structure: Sequence[list[float]],
    metadata: Sequence[list[float]],
) -> list[list[float]]:
    article = decisions[-1]
    words = [block.num_words for block in blocks]
    page_words = sum(words)
    page_linked = sum(block.num_linked_words for block in blocks)
    selected_words = sum(w for w, keep in zip(words, article, strict=True) if keep)
    page = [
        float(page_words),
        float(len(blocks)),
        page_linked / page_words if page_words else 0.0,
        selected_words / page_words if page_words else 0.0,
    ]
    neighbour = [
        [float(b.num_words), b.link_density, b.text_density, 1.0 if keep else 0.0]
        for b, keep in zip(blocks, article, strict=True)
    ]
    edge = [0.0] * len(_WINDOW)
    rows = []
    for index in range(len(blocks)):
        row = _text_row(blocks, index)
        row += [1.0 if decision[index] else 0.0 for decision in decisions]
        row.append(_window_share(words, article, index))
        for offset in WINDOW_OFFSETS:
            other = index + offset
            row += neighbour[other] if 0 <= other < len(blocks) else edge
        row += page
        row += structure[index]
        row += metadata[index]
        rows.append(row)
    return rows

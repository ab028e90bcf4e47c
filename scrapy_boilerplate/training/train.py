"""Training and cross-validation of the learned block classifier (LightGBM, ``[train]`` extra).

Rules: one row per block; a block's weight is ``1 + words ** 0.75`` (long blocks decide the
text F1); cross-validation folds group pages by domain (a site's pages are never on both sides);
the decoding thresholds are chosen on out-of-fold predictions, never on the pages a model was
trained on.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..classifiers.features import feature_names
from ..classifiers.gbdt import TreeEnsemble, from_lightgbm
from ..evaluation.metrics import Counts, page_f1, shingle_counts
from ..filters.comment_sections import CommentSectionFilter
from ..filters.conventions import NewsConventionsFilter
from ..filters.dialogs import DialogFilter
from ..filters.regions import (
    CommentRegionFilter,
    DropHeadlineFilter,
    KeepCommentsFilter,
    LeadFilter,
)
from ..filters.scores import ScoreGapFilter, ScoreGroupFilter, ScoreThresholdFilter
from ..model.document import TextDocument, blocks_from_rows
from ..output.text import article_text
from .dataset import PageRows, skeleton_elements

__all__ = [
    "Decoding",
    "TRAINING_PARAMETERS",
    "fit",
    "out_of_fold_scores",
    "decode",
    "score_decoding",
    "decoding_counts",
    "RULE_COLUMN",
    "tune_decoding",
    "decoding_grid",
    "decoding_metadata",
    "export",
    "Tuning",
]

#: LightGBM parameters of the shipped model.
TRAINING_PARAMETERS: dict[str, Any] = {
    "objective": "binary",
    "learning_rate": 0.08,
    "num_leaves": 31,
    "min_child_samples": 40,
    "feature_fraction": 0.7,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "lambda_l2": 1.0,
    "verbosity": -1,
    "num_threads": 2,
    "seed": 7,
    "deterministic": True,
}
NUM_TREES = 150
#: The feature column holding the rule chain's final decision (1.0 = content).
RULE_COLUMN = feature_names().index("rule_article")


@dataclass(frozen=True)
class Decoding:
    """How scores become decisions: a threshold, gap filling, then (when ``group`` is set) the
    main-region rule (see :mod:`..filters.scores`); ``keep_comments`` puts reader comments back
    into the text (as the ``page`` operating point does)."""

    threshold: float = 0.5
    gap_score: float = 0.2
    max_gap: int = 3
    group: ScoreGroupFilter | None = None
    keep_comments: bool = False


#: A block's row weight is ``1 + words ** WEIGHT_POWER`` (chosen by CV: 0.5 and 1 score lower).
WEIGHT_POWER = 0.75


def _weights(pages: Sequence[PageRows]) -> list[float]:
    return [1.0 + block[1] ** WEIGHT_POWER for page in pages for block in page.blocks]


def fit(pages: Sequence[PageRows], *, num_trees: int = NUM_TREES) -> Any:
    """Train a LightGBM booster on the blocks of ``pages``."""
    import lightgbm
    import numpy

    features = numpy.asarray([row for page in pages for row in page.rows], dtype=numpy.float64)
    labels = numpy.asarray([label for page in pages for label in page.labels])
    data = lightgbm.Dataset(features, labels, weight=_weights(pages), free_raw_data=True)
    return lightgbm.train(dict(TRAINING_PARAMETERS), data, num_boost_round=num_trees)


def out_of_fold_scores(
    pages: Sequence[PageRows],
    *,
    folds: int = 5,
    num_trees: int = NUM_TREES,
    train_on: Callable[[PageRows], bool] | None = None,
) -> list[list[float]]:
    """Per page, the block probabilities of a model trained on the other folds (pages grouped
    by domain into ``folds`` folds), on those of their pages that ``train_on`` accepts (all
    when None): e.g. a model of article pages scoring every page."""
    import numpy
    from sklearn.model_selection import GroupKFold  # type: ignore[import-untyped]

    groups = [page.domain for page in pages]
    scores: list[list[float]] = [[] for _ in pages]
    splitter = GroupKFold(n_splits=folds)
    for train_index, test_index in splitter.split(numpy.zeros(len(pages)), groups=groups):
        training = [pages[i] for i in train_index if train_on is None or train_on(pages[i])]
        if not training:
            raise ValueError("a cross-validation fold has no page to train on: use fewer folds")
        booster = fit(training, num_trees=num_trees)
        for i in test_index:
            if pages[i].rows:
                scores[i] = booster.predict(numpy.asarray(pages[i].rows)).tolist()
    return scores


def decode(page: PageRows, scores: Sequence[float], decoding: Decoding) -> str:
    """The article text the decoding keeps from ``page``'s blocks with ``scores`` (as the
    ``article`` chain does: threshold, else the rule chain's decisions; gap filling; comments
    and news boilerplate lines out; the main region; the headline out; the comments back in when
    the decoding keeps them)."""
    doc = TextDocument(blocks=blocks_from_rows(page.blocks))
    for block, score in zip(doc.blocks, scores, strict=True):
        block.score = score
    if page.skeleton:
        elements = skeleton_elements(page.skeleton)
        for block, container in zip(doc.blocks, page.containers, strict=True):
            if container >= 0:
                block.elements = [elements[container]]
    ScoreThresholdFilter(decoding.threshold)(doc)
    if not doc.content_blocks:  # as LearnedBlockClassifier: the rule chain's decisions stay
        for block, row in zip(doc.blocks, page.rows, strict=True):
            block.is_content = row[RULE_COLUMN] == 1.0
    ScoreGapFilter(decoding.gap_score, decoding.max_gap)(doc)
    DialogFilter()(doc, page.dialog_blocks)
    CommentRegionFilter()(doc)
    CommentSectionFilter()(doc)
    NewsConventionsFilter()(doc)
    if decoding.group is not None:
        decoding.group(doc)
        LeadFilter(lambda _: page.title)(doc)
    DropHeadlineFilter(lambda _: page.title)(doc)
    if decoding.keep_comments:
        KeepCommentsFilter()(doc)
    return article_text(doc.blocks)


def decoding_counts(
    pages: Sequence[PageRows], scores: Sequence[Sequence[float]], decoding: Decoding
) -> list[Counts]:
    """Every page's word-shingle counts (``docs/evaluation.md``) after decoding its scores."""
    return [
        shingle_counts(page.page.gold_text, decode(page, page_scores, decoding))
        for page, page_scores in zip(pages, scores, strict=True)
    ]


def score_decoding(
    pages: Sequence[PageRows], scores: Sequence[Sequence[float]], decoding: Decoding
) -> list[float]:
    """Every page's word-shingle F1 after decoding its block scores."""
    return [page_f1(counts) for counts in decoding_counts(pages, scores, decoding)]


@dataclass
class Tuning:
    """The decoding chosen and the mean page shingle F1 of every decoding tried."""

    best: Decoding
    tried: dict[Decoding, float] = field(default_factory=dict)


def tune_decoding(
    pages: Sequence[PageRows],
    scores: Sequence[Sequence[float]],
    candidates: Iterable[Decoding],
) -> Tuning:
    """The candidate decoding with the best mean page shingle F1 on out-of-fold ``scores``."""
    tuning = Tuning(best=Decoding())
    best = -1.0
    for decoding in candidates:
        value = statistics.fmean(score_decoding(pages, scores, decoding))
        tuning.tried[decoding] = value
        if value > best:
            tuning.best, best = decoding, value
    return tuning


#: Decodings tried for each operating point (threshold, gap score, main-region rule or none).
THRESHOLDS = (0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55)
GAP_SCORES = (0.1, 0.2)
GROUPS = (None, ScoreGroupFilter())


def decoding_grid(*, keep_comments: bool = False) -> list[Decoding]:
    """Every decoding :func:`tune_decoding` tries (with ``keep_comments`` as given)."""
    return [
        Decoding(threshold, min(gap, threshold), group=group, keep_comments=keep_comments)
        for group in GROUPS
        for threshold in THRESHOLDS
        for gap in GAP_SCORES
    ]


def decoding_metadata(decoding: Decoding, prefix: str = "") -> dict[str, Any]:
    """The model-file metadata of an operating point: its threshold, gap score and main-region
    rule (``{prefix}group``: depth, min_share, keep_score; None when off)."""
    group = decoding.group
    return {
        f"{prefix}threshold": decoding.threshold,
        f"{prefix}gap_score": decoding.gap_score,
        f"{prefix}group": None
        if group is None
        else {"depth": group.depth, "min_share": group.min_share, "keep_score": group.keep_score},
    }


def export(booster: Any, metadata: dict[str, Any]) -> TreeEnsemble:
    """The booster as a package model file, with ``metadata`` (decodings, data, CV figures)."""
    model = from_lightgbm(booster)
    return TreeEnsemble(
        feature_names=tuple(feature_names()),
        base_margin=model.base_margin,
        tree_roots=model.tree_roots,
        split_feature=model.split_feature,
        threshold=model.threshold,
        left=model.left,
        right=model.right,
        metadata=metadata,
    )

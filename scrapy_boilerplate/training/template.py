"""Training and evaluation of the templateness classifier (``[train]`` extra: scikit-learn).

Labels from gold text (WCXB layout or the article-benchmark format): each block's gold share
(:func:`~.labels.gold_shares`) times its words is its gold words; a visible node's gold share
``rho`` is the gold words over the words of the blocks in its subtree; the node is template
(1) when ``rho <`` :data:`TEMPLATE_GOLD_SHARE`, else not (0); nodes without block words are
not training rows. A block is gold content when its share reaches
:data:`~.labels.MIN_GOLD_SHARE`.

Model: four logistic regressions by area bucket (cuts at the quartiles of ``log(1 + A)`` of
the training rows), standardised features, L2 (``C`` = :data:`REGULARISATION`); the
standardisation is folded into the stored coefficients. Cross-validation groups pages by
domain (over the union when several datasets train one model); smoothing parameters are chosen
on out-of-fold scores only.

Evaluation (the paper's Table 1 measure): the positive class is *template*; precision is the
share of words (anchor words, links) in blocks predicted template that are gold template,
recall the share of gold-template ones predicted template; counts are pooled over pages.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final

from ..classifiers.template import (
    PageNodes,
    TemplateModel,
    node_weights,
    page_nodes,
    smoothed_scores,
)
from ..errors import BoilerplateError
from ..evaluation.datasets import Page, load_pages, resolve_dataset
from ..features.node_features import node_feature_names
from ..features.nodes import block_link_counts
from ..model.document import TextDocument
from ..page.parsing import parse_html
from ..page.segmentation import segment
from .dataset import domain_of
from .labels import MIN_GOLD_SHARE, gold_shares

__all__ = [
    "TEMPLATE_GOLD_SHARE",
    "REGULARISATION",
    "MEASURES",
    "TemplatePage",
    "template_page",
    "gold_template_page",
    "dataset_template_pages",
    "fit_template_model",
    "out_of_fold_template_scores",
    "template_folds",
    "decide",
    "template_f1",
    "F1Counts",
    "PENALTY_GRID",
    "THRESHOLD_GRID",
    "SmoothingChoice",
    "tune_smoothing",
    "source_template_report",
    "mean_label",
]

#: A node with less than this share of its words in gold is template.
TEMPLATE_GOLD_SHARE: Final = 0.15
#: Inverse L2 strength of the logistic regressions.
REGULARISATION: Final = 1.0
#: The Table 1 measures: words, anchor-text words, links.
MEASURES: Final = ("words", "anchor_words", "links")


@dataclass
class TemplatePage:
    """One page's visible nodes (rows, node labels, tree) and blocks (counts, gold), no DOM."""

    id: str
    domain: str
    page_type: str | None
    rows: list[list[float]]
    labels: list[int]  # per visible node: 1 template, 0 not, -1 unlabelled
    parent: list[int]
    weight: list[float]  # 1 + hidden children
    visible_area: list[float]
    visible_words: list[int]
    owners: list[int]  # per block: its visible node
    block_counts: dict[str, list[int]] = field(default_factory=dict)  # per measure
    block_gold: list[int] = field(default_factory=list)  # per block: 1 content, 0 template
    source: str = ""  # the dataset folder's name


def template_page(
    doc: TextDocument,
    block_gold: Sequence[int],
    shares: Sequence[float] | None,
    *,
    page_id: str,
    domain: str,
    page_type: str | None = None,
) -> TemplatePage:
    """The record of a segmented page with gold block labels (1 = content); ``shares`` (per
    block, 0-1) give node labels, none without them."""
    nodes: PageNodes = page_nodes(doc)
    labels = [-1] * len(nodes.tree.nodes)
    if shares is not None:
        labels = _node_labels(nodes, doc, shares)
    return TemplatePage(
        id=page_id,
        domain=domain,
        page_type=page_type,
        rows=nodes.rows,
        labels=labels,
        parent=nodes.tree.parent,
        weight=nodes.tree.weight,
        visible_area=nodes.visible_area,
        visible_words=nodes.visible_words,
        owners=nodes.owners,
        block_counts={
            "words": [block.num_words for block in doc.blocks],
            "anchor_words": [block.num_linked_words for block in doc.blocks],
            "links": block_link_counts(nodes.table, doc.blocks),
        },
        block_gold=list(block_gold),
    )


def _node_labels(nodes: PageNodes, doc: TextDocument, shares: Sequence[float]) -> list[int]:
    """1 template / 0 not / -1 no words, per visible node (module rule)."""
    size = len(nodes.tree.nodes)
    gold, words = [0.0] * size, [0.0] * size
    for block, owner, share in zip(doc.blocks, nodes.owners, shares, strict=True):
        gold[owner] += share * block.num_words
        words[owner] += block.num_words
    for j in range(size - 1, 0, -1):
        up = nodes.tree.parent[j]
        gold[up] += gold[j]
        words[up] += words[j]
    return [
        -1 if not words[j] else int(gold[j] / words[j] < TEMPLATE_GOLD_SHARE) for j in range(size)
    ]


def gold_template_page(page: Page) -> TemplatePage | None:
    """The record of a gold-text page (WCXB, article benchmark), None when unreadable."""
    try:
        doc = segment(parse_html(page.html), url=page.url)
    except BoilerplateError:
        return None
    shares = gold_shares(doc.blocks, page.gold_text)
    return template_page(
        doc,
        [int(share >= MIN_GOLD_SHARE) for share in shares],
        shares,
        page_id=page.id,
        domain=domain_of(page.url, page.id),
        page_type=page.page_type,
    )


def dataset_template_pages(
    path: str, *, limit: int | None = None, jobs: int = 1
) -> list[TemplatePage]:
    """Records of every readable page of a gold-text dataset, in id order, each with the
    folder's name as its ``source``."""
    root = resolve_dataset(path)
    pages: Iterable[Page] = load_pages(root, limit=limit)
    if jobs <= 1:
        results = [gold_template_page(page) for page in pages]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(gold_template_page, pages, chunksize=8))
    records = [result for result in results if result is not None]
    for record in records:
        record.source = root.name
    return records


# -- fitting ---------------------------------------------------------------------------------


def _training_rows(pages: Sequence[TemplatePage]) -> tuple[list[list[float]], list[int]]:
    rows: list[list[float]] = []
    labels: list[int] = []
    for page in pages:
        for row, label in zip(page.rows, page.labels, strict=True):
            if label >= 0:
                rows.append(row)
                labels.append(label)
    return rows, labels


def fit_template_model(
    pages: Sequence[TemplatePage],
    *,
    features: Sequence[str] | None = None,
    buckets: int = 4,
    regularisation: float = REGULARISATION,
    metadata: dict[str, Any] | None = None,
) -> TemplateModel:
    """Logistic regressions by area bucket on the labelled nodes of ``pages``."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression  # type: ignore[import-untyped]
    from sklearn.preprocessing import StandardScaler  # type: ignore[import-untyped]

    names = node_feature_names()
    chosen = list(features or names)
    columns = [names.index(name) for name in chosen]
    rows, labels = _training_rows(pages)
    x = np.asarray(rows, dtype=float)
    y = np.asarray(labels)
    log_area = x[:, names.index("log_area")]
    cuts = [float(np.quantile(log_area, q / buckets)) for q in range(1, buckets)]
    bucket_of = np.searchsorted(np.asarray(cuts), log_area, side="right")
    intercepts, coefs = [], []
    for b in range(buckets):
        mask = bucket_of == b
        part, part_y = x[mask][:, columns], y[mask]
        if len(set(part_y.tolist())) < 2:  # one class only: a constant model
            rate = float(part_y.mean()) if len(part_y) else 0.5
            rate = min(max(rate, 1e-6), 1 - 1e-6)
            intercepts.append(math.log(rate / (1 - rate)))
            coefs.append(tuple(0.0 for _ in columns))
            continue
        scaler = StandardScaler().fit(part)
        regression = LogisticRegression(C=regularisation, max_iter=2000)
        regression.fit(scaler.transform(part), part_y)
        coef = regression.coef_[0] / scaler.scale_
        intercepts.append(float(regression.intercept_[0] - np.dot(coef, scaler.mean_)))
        coefs.append(tuple(float(value) for value in coef))
    return TemplateModel(
        feature_names=tuple(chosen),
        area_cuts=tuple(cuts),
        intercepts=tuple(intercepts),
        coefs=tuple(coefs),
        metadata=dict(metadata or {}),
    )


def template_folds(pages: Sequence[TemplatePage], folds: int) -> list[int]:
    """Fold of each page: domains dealt to folds largest first (each domain in one fold)."""
    sizes: dict[str, int] = {}
    for page in pages:
        sizes[page.domain] = sizes.get(page.domain, 0) + 1
    load = [0] * folds
    fold_of: dict[str, int] = {}
    for domain in sorted(sizes, key=lambda d: (-sizes[d], d)):
        fold = min(range(folds), key=lambda f: (load[f], f))
        fold_of[domain] = fold
        load[fold] += sizes[domain]
    return [fold_of[page.domain] for page in pages]


def out_of_fold_template_scores(
    pages: Sequence[TemplatePage],
    folds: int = 5,
    train_on: Callable[[TemplatePage], bool] | None = None,
    **fit_options: Any,
) -> list[list[float]]:
    """Each page's node scores from a model trained on the other folds' pages (grouped by
    domain) that ``train_on`` accepts (default: all)."""
    from ..classifiers.template import template_scores

    fold_of = template_folds(pages, folds)
    scores: list[list[float]] = [[] for _ in pages]
    for fold in range(folds):
        train = [
            page
            for page, f in zip(pages, fold_of, strict=True)
            if f != fold and (train_on is None or train_on(page))
        ]
        model = fit_template_model(train, **fit_options)
        for k, page in enumerate(pages):
            if fold_of[k] == fold:
                scores[k] = template_scores(model, page.rows)
    return scores


# -- evaluation ------------------------------------------------------------------------------


@dataclass
class F1Counts:
    """Pooled template-class counts of one measure."""

    tp: float = 0.0
    fp: float = 0.0
    fn: float = 0.0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def decide(
    page: TemplatePage,
    scores: Sequence[float],
    *,
    smooth: bool,
    c: float = 0.01,
    levels: int = 64,
    weighting: str = "words",
) -> list[float]:
    """The templateness of each block's node: smoothed scores, or the raw ones (Basic)."""
    values = list(scores)
    if smooth:
        weights = node_weights(page.weight, page.visible_words, weighting)
        values = smoothed_scores(
            page.parent, values, weights, page.visible_area, c=c, levels=levels
        )
    return [values[owner] for owner in page.owners]


def template_f1(
    pages: Sequence[TemplatePage],
    block_templateness: Sequence[Sequence[float]],
    threshold: float = 0.5,
) -> dict[str, F1Counts]:
    """Pooled template-class counts per measure; ``block_templateness[k]`` holds the
    templateness of each block of page ``k`` (template when at least ``threshold``)."""
    counts = {measure: F1Counts() for measure in MEASURES}
    for page, values in zip(pages, block_templateness, strict=True):
        for measure in MEASURES:
            total = counts[measure]
            for value, gold, amount in zip(
                values, page.block_gold, page.block_counts[measure], strict=True
            ):
                predicted, actual = value >= threshold, gold == 0
                if predicted and actual:
                    total.tp += amount
                elif predicted:
                    total.fp += amount
                elif actual:
                    total.fn += amount
    return counts


def mean_label(pages: Sequence[TemplatePage]) -> float:
    """Share of labelled nodes that are template (for reports)."""
    labels = [label for page in pages for label in page.labels if label >= 0]
    return statistics.fmean(labels) if labels else 0.0


#: Penalty multipliers (the paper's c = 0.01 times 2^k) and thresholds (0.05 to 0.95 by 0.05)
#: tried when tuning.
PENALTY_GRID: Final = tuple(0.01 * 2.0**k for k in range(-4, 5))
THRESHOLD_GRID: Final = tuple(round(0.05 * k, 2) for k in range(1, 20))


@dataclass(frozen=True)
class SmoothingChoice:
    """A tuned operating point and its pooled template word F1."""

    smooth: bool
    c: float
    threshold: float
    words_f1: float


def tune_smoothing(
    pages: Sequence[TemplatePage],
    scores: Sequence[Sequence[float]],
    *,
    smooth: bool,
    weighting: str = "words",
    levels: int = 64,
    penalties_tried: Sequence[float] = PENALTY_GRID,
    thresholds: Sequence[float] = THRESHOLD_GRID,
) -> SmoothingChoice:
    """The (c, threshold) with the best pooled template word F1 on out-of-fold ``scores``
    (ties: the first in grid order)."""
    best: SmoothingChoice | None = None
    for c in penalties_tried if smooth else (0.0,):
        values = [
            decide(page, page_scores, smooth=smooth, c=c, levels=levels, weighting=weighting)
            for page, page_scores in zip(pages, scores, strict=True)
        ]
        for threshold in thresholds:
            f1 = template_f1(pages, values, threshold)["words"].f1
            if best is None or f1 > best.words_f1:
                best = SmoothingChoice(smooth, c, threshold, f1)
    assert best is not None
    return best


def source_template_report(
    pages: Sequence[TemplatePage], scores: Sequence[Sequence[float]], choice: SmoothingChoice
) -> str:
    """Pooled template word precision, recall and F1 per source and over all pages at
    ``choice``'s operating point (markdown)."""
    values = [
        decide(page, page_scores, smooth=choice.smooth, c=choice.c)
        for page, page_scores in zip(pages, scores, strict=True)
    ]
    lines = ["| source | pages | template word P | R | F1 |", "|---|---:|---:|---:|---:|"]
    for source in ["all", *dict.fromkeys(page.source for page in pages)]:
        chosen = [k for k, page in enumerate(pages) if source in ("all", page.source)]
        counts = template_f1(
            [pages[k] for k in chosen], [values[k] for k in chosen], choice.threshold
        )["words"]
        lines.append(
            f"| {source} | {len(chosen)} | {counts.precision:.4f} | {counts.recall:.4f} "
            f"| {counts.f1:.4f} |"
        )
    return "\n".join(lines)

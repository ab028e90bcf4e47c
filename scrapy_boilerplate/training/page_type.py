"""Training and cross-validation of the page-type classifier (LightGBM, ``[train]`` extra).

Rules: one row per page (:func:`~scrapy_boilerplate.features.page.page_features` of the
segmented page), labelled with the dataset's page type; one binary model per type against the
rest, every page of weight 1 (weighting the types equally took articles for other types more
often, which costs more text F1 than it gains). Every training page is seen twice: as it is and
with its declared features (:data:`~scrapy_boilerplate.features.page.DECLARED_FEATURES`) at 0,
as on a site that declares nothing: the training sets are of 2023-25, when news sites declare
``NewsArticle`` and ``og:type``; without the copies, older news pages (L3S-GN1, CleanEval) were
taken for listings and forums for lacking them. Cross-validation folds group pages by domain,
and the reported accuracy is that of out-of-fold predictions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..classifiers.gbdt import from_lightgbm
from ..classifiers.page_type import PageTypeModel, classify_page_type
from ..errors import BoilerplateError
from ..evaluation.datasets import Page
from ..features.page import DECLARED_FEATURES, PAGE_FEATURE_NAMES, page_features
from ..page.parsing import parse_html
from ..page.segmentation import segment
from .dataset import domain_of, map_named_pages

__all__ = [
    "PageTypeRow",
    "PAGE_TYPE_PARAMETERS",
    "PAGE_TYPE_TREES",
    "page_type_rows",
    "fit_page_types",
    "out_of_fold_page_types",
    "confusion_report",
]

#: LightGBM parameters of each type's model (small: one row per page).
PAGE_TYPE_PARAMETERS: dict[str, Any] = {
    "objective": "binary",
    "learning_rate": 0.05,
    "num_leaves": 8,
    "min_child_samples": 10,
    "feature_fraction": 0.8,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "lambda_l2": 1.0,
    "verbosity": -1,
    "num_threads": 2,
    "seed": 7,
    "deterministic": True,
}
PAGE_TYPE_TREES = 120


@dataclass(frozen=True)
class PageTypeRow:
    """One labelled page: its id, source dataset, domain (the CV group), type and features."""

    page_id: str
    source: str
    domain: str
    page_type: str
    row: list[float]


def _row_of(item: tuple[str, Page]) -> PageTypeRow | None:
    source, page = item
    if page.page_type is None:
        return None
    try:
        doc = segment(parse_html(page.html), url=page.url)
    except BoilerplateError:
        return None
    return PageTypeRow(
        page.id, source, domain_of(page.url, page.id), page.page_type, page_features(doc)
    )


def page_type_rows(
    sources: Sequence[tuple[str, str]], *, limit: int | None = None, jobs: int | None = None
) -> list[PageTypeRow]:
    """The labelled rows of every readable, typed page of the ``(name, path)`` datasets."""

    return map_named_pages(_row_of, sources, limit=limit, jobs=jobs)


def fit_page_types(
    rows: Sequence[PageTypeRow], *, num_trees: int = PAGE_TYPE_TREES, metadata: dict[str, Any]
) -> PageTypeModel:
    """One LightGBM model per page type present in ``rows``, converted for inference."""
    import lightgbm
    import numpy

    features = numpy.asarray([row.row for row in rows], dtype=numpy.float64)
    plain = features.copy()
    plain[:, [PAGE_FEATURE_NAMES.index(name) for name in DECLARED_FEATURES]] = 0.0
    features = numpy.vstack([features, plain])
    ensembles = {}
    for name in sorted({row.page_type for row in rows}):
        labels = numpy.asarray([int(row.page_type == name) for row in rows] * 2)
        data = lightgbm.Dataset(features, labels, feature_name=list(PAGE_FEATURE_NAMES))
        booster = lightgbm.train(dict(PAGE_TYPE_PARAMETERS), data, num_boost_round=num_trees)
        ensembles[name] = from_lightgbm(booster)
    return PageTypeModel(ensembles, metadata)


def out_of_fold_page_types(
    rows: Sequence[PageTypeRow], *, folds: int = 5, num_trees: int = PAGE_TYPE_TREES
) -> list[tuple[str, float]]:
    """Per row, the type and confidence given by a model trained on the other folds (rows
    grouped by domain)."""
    import numpy
    from sklearn.model_selection import GroupKFold  # type: ignore[import-untyped]

    predictions: list[tuple[str, float]] = [("", 0.0)] * len(rows)
    splitter = GroupKFold(n_splits=folds)
    groups = [row.domain for row in rows]
    for train_index, test_index in splitter.split(numpy.zeros(len(rows)), groups=groups):
        model = fit_page_types([rows[i] for i in train_index], num_trees=num_trees, metadata={})
        for i in test_index:
            predictions[i] = classify_page_type(model, rows[i].row)
    return predictions


def confusion_report(rows: Sequence[PageTypeRow], predicted: Sequence[str]) -> str:
    """Accuracy, and per gold type its pages, recall and the types it was taken for, as
    markdown."""
    hits = sum(row.page_type == guess for row, guess in zip(rows, predicted, strict=True))
    lines = [
        f"accuracy {hits / len(rows):.3f} over {len(rows)} pages",
        "",
        "| gold type | pages | recall | precision | taken for |",
        "|---|---:|---:|---:|---|",
    ]
    guessed = Counter(predicted)
    for name in sorted({row.page_type for row in rows}):
        mine = [guess for row, guess in zip(rows, predicted, strict=True) if row.page_type == name]
        right = sum(guess == name for guess in mine)
        precision = right / guessed[name] if guessed[name] else 0.0
        wrong = Counter(guess for guess in mine if guess != name).most_common(3)
        taken = ", ".join(f"{guess} {count}" for guess, count in wrong) or "-"
        lines.append(
            f"| {name} | {len(mine)} | {right / len(mine):.3f} | {precision:.3f} | {taken} |"
        )
    return "\n".join(lines)

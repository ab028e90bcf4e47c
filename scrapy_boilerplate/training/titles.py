"""Training and cross-validation of the title ranker (LightGBM, ``[train]`` extra).

Rules: every page whose gold has a title gives one row per title candidate
(:func:`~scrapy_boilerplate.extractors.title.title_candidates` of the segmented page, features
:func:`~scrapy_boilerplate.classifiers.titles.candidate_features`), labelled 1 when the
candidate is the gold title (:func:`~scrapy_boilerplate.classifiers.titles.title_key` equal),
else 0; pages with fewer than two candidates teach nothing and are left out. One binary model
over all rows, every row of weight 1. Cross-validation folds group pages by domain; a page's
out-of-fold title is its best-scored candidate under the model of the other folds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..classifiers.gbdt import TreeEnsemble, from_lightgbm
from ..classifiers.titles import TITLE_FEATURE_NAMES, TitlePage, candidate_features, title_key
from ..errors import BoilerplateError
from ..evaluation.datasets import Page
from ..extractors.title import choose_title, rule_title, title_candidates
from ..page.parsing import parse_html
from ..page.segmentation import segment
from .dataset import domain_of, map_named_pages
from .page_type import PAGE_TYPE_PARAMETERS

__all__ = [
    "TitleRows",
    "TITLE_PARAMETERS",
    "TITLE_TREES",
    "title_rows",
    "fit_titles",
    "out_of_fold_titles",
    "accuracy_report",
]

#: LightGBM parameters of the ranker: those of the page-type models (small data: a few
#: candidates per page).
TITLE_PARAMETERS: dict[str, Any] = dict(PAGE_TYPE_PARAMETERS)
TITLE_TREES = 300


@dataclass(frozen=True)
class TitleRows:
    """One page's candidates: its id, source dataset, domain (the CV group), the candidates,
    their feature rows and labels, the rules' choice and the gold title."""

    page_id: str
    source: str
    domain: str
    candidates: TitlePage
    rows: list[list[float]]
    labels: list[int]
    rule: str | None
    gold: str


def _rows_of(item: tuple[str, Page]) -> TitleRows | None:
    source, page = item
    if not page.title:
        return None
    try:
        doc = segment(parse_html(page.html), url=page.url)
    except BoilerplateError:
        return None
    rule = rule_title(doc)
    candidates = title_candidates(doc, rule)
    gold = title_key(page.title)
    return TitleRows(
        page.id,
        source,
        domain_of(page.url, page.id),
        candidates,
        candidate_features(candidates),
        [int(key == gold) for key in candidates.candidates],
        rule,
        page.title,
    )


def title_rows(
    sources: Sequence[tuple[str, str]], *, limit: int | None = None, jobs: int | None = None
) -> list[TitleRows]:
    """The candidates of every readable page with a gold title of the ``(name, path)``
    datasets."""

    return map_named_pages(_rows_of, sources, limit=limit, jobs=jobs)


def fit_titles(
    pages: Sequence[TitleRows], *, num_trees: int = TITLE_TREES, metadata: dict[str, Any]
) -> TreeEnsemble:
    """The ranker trained on the candidates of ``pages`` (those with two or more)."""
    import lightgbm
    import numpy

    taught = [page for page in pages if len(page.rows) > 1]
    features = numpy.asarray([row for page in taught for row in page.rows], dtype=numpy.float64)
    labels = numpy.asarray([label for page in taught for label in page.labels])
    data = lightgbm.Dataset(features, labels, feature_name=list(TITLE_FEATURE_NAMES))
    booster = lightgbm.train(dict(TITLE_PARAMETERS), data, num_boost_round=num_trees)
    return dataclasses.replace(from_lightgbm(booster), metadata=metadata)


def out_of_fold_titles(
    pages: Sequence[TitleRows], *, folds: int = 5, num_trees: int = TITLE_TREES
) -> list[str | None]:
    """Per page, the title chosen by a model trained on the other folds (pages grouped by
    domain)."""
    import numpy
    from sklearn.model_selection import GroupKFold  # type: ignore[import-untyped]

    chosen: list[str | None] = [None] * len(pages)
    groups = [page.domain for page in pages]
    splitter = GroupKFold(n_splits=folds)
    for train_index, test_index in splitter.split(numpy.zeros(len(pages)), groups=groups):
        model = fit_titles([pages[i] for i in train_index], num_trees=num_trees, metadata={})
        for i in test_index:
            chosen[i] = choose_title(model, pages[i].candidates, pages[i].rule)
    return chosen


def accuracy_report(pages: Sequence[TitleRows], chosen: Sequence[str | None]) -> str:
    """Exact title accuracy (:func:`title_key` equal) of ``chosen`` and of the rules' choice,
    per source and over all pages, as markdown."""
    by_source: dict[str, list[tuple[bool, bool, bool]]] = {}
    for page, text in zip(pages, chosen, strict=True):
        gold = title_key(page.gold)
        outcome = (
            title_key(text or "") == gold,
            title_key(page.rule or "") == gold,
            any(page.labels),
        )
        by_source.setdefault(page.source, []).append(outcome)
        by_source.setdefault("all", []).append(outcome)
    lines = [
        "| pages | n | ranker (out of fold) | rules | a candidate is the gold |",
        "|---|---:|---:|---:|---:|",
    ]
    for source, hits in by_source.items():
        n = len(hits)
        ranker, rules, reachable = (sum(column) / n for column in zip(*hits, strict=True))
        lines.append(f"| {source} | {n} | {ranker:.3f} | {rules:.3f} | {reachable:.3f} |")
    return "\n".join(lines)

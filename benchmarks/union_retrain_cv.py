#!/usr/bin/env python
"""``victor`` and ``page-template`` trained on WCXB-dev alone or on WCXB-dev + fundus +
magic-html: out-of-fold quality per source, same folds.

5-fold cross-validation grouped by domain over the union of the three datasets; each fold's
two models train on the other folds' pages, one on all of them (the union recipe), one on their
WCXB-dev pages only (the recipe of the models shipped before), and both predict every page of
the fold. So on fundus and magic-html the WCXB-only figures are held-out ones (as for the
shipped model, which never saw them), and on WCXB-dev both models are scored on the same folds.

* ``victor``: word-shingle precision / recall / F1 of the decoded text (benchmark aggregation,
  ``docs/evaluation.md``) and label accuracy against the aligned labels, per source.
* ``page-template``: pooled template word P / R / F1 (the paper's Table 1 measure), per source;
  each recipe's smoothing penalty and threshold are chosen, as the training command chooses
  them, on its own training pages' out-of-fold scores (all pages, or the WCXB-dev ones).

    python benchmarks/union_retrain_cv.py   # both: page-template ~15 min, victor over an hour
    python benchmarks/union_retrain_cv.py --extractors page-template --limit 100
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from run_benchmarks import DATASETS_ROOT

from scrapy_boilerplate.evaluation.metrics import benchmark_scores, shingle_counts
from scrapy_boilerplate.training.template import (
    TemplatePage,
    dataset_template_pages,
    decide,
    out_of_fold_template_scores,
    template_f1,
    tune_smoothing,
)
from scrapy_boilerplate.training.victor import (
    VictorPage,
    cross_validate,
    decoded_text,
    victor_datasets,
)

SOURCES = ("wcxb-dev", "fundus", "magic-html")
ONLY = "wcxb-dev"
FOLDS = 5


def _rows(sources: Sequence[str]) -> list[str]:
    return ["all", *sources]


def _chosen(pages: Sequence[Any], source: str) -> list[int]:
    return [k for k, page in enumerate(pages) if source in ("all", page.source)]


def victor_table(pages: list[VictorPage]) -> str:
    """Out-of-fold shingle P / R / F1 and label accuracy per source, both recipes."""
    recipes: dict[str, Callable[[VictorPage], bool] | None] = {
        "union": None,
        "WCXB-dev only": lambda page: page.source == ONLY,
    }
    lines = [
        "| source | pages | training | shingle P | R | F1 | label accuracy |",
        "|---|---:|---|---:|---:|---:|---:|",
    ]
    results = {}
    for name, train_on in recipes.items():
        started = time.time()
        results[name] = cross_validate(pages, FOLDS, by_domain=True, train_on=train_on)
        print(f"victor {name}: {time.time() - started:.0f} s", flush=True)
    for source in _rows(SOURCES):
        chosen = _chosen(pages, source)
        for name, predicted in results.items():
            counts = [
                shingle_counts(pages[k].gold_text, decoded_text(pages[k], predicted[k]))
                for k in chosen
            ]
            scores = benchmark_scores(counts)
            right = sum(
                a == b for k in chosen for a, b in zip(pages[k].codes, predicted[k], strict=True)
            )
            total = max(1, sum(len(pages[k].codes) for k in chosen))
            lines.append(
                f"| {source} | {len(chosen)} | {name} | {scores.precision:.3f} | "
                f"{scores.recall:.3f} | {scores.f1:.3f} | {right / total:.3f} |"
            )
    return "\n".join(lines)


def template_table(pages: list[TemplatePage]) -> str:
    """Out-of-fold pooled template word P / R / F1 per source, both recipes."""
    recipes: dict[str, Callable[[TemplatePage], bool] | None] = {
        "union": None,
        "WCXB-dev only": lambda page: page.source == ONLY,
    }
    lines = [
        "| source | pages | training | c | threshold | template word P | R | F1 |",
        "|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    results = {}
    for name, train_on in recipes.items():
        scores = out_of_fold_template_scores(pages, FOLDS, train_on=train_on)
        own = [k for k, page in enumerate(pages) if train_on is None or train_on(page)]
        choice = tune_smoothing([pages[k] for k in own], [scores[k] for k in own], smooth=True)
        values = [
            decide(page, s, smooth=True, c=choice.c) for page, s in zip(pages, scores, strict=True)
        ]
        results[name] = (choice, values)
    for source in _rows(SOURCES):
        chosen = _chosen(pages, source)
        for name, (choice, values) in results.items():
            counts = template_f1(
                [pages[k] for k in chosen], [values[k] for k in chosen], choice.threshold
            )["words"]
            lines.append(
                f"| {source} | {len(chosen)} | {name} | {choice.c:g} | {choice.threshold} | "
                f"{counts.precision:.4f} | {counts.recall:.4f} | {counts.f1:.4f} |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--extractors",
        nargs="+",
        choices=("victor", "page-template"),
        default=["victor", "page-template"],
    )
    parser.add_argument("--limit", type=int, help="first N pages of each dataset")
    args = parser.parse_args(argv)
    paths = [str(DATASETS_ROOT / name) for name in SOURCES]
    if "page-template" in args.extractors:
        started = time.time()
        template_pages = [
            page for path in paths for page in dataset_template_pages(path, limit=args.limit)
        ]
        print(f"{len(template_pages)} pages read in {time.time() - started:.0f} s", flush=True)
        print(f"\npage-template, {FOLDS}-fold CV by domain over the union:\n")
        print(template_table(template_pages), flush=True)
    if "victor" in args.extractors:
        started = time.time()
        victor_pages = victor_datasets(paths, limit=args.limit)
        print(f"{len(victor_pages)} pages labelled in {time.time() - started:.0f} s", flush=True)
        print(f"\nvictor, {FOLDS}-fold CV by domain over the union:\n")
        print(victor_table(victor_pages), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

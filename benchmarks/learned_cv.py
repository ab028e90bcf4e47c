#!/usr/bin/env python
"""Cross-validated quality of ``article-learned`` on WCXB-dev, beside the rule chain ``article``.

The shipped models are trained on WCXB-dev pages, so their scores on those pages are training
scores. This script measures what the models do on pages they have not seen: 5-fold
cross-validation grouped by domain (``scrapy_boilerplate.training``) of the model of every page
(``mode=page``) and of the model of article pages (``mode=article``), each decoding chosen on
out-of-fold scores, and ``article`` (the rule chain) decoded from the same blocks
(its decision is one of the model's features, and its headline block is dropped as
``article-learned`` drops it), so both read the very same segmentation. Writes the
``learned-cv`` section of ``docs/benchmarks.md``.

    python benchmarks/learned_cv.py              # about 6 minutes on 2 cores
    python benchmarks/learned_cv.py --limit 300  # a quick look
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections import defaultdict
from collections.abc import Sequence
from datetime import date
from pathlib import Path

from run_benchmarks import DATASETS_ROOT, DOC, write_doc

from scrapy_boilerplate.evaluation.metrics import Counts, benchmark_scores, page_f1
from scrapy_boilerplate.training.dataset import PageRows, dataset_rows
from scrapy_boilerplate.training.train import (
    NUM_TREES,
    RULE_COLUMN,
    Decoding,
    decoding_counts,
    decoding_grid,
    out_of_fold_scores,
    tune_decoding,
)

LOW_F1 = 0.3


def _is_article(page: PageRows) -> bool:
    return page.page.page_type == "article"


def rule_scores(pages: Sequence[PageRows]) -> list[list[float]]:
    """Per page, ``article-rules``' decisions as 0/1 scores (the ``rule_article`` feature)."""
    return [[row[RULE_COLUMN] for row in page.rows] for page in pages]


def label_scores(pages: Sequence[PageRows]) -> list[list[float]]:
    """Per page, its blocks' gold labels as 0/1 scores: decoded, the best choice of blocks this
    segmentation allows (as far as the labels tell)."""
    return [[float(label) for label in page.labels] for page in pages]


def _point(decoding: Decoding) -> str:
    """An operating point in words: threshold, gap score, main-region rule."""
    group = decoding.group
    region = (
        "no main-region rule"
        if group is None
        else f"main region at {group.min_share:.0%} of the score mass (depth {group.depth}, "
        f"kept from score {group.keep_score})"
    )
    return f"threshold {decoding.threshold}, gap score {decoding.gap_score}, {region}"


def table(pages: Sequence[PageRows], columns: dict[str, list[Counts]]) -> str:
    """Shingle F1 (the benchmark's aggregation) and pages with a page F1 below 0.3, per page
    type, one column per extractor."""
    types: dict[str, list[int]] = defaultdict(list)
    for index, page in enumerate(pages):
        types["all"].append(index)
        types[page.page.page_type or "untyped"].append(index)
    names = list(columns)
    head = "| page type | pages | " + " | ".join(f"`{n}` F1 (< 0.3)" for n in names) + " |"
    lines = [head, "|---|---:|" + "---:|" * len(names)]
    for page_type, indices in sorted(types.items(), key=lambda kv: (kv[0] != "all", kv[0])):
        cells = []
        for name in names:
            counts = [columns[name][i] for i in indices]
            low = sum(1 for value in counts if page_f1(value) < LOW_F1)
            cells.append(f"{benchmark_scores(counts).f1:.3f} ({low})")
        lines.append(f"| {page_type} | {len(indices)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="only the first N pages")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--doc", type=Path, default=DOC)
    args = parser.parse_args(argv)
    wcxb = DATASETS_ROOT / "wcxb-dev"
    if not wcxb.is_dir():
        print(f"no WCXB-dev under {DATASETS_ROOT}", file=sys.stderr)
        return 2
    pages = dataset_rows(str(wcxb), limit=args.limit)
    # mode=page: the model of every page type, its decoding chosen on the non-article pages
    scores = out_of_fold_scores(pages, folds=args.folds)
    non_article = [i for i, p in enumerate(pages) if p.page.page_type != "article"]
    page_point = tune_decoding(
        [pages[i] for i in non_article], [scores[i] for i in non_article], decoding_grid()
    ).best
    # mode=article: the model of article pages (each fold's trained on the other folds'
    # article pages, scoring every page), its decoding chosen on the article pages
    article_scores = out_of_fold_scores(pages, folds=args.folds, train_on=_is_article)
    articles = [i for i, p in enumerate(pages) if p.page.page_type == "article"]
    article_point = tune_decoding(
        [pages[i] for i in articles], [article_scores[i] for i in articles], decoding_grid()
    ).best
    # 0/1 scores: the threshold keeps exactly the blocks scored 1, the gap score none more
    # (and no main-region rule: the chain has its own tree rule)
    exact = dataclasses.replace(page_point, group=None)
    columns = {
        "article-learned (CV)": decoding_counts(pages, article_scores, article_point),
        "article-learned mode=page (CV)": decoding_counts(pages, scores, page_point),
        "article": decoding_counts(pages, rule_scores(pages), exact),
        "block labels": decoding_counts(pages, label_scores(pages), exact),
    }
    command = "python benchmarks/learned_cv.py" + "".join(f" {a}" for a in (argv or sys.argv[1:]))
    body = "\n".join(
        [
            "## `article-learned`: cross-validated on WCXB-dev",
            "",
            f"Generated {date.today().isoformat()} by `{command}`: {len(pages)} pages, "
            f"{args.folds}-fold cross-validation grouped by domain, {NUM_TREES} trees. "
            "`article-learned` (`mode=article`, the default): each fold's model is trained on "
            "the other folds' article pages only, as the shipped model of that mode, and "
            "scores every page; its decoding is chosen on the article pages' out-of-fold "
            f"scores: {_point(article_point)}. `mode=page`: each fold's model is trained on "
            "all the other folds' pages, its decoding chosen on the non-article pages' "
            f"out-of-fold scores: {_point(page_point)}. `article` (the rule chain) is decoded "
            "from the same blocks, its headline block dropped as `article-learned` drops it. "
            "`block labels` keeps exactly the blocks labelled gold for training (the rule "
            "chain's blocks on a page without one, as the extractor falls back): the best "
            "choice of blocks this segmentation allows, as far as the labels tell. "
            "Word-shingle F1 as in the tables above (harmonic mean of mean page precision and "
            "mean page recall); pages with a page F1 < 0.3 in brackets. The shipped models are "
            "trained on all these pages (of their types), so `article-learned`'s rows in the "
            "WCXB-dev tables of the extraction benchmark are training scores; these are its "
            "figures of record.",
            "",
            table(pages, columns),
        ]
    )
    print(body)
    write_doc(args.doc, {"learned-cv": body})
    return 0


if __name__ == "__main__":
    sys.exit(main())

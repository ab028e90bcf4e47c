#!/usr/bin/env python
"""Cross-validated quality of the learned ``article`` on the shippable datasets, beside the
rule chain ``article-rules``.

The shipped models are trained on WCXB-dev, fundus and magic-html pages, so their scores on
those pages are training scores. This script measures what the models do on pages they have not
seen: 5-fold cross-validation grouped by domain over the union of the datasets
(``scrapy_boilerplate.training``) of the model of every page (``mode=page``), of the model of
article pages (``mode=article``, the shipped recipe), each decoding chosen on out-of-fold scores,
``mode=auto`` (each page decoded at the operating point its out-of-fold page type picks, the
page-type classifier cross-validated on the same folds' domains), and ``article-rules`` decoded from
the same blocks (its decision is one of the model's features, and its headline block is dropped
as ``article`` drops it), so all read the very same segmentation. Rows per source and page
type. Writes the ``learned-cv`` section of ``docs/benchmarks.md``.

    python benchmarks/learned_cv.py              # about 30 minutes on 2 cores
    python benchmarks/learned_cv.py --limit 300  # a quick look (first N pages of each set)
    python benchmarks/learned_cv.py --cache /tmp/cv.pkl.gz  # keep (or reuse) the trained part
    python benchmarks/learned_cv.py --cache /tmp/cv.pkl.gz --page-types-anew  # new page features
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import pickle
import sys
from collections import defaultdict
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

from run_benchmarks import DATASETS_ROOT, DOC, write_doc

from scrapy_boilerplate.evaluation.datasets import resolve_dataset
from scrapy_boilerplate.evaluation.metrics import Counts, benchmark_scores, page_f1
from scrapy_boilerplate.extractors.builtin import (
    OWN_POINT_FROM,
    PAGE_MODE_FROM,
    auto_operating_point,
)
from scrapy_boilerplate.training.dataset import PageRows, dataset_rows
from scrapy_boilerplate.training.page_type import out_of_fold_page_types, page_type_rows
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
#: The datasets whose licences allow shipping a model trained on them.
SHIPPABLE = ("wcxb-dev", "fundus", "magic-html")


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


def row_groups(pages: Sequence[PageRows], sources: Sequence[str]) -> dict[str, list[int]]:
    """Page indices per table row: all pages, each page type over every source, each source,
    and each source's page types (when it has several)."""
    groups: dict[str, list[int]] = defaultdict(list)
    per_source_types: dict[str, set[str]] = defaultdict(set)
    for index, (page, source) in enumerate(zip(pages, sources, strict=True)):
        page_type = page.page.page_type or "untyped"
        groups["all"].append(index)
        groups[f"all: {page_type}"].append(index)
        groups[source].append(index)
        groups[f"{source}: {page_type}"].append(index)
        per_source_types[source].add(page_type)
    for source, types in per_source_types.items():
        if len(types) == 1:
            del groups[f"{source}: {types.pop()}"]
    order = ["all", *sorted(k for k in groups if k.startswith("all: "))]
    for source in dict.fromkeys(sources):
        order += [source, *sorted(k for k in groups if k.startswith(f"{source}: "))]
    return {key: groups[key] for key in order}


def table(
    pages: Sequence[PageRows], sources: Sequence[str], columns: dict[str, list[Counts]]
) -> str:
    """Shingle F1 (the benchmark's aggregation), its precision and recall, and pages with a
    page F1 below 0.3, per source and page type, one column per extractor."""
    names = list(columns)
    head = "| pages | n | " + " | ".join(f"`{n}` F1 (P/R, < 0.3)" for n in names) + " |"
    lines = [head, "|---|---:|" + "---:|" * len(names)]
    for key, indices in row_groups(pages, sources).items():
        cells = []
        for name in names:
            counts = [columns[name][i] for i in indices]
            low = sum(1 for value in counts if page_f1(value) < LOW_F1)
            score = benchmark_scores(counts)
            cells.append(f"{score.f1:.3f} ({score.precision:.2f}/{score.recall:.2f}, {low})")
        lines.append(f"| {key} | {len(indices)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _tuned(
    pages: Sequence[PageRows],
    scores: Sequence[list[float]],
    indices: Sequence[int],
    *,
    keep_comments: bool = False,
) -> Decoding:
    """The decoding chosen on the out-of-fold scores of the pages at ``indices``."""
    grid = decoding_grid(keep_comments=keep_comments)
    return tune_decoding([pages[i] for i in indices], [scores[i] for i in indices], grid).best


def page_types(
    datasets: Sequence[str], folds: int, limit: int | None
) -> dict[tuple[str, str], tuple[str, float]]:
    """Every page's out-of-fold page type and confidence, by (dataset, page id)."""
    rows = page_type_rows([(name, str(resolve_dataset(name))) for name in datasets], limit=limit)
    predicted = out_of_fold_page_types(rows, folds=folds)
    return {(row.source, row.page_id): p for row, p in zip(rows, predicted, strict=True)}


def auto_points(
    pages: Sequence[PageRows],
    sources: Sequence[str],
    types: dict[tuple[str, str], tuple[str, float]],
) -> list[str]:
    """Per page, the operating point ``mode=auto`` decodes it at, from its out-of-fold page type
    and confidence with the shipped bars."""
    routed = [
        types.get((source, page.page.id), ("article", 0.0))
        for page, source in zip(pages, sources, strict=True)
    ]
    return [auto_operating_point(name, confidence) for name, confidence in routed]


def out_of_fold(args: argparse.Namespace) -> dict[str, Any] | None:
    """What the cross-validation trains (the costly part): every page's rows and source, the
    out-of-fold block scores of the model of article pages and of the model of every page,
    and the out-of-fold page types; read from ``args.cache`` when it holds a run of the same
    datasets, limit and folds, else computed (and kept there when ``args.cache`` is given).
    None when a dataset is missing."""
    settings = {
        "datasets": args.datasets,
        "limit": args.limit,
        "folds": args.folds,
        "trees": NUM_TREES,
        # a cache of rows of another shape (a field added since) is computed again
        "rows": [field.name for field in dataclasses.fields(PageRows)],
    }
    if args.cache is not None and args.cache.exists():
        with gzip.open(args.cache, "rb") as cached:
            found: dict[str, Any] = pickle.load(cached)
        if found["settings"] == settings:
            print(f"out-of-fold scores and page types read from {args.cache}", file=sys.stderr)
            found["cached"] = True
            if args.page_types_anew:  # page features changed, block features did not
                found["page_types"] = page_types(args.datasets, args.folds, args.limit)
                with gzip.open(args.cache, "wb") as cache:
                    pickle.dump({k: v for k, v in found.items() if k != "cached"}, cache)
            return found
    pages: list[PageRows] = []
    sources: list[str] = []
    for name in args.datasets:
        root = DATASETS_ROOT / name
        if not root.is_dir():
            print(f"no {name} under {DATASETS_ROOT}", file=sys.stderr)
            return None
        rows = dataset_rows(str(root), limit=args.limit)
        pages += rows
        sources += [name] * len(rows)
    run = {
        "settings": settings,
        "pages": pages,
        "sources": sources,
        # mode=article: each fold's model trained on the other folds' article pages of every
        # dataset (the shipped recipe), scoring every page
        "article_scores": out_of_fold_scores(pages, folds=args.folds, train_on=_is_article),
        # mode=page: the model of every page
        "page_scores": out_of_fold_scores(pages, folds=args.folds),
        "page_types": page_types(args.datasets, args.folds, args.limit),
    }
    if args.cache is not None:
        with gzip.open(args.cache, "wb") as cache:
            pickle.dump(run, cache)
    return run


def _cache_note(run: dict[str, Any], args: argparse.Namespace) -> str:
    """What of the run was read from ``--cache`` (an earlier run's training), in words."""
    if not run.get("cached"):
        return ""
    if args.page_types_anew:
        return (
            " The out-of-fold block scores were read from the cache of an earlier run with the "
            "same block features and training (`--cache`); the page types were computed anew "
            "(`--page-types-anew`)."
        )
    return (
        " The out-of-fold block scores and page types were read from the cache of an earlier "
        "run (`--cache`): only the decoding was redone."
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="only the first N pages of each dataset")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument(
        "--datasets", nargs="+", default=list(SHIPPABLE), help="dataset names (shippable ones)"
    )
    parser.add_argument("--doc", type=Path, default=DOC)
    parser.add_argument(
        "--cache",
        type=Path,
        help="keep the trained part (rows, out-of-fold scores and page types) in this file, "
        "or read it from there: only the decoding is redone (filters changed, not features)",
    )
    parser.add_argument(
        "--page-types-anew",
        action="store_true",
        help="with --cache: compute the out-of-fold page types again (and keep them there), "
        "for changed page-type features; the block scores stay the cached ones",
    )
    args = parser.parse_args(argv)
    run = out_of_fold(args)
    if run is None:
        return 2
    pages: list[PageRows] = run["pages"]
    sources: list[str] = run["sources"]
    article_scores, scores = run["article_scores"], run["page_scores"]
    articles = [i for i, p in enumerate(pages) if _is_article(p)]
    non_article = [i for i, p in enumerate(pages) if not _is_article(p)]
    # each point's decoding chosen on its pages: article pages for mode=article, the others
    # for mode=page (with reader comments kept, as that operating point keeps them)
    article_point = _tuned(pages, article_scores, articles)
    page_point = _tuned(pages, scores, non_article or articles, keep_comments=True)
    forums = [i for i, p in enumerate(pages) if p.page.page_type == "forum"]
    forum_point = _tuned(pages, scores, forums or non_article or articles, keep_comments=True)
    counts = {
        "article": decoding_counts(pages, article_scores, article_point),
        "page": decoding_counts(pages, scores, page_point),
        "forum": decoding_counts(pages, scores, forum_point),
    }
    # mode=auto keeps reader comments at the forum point only
    auto_page = dataclasses.replace(page_point, keep_comments=False)
    auto = {**counts, "page": decoding_counts(pages, scores, auto_page)}
    routed = auto_points(pages, sources, run["page_types"])
    # 0/1 scores: the threshold keeps exactly the blocks scored 1, the gap score none more
    # (and no main-region rule: the chain has its own tree rule)
    exact = dataclasses.replace(page_point, group=None, keep_comments=False)
    columns = {
        "article (CV)": counts["article"],
        "article mode=auto (CV)": [auto[point][i] for i, point in enumerate(routed)],
        "article mode=page (CV)": counts["page"],
        "article-rules": decoding_counts(pages, rule_scores(pages), exact),
        "block labels": decoding_counts(pages, label_scores(pages), exact),
    }
    command = "python benchmarks/learned_cv.py" + "".join(f" {a}" for a in (argv or sys.argv[1:]))
    body = "\n".join(
        [
            "## The learned `article`: cross-validated on the shippable datasets",
            "",
            f"Generated {date.today().isoformat()} by `{command}`: {len(pages)} pages of "
            f"{', '.join(args.datasets)}, {args.folds}-fold cross-validation grouped by domain "
            f"over their union, {NUM_TREES} trees. `article` (`mode=article`): "
            "each fold's model is trained on the other folds' article pages of every dataset, "
            "as the shipped model of that mode, and scores every page; its decoding is chosen "
            f"on the article pages' out-of-fold scores: {_point(article_point)}. `mode=page`: "
            "each fold's model is trained on all the other folds' pages, its decoding chosen on "
            f"the non-article pages' out-of-fold scores: {_point(page_point)}, reader comments "
            "kept. The `forum` point: the same model's scores, its decoding chosen on the forum "
            f"threads' out-of-fold scores: {_point(forum_point)}, reader comments kept. "
            "`mode=auto` (the default): each page decoded at the operating point its "
            "out-of-fold page type (classifier trained on the other folds' domains) picks: "
            + ", ".join(
                f"a `{name}` at the `{name}` point from a confidence of {bar}"
                for name, bar in OWN_POINT_FROM.items()
            )
            + f", another type that is not `article` at the `page` point (reader comments out) "
            f"from {PAGE_MODE_FROM}, else the `article` point. `article-rules` is "
            "decoded from the same blocks, its headline block dropped as `article` drops it. "
            "`block labels` keeps exactly the blocks labelled gold for training (the rule "
            "chain's blocks on a page without one, as the extractor falls back): the best "
            "choice of blocks this segmentation allows, as far as the labels tell. "
            "Word-shingle F1 as in the tables above (harmonic mean of mean page precision and "
            "mean page recall), with that precision and recall; pages with a page F1 < 0.3 "
            "after them. The shipped models are trained on all these pages (of their types), "
            "so `article`'s rows of these datasets in the extraction benchmark are training "
            "scores; these are its figures of record." + _cache_note(run, args),
            "",
            table(pages, sources, columns),
        ]
    )
    print(body)
    write_doc(args.doc, {"learned-cv": body})
    return 0


if __name__ == "__main__":
    sys.exit(main())

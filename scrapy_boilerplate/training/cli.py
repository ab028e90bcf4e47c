"""The ``scrapy-boilerplate train`` subcommand: train a block model on annotated pages.

``train DATASET [DATASET ...] --out MODEL.json.gz`` reads one or more datasets (WCXB layout or
the article-benchmark format: ``html/<id>.html.gz`` plus ``ground-truth.json``), cross-validates
by domain over their union, chooses
the decoding thresholds on the out-of-fold scores, prints the report per page type, trains on
every page and writes the model. With ``--page-types`` (e.g. ``article``) the models learn
from the pages of those types only, and the ``article`` decoding is chosen on them; every page
is still cross-validated and reported. Use it with ``-o model=MODEL.json.gz`` (extractor
``article-learned``) or the ``BOILERPLATE_OPTIONS`` setting. Needs the ``[train]`` extra.

``train DATASET [DATASET ...] --extractor victor --out MODEL.crf.gz`` trains the ``victor``
extractor's CRF instead (WCXB, article-benchmark or CleanEval datasets; labels aligned from the
gold segments, see :mod:`.victor_labels`): it cross-validates by domain over the union, prints
the report per page type and per dataset (shingle F1 of the decoded text), trains on every page
and writes the model (``-o model=...`` of ``victor``). Needs python-crfsuite (in the ``[train]``
and ``[victor]`` extras).

``train DATASET [DATASET ...] --extractor page-type --out MODEL.json.gz`` trains the page-type
classifier (:mod:`.page_type`; the datasets' page types are the labels): it prints the
out-of-fold confusion by domain-grouped CV, trains on every page and writes the model. The
shipped one: ``train wcxb-dev fundus magic-html --extractor page-type``.

``train DATASET [DATASET ...] --extractor title --out MODEL.json.gz`` trains the title ranker
(:mod:`.titles`; the datasets' gold titles are the labels): it prints the cross-validated exact
accuracy beside the rules' and writes the model; the shipped one: ``train wcxb-dev fundus
--extractor title``.

``train DATASET [DATASET ...] --extractor page-template --out MODEL.json`` trains the node
templateness classifier of ``page-template`` instead (:mod:`.template`): cross-validation by
domain over the datasets' union gives out-of-fold node scores, on which the smoothing penalty
and the threshold are chosen (the pooled template word F1 is reported per dataset too); the
model is then trained on every page. The shipped one: ``train wcxb-dev fundus magic-html
--extractor page-template``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import date
from importlib.metadata import version
from pathlib import Path
from typing import Any, TypeVar

from ..classifiers.gbdt import dump_model
from ..classifiers.titles import title_key
from ..evaluation.datasets import DatasetError, resolve_dataset
from .dataset import PageRows, dataset_rows
from .train import (
    NUM_TREES,
    TRAINING_PARAMETERS,
    Decoding,
    decoding_grid,
    decoding_metadata,
    export,
    fit,
    out_of_fold_scores,
    score_decoding,
    tune_decoding,
)

__all__ = ["add_train_command", "type_report"]

T = TypeVar("T")
#: Pages with a shingle F1 below this count as failures in the report.
LOW_F1 = 0.3


def add_train_command(subparsers: Any) -> None:
    """Add ``train`` to the ``scrapy-boilerplate`` subcommands."""
    parser = subparsers.add_parser(
        "train",
        help="train a block model on annotated pages (needs the [train] extra)",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    parser.add_argument(
        "datasets",
        metavar="DATASET",
        nargs="+",
        help="dataset folder (or a shared name); several for the block model",
    )
    parser.add_argument("--out", required=True, help="model file to write (.json or .json.gz)")
    parser.add_argument("--folds", type=int, default=5, help="CV folds by domain (0: no CV)")
    parser.add_argument("--trees", type=int, default=NUM_TREES, help="boosting rounds")
    parser.add_argument("--limit", type=int, help="use only the first N pages")
    parser.add_argument("--jobs", type=int, help="feature worker processes (default: CPUs)")
    parser.add_argument(
        "--page-types",
        help="train only on pages of these comma-separated page types (WCXB's page_type, "
        "e.g. article); default: every page",
    )
    parser.add_argument(
        "--extractor",
        choices=("article-learned", "victor", "page-template", "page-type", "title"),
        default="article-learned",
        help="the model to train: article-learned (block model), victor (CRF), page-template "
        "(node templateness model), page-type (page-type classifier) or title (title "
        "ranker); default: article-learned",
    )
    parser.set_defaults(handler=_cmd_train)


def type_report(pages: Sequence[PageRows], f1s: Sequence[float]) -> str:
    """Mean page shingle F1 and pages below :data:`LOW_F1` per page type, as markdown."""
    by_type: dict[str, list[float]] = defaultdict(list)
    for page, f1 in zip(pages, f1s, strict=True):
        by_type["all"].append(f1)
        by_type[page.page.page_type or "untyped"].append(f1)
    lines = ["| page type | pages | mean F1 | pages F1 < 0.3 |", "|---|---:|---:|---:|"]
    for name, values in sorted(by_type.items(), key=lambda item: (item[0] != "all", item[0])):
        low = sum(1 for value in values if value < LOW_F1)
        lines.append(f"| {name} | {len(values)} | {statistics.fmean(values):.3f} | {low} |")
    return "\n".join(lines)


def _tune(
    pages: list[PageRows], folds: int, trees: int, trains: Callable[[PageRows], bool]
) -> tuple[dict[str, Any], list[float]]:
    """Cross-validate on every page, each fold's model trained on the other folds' pages that
    ``trains`` accepts; the decodings of the three operating points (``article`` chosen on the
    accepted pages, ``page`` on the non-article ones, ``forum`` on the forum threads; the last
    two keep reader comments; ``cv_mean_f1`` is the accepted pages' mean) and every page's F1
    at the first."""
    scores = out_of_fold_scores(pages, folds=folds, num_trees=trees, train_on=trains)
    own = [i for i, page in enumerate(pages) if trains(page)]
    article = tune_decoding([pages[i] for i in own], [scores[i] for i in own], decoding_grid()).best

    def tuned(indices: list[int]) -> Decoding:
        if not indices:
            return article
        subset = [pages[i] for i in indices]
        grid = decoding_grid(keep_comments=True)
        return tune_decoding(subset, [scores[i] for i in indices], grid).best

    types = [page.page.page_type for page in pages]
    page_point = tuned([i for i, kind in enumerate(types) if kind not in (None, "article")])
    forum_point = tuned([i for i, kind in enumerate(types) if kind == "forum"])
    results = score_decoding(pages, scores, article)
    metadata = {
        **decoding_metadata(article),
        **decoding_metadata(page_point, "page_"),
        **decoding_metadata(forum_point, "forum_"),
        "cv_folds": folds,
        "cv_mean_f1": round(statistics.fmean(results[i] for i in own), 4),
    }
    return metadata, results


def _read_pages(dataset: str, read: Callable[[str], list[T]]) -> tuple[Path, list[T]] | None:
    """The dataset's folder and ``read(folder)``; None (the error printed) when it is missing,
    unreadable or has no readable page."""
    try:
        root = resolve_dataset(dataset)
        pages = read(str(root))
    except DatasetError as exc:
        print(f"scrapy-boilerplate: error: {exc}", file=sys.stderr)
        return None
    if not pages:
        print(f"scrapy-boilerplate: error: no readable pages in {root}", file=sys.stderr)
        return None
    return root, pages


def _cmd_train(args: argparse.Namespace) -> int:
    if args.extractor == "page-type":
        return _cmd_train_page_type(args)
    if args.extractor == "title":
        return _cmd_train_titles(args)
    if args.extractor == "victor":
        from .victor_cli import train_victor

        return train_victor(args.datasets, Path(args.out), args.folds, args.limit)
    if args.extractor == "page-template":
        return _cmd_train_template(args)
    roots: list[Path] = []
    pages: list[PageRows] = []
    for dataset in args.datasets:
        read = _read_pages(
            dataset, lambda root: dataset_rows(root, limit=args.limit, jobs=args.jobs)
        )
        if read is None:
            return 2
        roots.append(read[0])
        pages += read[1]
    wanted = sorted({name.strip() for name in (args.page_types or "").split(",") if name.strip()})

    def trains(page: PageRows) -> bool:
        return not wanted or page.page.page_type in wanted

    training = [page for page in pages if trains(page)]
    if not training:
        print(f"scrapy-boilerplate: error: no page of type {args.page_types}", file=sys.stderr)
        return 2
    sources = ", ".join(str(root) for root in roots)
    print(f"{len(pages)} pages, {sum(len(p.rows) for p in pages)} blocks from {sources}")
    if wanted:
        print(f"training on the {len(training)} pages of type {', '.join(wanted)}")
    metadata: dict[str, Any] = {}
    if args.folds > 1:
        metadata, results = _tune(pages, args.folds, args.trees, trains)
        print(f"\n{args.folds}-fold CV by domain, decoding {metadata}:\n")
        print(type_report(pages, results))
    else:
        metadata = decoding_metadata(Decoding())
    booster = fit(training, num_trees=args.trees)
    metadata |= {
        "trained_on": "+".join(root.name for root in roots),
        "page_types": wanted or "all",
        "pages": len(training),
        "trees": args.trees,
        "parameters": TRAINING_PARAMETERS,
        "package_version": version("scrapy-boilerplate"),
        "date": date.today().isoformat(),
    }
    dump_model(export(booster, metadata), Path(args.out))
    print(f"\nmodel written to {args.out}")
    return 0


def _cmd_train_template(args: argparse.Namespace) -> int:
    from ..classifiers.template import dump_template_model
    from .template import (
        TemplatePage,
        dataset_template_pages,
        fit_template_model,
        mean_label,
        out_of_fold_template_scores,
        source_template_report,
        tune_smoothing,
    )

    roots: list[Path] = []
    pages: list[TemplatePage] = []
    for dataset in args.datasets:
        read = _read_pages(
            dataset,
            lambda root: dataset_template_pages(root, limit=args.limit, jobs=args.jobs or 1),
        )
        if read is None:
            return 2
        roots.append(read[0])
        pages += read[1]
    nodes = sum(len(page.rows) for page in pages)
    sources = ", ".join(str(root) for root in roots)
    print(
        f"{len(pages)} pages, {nodes} visible nodes ({mean_label(pages):.1%} template) "
        f"from {sources}"
    )
    metadata: dict[str, Any] = {"c": 0.01, "threshold": 0.5, "levels": 64, "weighting": "words"}
    if args.folds > 1:
        scores = out_of_fold_template_scores(pages, args.folds)
        basic = tune_smoothing(pages, scores, smooth=False)
        smooth = tune_smoothing(pages, scores, smooth=True)
        print(f"\n{args.folds}-fold CV by domain, pooled template word F1:")
        print(f"  basic  (threshold {basic.threshold}): {basic.words_f1:.4f}")
        print(f"  smooth (c {smooth.c:g}, threshold {smooth.threshold}): {smooth.words_f1:.4f}")
        if len(roots) > 1:
            print(source_template_report(pages, scores, smooth))
        metadata |= {
            "c": smooth.c,
            "threshold": smooth.threshold,
            "basic_threshold": basic.threshold,
            "cv_folds": args.folds,
            "cv_words_f1": {"basic": round(basic.words_f1, 4), "smooth": round(smooth.words_f1, 4)},
        }
    metadata |= {
        "trained_on": "+".join(root.name for root in roots),
        "pages": len(pages),
        "package_version": version("scrapy-boilerplate"),
        "date": date.today().isoformat(),
    }
    dump_template_model(fit_template_model(pages, metadata=metadata), args.out)
    print(f"\nmodel written to {args.out}")
    return 0


def _named_sources(
    datasets: Sequence[str], *, by_folder_name: bool = True
) -> list[tuple[str, str]] | None:
    """``(name, path)`` of each dataset (its folder's name, or as given), or None after saying
    which one is missing."""
    sources = []
    for dataset in datasets:
        try:
            root = resolve_dataset(dataset)
        except DatasetError as exc:
            print(f"scrapy-boilerplate: error: {exc}", file=sys.stderr)
            return None
        sources.append((root.name if by_folder_name else dataset, str(root)))
    return sources


def _provenance(sources: Sequence[tuple[str, str]], pages: int) -> dict[str, Any]:
    """What a model file records of its training: datasets, pages, package version, date."""
    return {
        "trained_on": "+".join(name for name, _ in sources),
        "pages": pages,
        "package_version": version("scrapy-boilerplate"),
        "date": date.today().isoformat(),
    }


def _cmd_train_titles(args: argparse.Namespace) -> int:
    from ..classifiers.titles import dump_title_model
    from .titles import accuracy_report, fit_titles, out_of_fold_titles, title_rows

    sources = _named_sources(args.datasets)
    if sources is None:
        return 2
    pages = title_rows(sources, limit=args.limit, jobs=args.jobs)
    if not any(label for page in pages for label in page.labels):
        print("scrapy-boilerplate: error: no page whose gold title is a candidate", file=sys.stderr)
        return 2
    print(f"{len(pages)} pages with a gold title from {', '.join(name for name, _ in sources)}")
    metadata: dict[str, Any] = {}
    if args.folds > 1:
        chosen = out_of_fold_titles(pages, folds=args.folds)
        print(f"\n{args.folds}-fold CV by domain (exact title):\n")
        print(accuracy_report(pages, chosen))
        hits = sum(
            title_key(text or "") == title_key(page.gold)
            for page, text in zip(pages, chosen, strict=True)
        )
        metadata |= {"cv_folds": args.folds, "cv_accuracy": round(hits / len(pages), 4)}
    metadata |= _provenance(sources, len(pages))
    dump_title_model(fit_titles(pages, metadata=metadata), args.out)
    print(f"\nmodel written to {args.out}")
    return 0


def _cmd_train_page_type(args: argparse.Namespace) -> int:
    from ..classifiers.page_type import dump_page_type_model
    from .page_type import confusion_report, fit_page_types, out_of_fold_page_types, page_type_rows

    sources = _named_sources(args.datasets, by_folder_name=False)
    if sources is None:
        return 2
    rows = page_type_rows(sources, limit=args.limit, jobs=args.jobs)
    if len({row.page_type for row in rows}) < 2:
        print("scrapy-boilerplate: error: fewer than two page types to learn", file=sys.stderr)
        return 2
    print(f"{len(rows)} typed pages from {', '.join(name for name, _ in sources)}")
    metadata: dict[str, Any] = {}
    if args.folds > 1:
        predicted = out_of_fold_page_types(rows, folds=args.folds)
        print(f"\n{args.folds}-fold CV by domain:\n")
        print(confusion_report(rows, [name for name, _ in predicted]))
        hits = sum(row.page_type == name for row, (name, _) in zip(rows, predicted, strict=True))
        metadata |= {"cv_folds": args.folds, "cv_accuracy": round(hits / len(rows), 4)}
    metadata |= _provenance(sources, len(rows))
    dump_page_type_model(fit_page_types(rows, metadata=metadata), args.out)
    print(f"\nmodel written to {args.out}")
    return 0

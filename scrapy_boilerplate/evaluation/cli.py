"""The ``scrapy-boilerplate evaluate`` subcommand.

``evaluate DATASET [--extractor SPEC ...] [--predictions PRED.json ...]`` scores extractors (or
saved predictions in the article-benchmark format) on a dataset folder and prints markdown
tables; DATASET is a path or a folder name under the shared datasets root.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .datasets import DatasetError, Page, detect_format, load_pages, resolve_dataset
from .peers import PEERS, PeerUnavailableError, parse_spec, resolve_extractor
from .report import (
    PageRun,
    PageScore,
    quality_table,
    run_extractor,
    score_page,
    summarise,
    type_table,
)

__all__ = ["add_evaluate_command", "evaluate"]


def add_evaluate_command(subparsers: Any) -> None:
    """Add ``evaluate`` to the ``scrapy-boilerplate`` subcommands."""
    parser = subparsers.add_parser(
        "evaluate",
        help="score extractors on an annotated dataset and print tables",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    parser.add_argument(
        "dataset", metavar="DATASET", help="dataset folder, or a name under ../shared/datasets"
    )
    parser.add_argument(
        "--extractor",
        action="append",
        default=[],
        metavar="SPEC",
        help="extractor (name[:opt=value,...]) or peer name; repeatable (default: article)",
    )
    parser.add_argument(
        "--predictions",
        action="append",
        default=[],
        metavar="PRED.json",
        help="score saved predictions ({id: {articleBody: ...}}); repeatable",
    )
    parser.add_argument("--limit", type=int, help="score only the first N pages")
    parser.add_argument("--page-type", help="only pages of this WCXB page type")
    parser.add_argument(
        "--bootstrap", type=int, default=300, help="bootstrap resamples (default 300)"
    )
    parser.set_defaults(handler=_cmd_evaluate)


def _load_predictions(path: str) -> dict[str, str]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise DatasetError(f"{path}: expected a JSON object mapping id -> {{articleBody: ...}}")
    return {key: str((value or {}).get("articleBody") or "") for key, value in data.items()}


def evaluate(
    pages: list[Page], extractors: list[str], predictions: list[str], bootstrap: int
) -> dict[str, list[PageScore]]:
    """Score each extractor spec and prediction file on ``pages``; name -> page scores."""
    results: dict[str, list[PageScore]] = {}
    for spec in extractors:
        runs = run_extractor(resolve_extractor(spec), pages)
        _report_errors(spec, runs)
        results[spec] = [
            score_page(page, run.text, error=run.error is not None)
            for page, run in zip(pages, runs, strict=True)
        ]
    for path in predictions:
        texts = _load_predictions(path)
        results[Path(path).stem] = [
            score_page(page, texts.get(page.id, ""), error=page.id not in texts) for page in pages
        ]
    return results


def _report_errors(name: str, runs: list[PageRun], shown: int = 3) -> None:
    failed = [run for run in runs if run.error is not None]
    if failed:
        examples = "; ".join(f"{run.page_id}: {run.error}" for run in failed[:shown])
        print(f"{name}: {len(failed)} of {len(runs)} pages failed ({examples})", file=sys.stderr)


def _cmd_evaluate(args: argparse.Namespace) -> int:
    try:
        root = resolve_dataset(args.dataset)
        fmt = detect_format(root)
        pages = list(load_pages(root, limit=args.limit, page_type=args.page_type))
    except DatasetError as exc:
        print(f"scrapy-boilerplate: error: {exc}", file=sys.stderr)
        return 2
    extractors = args.extractor or ([] if args.predictions else ["article"])
    try:
        results = evaluate(pages, extractors, args.predictions, args.bootstrap)
    except PeerUnavailableError as exc:
        print(
            f"scrapy-boilerplate: error: {exc} (pip install scrapy-boilerplate[peers])",
            file=sys.stderr,
        )
        return 2
    snippets = fmt == "wcxb"
    print(f"## {root.name} ({fmt}, {len(pages)} pages)\n")
    rows = [summarise(name, scores, bootstrap=args.bootstrap) for name, scores in results.items()]
    print(quality_table(rows, snippets=snippets))
    if snippets and args.page_type is None and results:
        print("\n### Word-shingle F1 by page type\n")
        print(type_table(results))
    registered = [spec for spec in extractors if parse_spec(spec)[0] not in PEERS]
    if fmt == "l3s-gn1" and registered:
        from .blocks import block_table, l3s_block_summary

        print("\n### Word-weighted block classification of the annotated pages\n")
        print(block_table([l3s_block_summary(spec, root, pages) for spec in registered]))
    return 0

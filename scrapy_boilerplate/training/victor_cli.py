"""``scrapy-boilerplate train --extractor victor``: cross-validate, report, train, write."""

from __future__ import annotations

import statistics
import sys
from collections import defaultdict
from collections.abc import Sequence
from datetime import date
from importlib.metadata import version
from pathlib import Path

from ..evaluation.datasets import DatasetError
from ..evaluation.metrics import page_f1, shingle_counts
from .victor import (
    CRF_PARAMETERS,
    VictorPage,
    cross_validate,
    decoded_text,
    train_model,
    victor_datasets,
)

__all__ = ["train_victor", "victor_type_report"]


def _report_groups(page: VictorPage, several_sources: bool) -> list[str]:
    """The report rows a page counts in: all, its source (when there are several), its type."""
    groups = ["all", page.page_type or "untyped"]
    return [*groups, f"source {page.source}"] if several_sources else groups


def victor_type_report(pages: list[VictorPage], predicted: list[list[str]]) -> str:
    """Label accuracy and mean page shingle F1 of the decoded text per page type, and per
    source when the pages come from several datasets (markdown)."""
    several_sources = len({page.source for page in pages}) > 1
    by_type: dict[str, list[tuple[float, int, int]]] = defaultdict(list)
    for page, codes in zip(pages, predicted, strict=True):
        f1 = page_f1(shingle_counts(page.gold_text, decoded_text(page, codes)))
        right = sum(a == b for a, b in zip(page.codes, codes, strict=True))
        for name in _report_groups(page, several_sources):
            by_type[name].append((f1, right, len(codes)))
    lines = ["| pages of | pages | label accuracy | mean F1 |", "|---|---:|---:|---:|"]
    order = sorted(by_type, key=lambda name: (name != "all", not name.startswith("source "), name))
    for name in order:
        rows = by_type[name]
        accuracy = sum(r for _, r, _ in rows) / max(1, sum(n for _, _, n in rows))
        mean_f1 = statistics.fmean(f for f, _, _ in rows)
        lines.append(f"| {name} | {len(rows)} | {accuracy:.3f} | {mean_f1:.3f} |")
    return "\n".join(lines)


def train_victor(datasets: Sequence[str], out: Path, folds: int, limit: int | None) -> int:
    """Run the command on the union of ``datasets`` (CV folds by domain over the union); 0 on
    success, 2 when a dataset cannot be read."""
    try:
        pages = victor_datasets(datasets, limit=limit)
    except (DatasetError, ValueError) as exc:
        print(f"scrapy-boilerplate: error: {exc}", file=sys.stderr)
        return 2
    names = ", ".join(datasets)
    if not pages:
        print(f"scrapy-boilerplate: error: no readable pages in {names}", file=sys.stderr)
        return 2
    print(f"{len(pages)} pages, {sum(len(p.rows) for p in pages)} victor blocks from {names}")
    if folds > 1:
        predicted = cross_validate(pages, folds, by_domain=True)
        print(f"\n{folds}-fold CV by domain, parameters {CRF_PARAMETERS}:\n")
        print(victor_type_report(pages, predicted))
    metadata = {
        "trained_on": "+".join(dict.fromkeys(page.source for page in pages)),
        "package_version": version("scrapy-boilerplate"),
        "date": date.today().isoformat(),
    }
    out.write_bytes(train_model(pages, metadata=metadata))
    print(f"\nmodel written to {out}")
    return 0
